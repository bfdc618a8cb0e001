#!/usr/bin/env bash
# Start or stop a Docker engine for the lab on a machine where none runs: no bridge network and no iptables rules
# (lab containers run with --network none; image builds use --network none too). Only the daemon this script
# started is ever stopped, by the PID it recorded.
#   containers/dockerd.sh start   # prints the PID; the log is in results/dockerd/dockerd.log
#   containers/dockerd.sh stop
set -euo pipefail
# State (PID file, log) lives in this checkout, so a daemon started from another checkout is never stopped from this one.
STATE_DIR=${JSONLAB_DOCKERD_DIR:-$(cd "$(dirname "$0")/.." && pwd)/results/dockerd}
PID_FILE=$STATE_DIR/dockerd.pid
mkdir -p "$STATE_DIR"

case "${1:-}" in
start)
    if docker info >/dev/null 2>&1; then
        echo "a Docker engine already answers; not starting another" >&2
        exit 0
    fi
    command -v dockerd >/dev/null || { echo "error: dockerd is not installed (apt-get install docker.io)" >&2; exit 1; }
    dockerd --iptables=false --bridge=none >"$STATE_DIR/dockerd.log" 2>&1 &
    echo $! >"$PID_FILE"
    for _ in $(seq 1 60); do
        if docker info >/dev/null 2>&1; then
            echo "dockerd started (PID $(cat "$PID_FILE"))" >&2
            exit 0
        fi
        kill -0 "$(cat "$PID_FILE")" 2>/dev/null || { echo "error: dockerd exited; see $STATE_DIR/dockerd.log" >&2; tail -5 "$STATE_DIR/dockerd.log" >&2; exit 1; }
        sleep 1
    done
    echo "error: dockerd did not answer within 60 s; see $STATE_DIR/dockerd.log" >&2
    exit 1
    ;;
stop)
    [ -f "$PID_FILE" ] || { echo "no dockerd started by this script" >&2; exit 0; }
    pid=$(cat "$PID_FILE")
    if kill -0 "$pid" 2>/dev/null; then
        kill "$pid"
        for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
        kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
        echo "dockerd (PID $pid) stopped" >&2
    fi
    rm -f "$PID_FILE"
    ;;
*)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
