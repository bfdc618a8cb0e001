#!/usr/bin/env bash
# Start or stop a Docker engine for the lab on a machine where none runs: no bridge network and no iptables rules
# (lab containers run with --network none; image builds use --network none too). Only the daemon this script
# started is ever stopped, by the PID it recorded.
#   containers/dockerd.sh start   # prints the PID; the log is in results/dockerd/dockerd.log
#   containers/dockerd.sh stop
# A named engine is a second, independent engine on this machine (its own socket, data root, exec root and PID file
# under results/dockerd/<name>/), reached through the Docker context jsonlab-<name>, which start creates and stop
# removes: the lab's stand-in for a remote host (hosts.toml, docs/hosts.md).
#   containers/dockerd.sh start second
#   containers/dockerd.sh stop second
set -euo pipefail
# State (PID file, log) lives in this checkout, so a daemon started from another checkout is never stopped from this one.
STATE_ROOT=${JSONLAB_DOCKERD_DIR:-$(cd "$(dirname "$0")/.." && pwd)/results/dockerd}
NAME=${2:-}
if [ -n "$NAME" ]; then
    [[ "$NAME" =~ ^[a-z0-9][a-z0-9-]*$ ]] || { echo "error: engine name '$NAME': lower-case letters, digits, '-'" >&2; exit 2; }
    STATE_DIR=$STATE_ROOT/$NAME
    SOCKET=$STATE_DIR/docker.sock
    CONTEXT=jsonlab-$NAME
    DOCKER=(docker -H "unix://$SOCKET")
    DAEMON_ARGS=(--host "unix://$SOCKET" --data-root "$STATE_DIR/data" --exec-root "$STATE_DIR/exec"
        --pidfile "$STATE_DIR/dockerd.pid")
else
    STATE_DIR=$STATE_ROOT
    DOCKER=(docker)
    DAEMON_ARGS=()
fi
PID_FILE=$STATE_DIR/dockerd.pid.started
[ -n "$NAME" ] || PID_FILE=$STATE_DIR/dockerd.pid
mkdir -p "$STATE_DIR"

case "${1:-}" in
start)
    if "${DOCKER[@]}" info >/dev/null 2>&1; then
        echo "a Docker engine already answers${NAME:+ at $SOCKET}; not starting another" >&2
        exit 0
    fi
    command -v dockerd >/dev/null || { echo "error: dockerd is not installed (apt-get install docker.io)" >&2; exit 1; }
    dockerd --iptables=false --bridge=none "${DAEMON_ARGS[@]}" >"$STATE_DIR/dockerd.log" 2>&1 &
    echo $! >"$PID_FILE"
    for _ in $(seq 1 60); do
        if "${DOCKER[@]}" info >/dev/null 2>&1; then
            if [ -n "$NAME" ]; then
                docker context rm -f "$CONTEXT" >/dev/null 2>&1 || true
                docker context create "$CONTEXT" --description "jsonlab engine '$NAME' (containers/dockerd.sh)" \
                    --docker "host=unix://$SOCKET" >/dev/null
            fi
            echo "dockerd started (PID $(cat "$PID_FILE"))${NAME:+; context $CONTEXT}" >&2
            exit 0
        fi
        kill -0 "$(cat "$PID_FILE")" 2>/dev/null || { echo "error: dockerd exited; see $STATE_DIR/dockerd.log" >&2; tail -5 "$STATE_DIR/dockerd.log" >&2; exit 1; }
        sleep 1
    done
    echo "error: dockerd did not answer within 60 s; see $STATE_DIR/dockerd.log" >&2
    exit 1
    ;;
stop)
    [ -f "$PID_FILE" ] || { echo "no dockerd${NAME:+ '$NAME'} started by this script" >&2; exit 0; }
    pid=$(cat "$PID_FILE")
    if kill -0 "$pid" 2>/dev/null; then
        kill "$pid"
        for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
        kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
        echo "dockerd${NAME:+ '$NAME'} (PID $pid) stopped" >&2
    fi
    rm -f "$PID_FILE"
    [ -z "$NAME" ] || docker context rm -f "$CONTEXT" >/dev/null 2>&1 || true
    ;;
*)
    echo "usage: $0 start|stop [name]" >&2
    exit 2
    ;;
esac
