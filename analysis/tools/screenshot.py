"""Rendering a report page in headless Chromium: a full-page screenshot, console errors and broken images.

Chromium is driven over the DevTools protocol through --remote-debugging-pipe (JSON messages separated
by NUL on file descriptors 3 and 4), so nothing but the standard library and Debian's `chromium` is
needed, and no port is opened. Background networking is switched off: the page must render offline.
"""

from __future__ import annotations

import base64
import json
import os
import pathlib
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

from harness.model.errors import MissingToolError

#: Flags for a quiet, offline, root-safe headless Chromium (the machine has no network but loopback).
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-pipe",
    "--hide-scrollbars",
]

#: Counts <img> elements that are not complete or decoded to zero width.
_BROKEN_IMAGES = "Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0).length"


@dataclass
class PageCheck:
    """What rendering a page showed."""

    screenshot_png: bytes = b""
    console_errors: list[str] = field(default_factory=list)
    images: int = 0
    broken_images: int = 0


def find_chromium() -> str:
    """The Chromium binary, or MissingToolError saying how to install it."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if path := shutil.which(name):
            return path
    raise MissingToolError("no Chromium on PATH", "install Debian's chromium package (apt-get install chromium)")


class _Pipe:
    """A DevTools session over the browser's pipe, flattened to one page session."""

    def __init__(self, proc: subprocess.Popen, write_fd: int, read_fd: int) -> None:
        self._proc, self._w, self._r = proc, write_fd, read_fd
        self._buffer = b""
        self._id = 0
        self.events: list[dict[str, Any]] = []
        self.session: str | None = None

    def send(
        self, method: str, params: dict | None = None, session: bool = True, timeout_s: float = 120
    ) -> dict[str, Any]:
        self._id += 1
        message = {"id": self._id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self._w, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            reply = self._next(deadline)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)
        raise TimeoutError(f"Chromium did not answer {method} within {timeout_s} s")

    def wait_for(self, event: str, timeout_s: float = 120) -> None:
        deadline = time.monotonic() + timeout_s
        if any(e.get("method") == event for e in self.events):
            return
        while time.monotonic() < deadline:
            message = self._next(deadline)
            self.events.append(message)
            if message.get("method") == event:
                return
        raise TimeoutError(f"no {event} within {timeout_s} s")

    def _next(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline or self._proc.poll() is not None:
                raise TimeoutError("Chromium closed the pipe or stopped answering")
            chunk = os.read(self._r, 1 << 20)
            if not chunk:
                raise TimeoutError("Chromium closed the pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)


def check_page(page: pathlib.Path, width: int = 1280, timeout_s: float = 120) -> PageCheck:
    # Generous timeouts: the first Chromium start on a fresh machine builds its font cache.
    """Loads a local HTML file, waits for it to load, and reports errors, images and a full-page screenshot."""
    binary = find_chromium()
    to_browser_r, to_browser_w = os.pipe()
    from_browser_r, from_browser_w = os.pipe()
    # Chromium's helper processes can still be writing to the profile for a moment after it is killed.
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:

        def child_fds() -> None:
            # Chromium reads commands on fd 3 and writes replies on fd 4; copy first, so neither end is overwritten.
            commands, replies = os.dup(to_browser_r), os.dup(from_browser_w)
            os.dup2(commands, 3)
            os.dup2(replies, 4)

        # close_fds=False: subprocess would close fds 3 and 4 after preexec_fn has placed them.
        proc = subprocess.Popen(
            [binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=False,
            preexec_fn=child_fds,
            start_new_session=True,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        pipe = _Pipe(proc, to_browser_w, from_browser_r)
        try:
            return _inspect(pipe, page.resolve().as_uri(), width, timeout_s)
        finally:
            _stop(proc)
            os.close(to_browser_w)
            os.close(from_browser_r)


def _stop(proc: subprocess.Popen) -> None:
    """Kills Chromium and every helper it started (they share its new session's process group)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def _inspect(pipe: _Pipe, url: str, width: int, timeout_s: float) -> PageCheck:
    target = pipe.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
    pipe.session = pipe.send("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
    for domain in ("Page", "Runtime", "Log"):
        pipe.send(f"{domain}.enable")
    pipe.send(
        "Emulation.setDeviceMetricsOverride", {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False}
    )
    pipe.send("Page.navigate", {"url": url})
    pipe.wait_for("Page.loadEventFired", timeout_s)
    result = PageCheck()
    result.images = pipe.send("Runtime.evaluate", {"expression": "document.images.length", "returnByValue": True})[
        "result"
    ]["value"]
    result.broken_images = pipe.send("Runtime.evaluate", {"expression": _BROKEN_IMAGES, "returnByValue": True})[
        "result"
    ]["value"]
    height = pipe.send(
        "Runtime.evaluate", {"expression": "document.documentElement.scrollHeight", "returnByValue": True}
    )["result"]["value"]
    shot = pipe.send(
        "Page.captureScreenshot",
        {
            "format": "png",
            "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": width, "height": min(int(height), 16000), "scale": 1},
        },
        timeout_s=timeout_s,
    )
    result.screenshot_png = base64.b64decode(shot["data"])
    result.console_errors = _errors(pipe.events)
    return result


def _errors(events: list[dict[str, Any]]) -> list[str]:
    """Console errors, uncaught exceptions and failed loads reported while the page loaded."""
    errors = []
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            errors.append(" ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
        elif method == "Runtime.exceptionThrown":
            errors.append(params.get("exceptionDetails", {}).get("text", "exception"))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            errors.append(params["entry"].get("text", "error"))
    return errors
