"""Rendering a report page in headless Chromium: a full-page screenshot, console errors and broken images.

Chromium is driven over the DevTools protocol through --remote-debugging-pipe (JSON messages separated
by NUL on file descriptors 3 and 4), so nothing but the standard library and Debian's `chromium` is
needed, and no port is opened. Background networking is switched off: the page must render offline.
A report page is untrusted input: Chromium keeps its sandbox, and as root it runs as the unprivileged user `nobody`
(Chromium's sandbox refuses root), reading a copy of the page from a folder of its own; every request the page makes
besides itself and its data: images is recorded, and a page that makes one fails the check.
"""

from __future__ import annotations

import base64
import json
import os
import pathlib
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from typing import TypedDict

from harness.model.errors import MissingToolError
from harness.model.json_value import JsonObject, as_array, as_number, as_object, as_text

#: Flags for a quiet, offline, root-safe headless Chromium (the machine has no network but loopback).
CHROMIUM_FLAGS = [
    "--headless",
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
    requests: list[str] = field(default_factory=list)

    @property
    def problems(self) -> list[str]:
        """Everything that makes the page fail the check: console errors, broken images, requests it made."""
        return (
            [f"console error: {e}" for e in self.console_errors]
            + ([f"{self.broken_images} broken image(s)"] if self.broken_images else [])
            + [f"request to {url[:200]}" for url in self.requests]
        )


def find_chromium() -> str:
    """The Chromium binary, or MissingToolError saying how to install it."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if path := shutil.which(name):
            return path
    raise MissingToolError("no Chromium on PATH", "install Debian's chromium package (apt-get install chromium)")


class _Message(TypedDict, total=False):
    """A DevTools protocol message: a command (id, method, params, and the page's sessionId once attached), its reply
    (the same id, and result or error) or an event (method, params)."""

    id: int
    method: str
    params: JsonObject
    sessionId: str
    result: JsonObject
    error: JsonObject


class _Pipe:
    """A DevTools session over the browser's pipe, flattened to one page session."""

    def __init__(self, proc: subprocess.Popen, write_fd: int, read_fd: int) -> None:
        self._proc, self._w, self._r = proc, write_fd, read_fd
        self._buffer = b""
        self._id = 0
        self.events: list[JsonObject] = []  # the DevTools events read while waiting for a reply
        self.session: str | None = None

    def send(
        self, method: str, params: JsonObject | None = None, session: bool = True, timeout_s: float = 120
    ) -> JsonObject:
        self._id += 1
        message: _Message = {"id": self._id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self._w, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            reply = self._next(deadline)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return as_object(reply.get("result"))
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

    def _next(self, deadline: float) -> JsonObject:
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline or self._proc.poll() is not None:
                raise TimeoutError("Chromium closed the pipe or stopped answering")
            chunk = os.read(self._r, 1 << 20)
            if not chunk:
                raise TimeoutError("Chromium closed the pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message: JsonObject = json.loads(raw)  # the protocol's every message is a JSON object
        return message


#: The user Chromium runs as when the harness is root (its sandbox does not run as root).
SANDBOX_USER = "nobody"


def _unprivileged() -> pwd.struct_passwd | None:
    """The account to run Chromium as: None when not root; `nobody` as root; MissingToolError when there is none."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam(SANDBOX_USER)
    except KeyError:
        raise MissingToolError(
            f"Chromium keeps its sandbox, which does not run as root, and this machine has no user {SANDBOX_USER!r}",
            f"add one (useradd --system {SANDBOX_USER}) or run the screenshot as a non-root user",
        ) from None


def check_page(page: pathlib.Path, width: int = 1280, timeout_s: float = 120) -> PageCheck:
    # Generous timeouts: the first Chromium start on a fresh machine builds its font cache.
    """Loads a copy of a local HTML file in sandboxed headless Chromium, waits for it to load, and reports errors,
    images, requests and a full-page screenshot."""
    binary = find_chromium()
    account = _unprivileged()
    to_browser_r, to_browser_w = os.pipe()
    from_browser_r, from_browser_w = os.pipe()
    # Chromium's helper processes can still be writing to the profile for a moment after it is killed.
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as home:
        folder = pathlib.Path(home)
        (folder / "profile").mkdir()
        copy = folder / "page" / page.name
        copy.parent.mkdir()
        shutil.copyfile(page, copy)
        if account is not None:
            for path in (folder, folder / "profile", copy.parent, copy):
                os.chown(path, account.pw_uid, account.pw_gid)

        def child_fds() -> None:
            # Chromium reads commands on fd 3 and writes replies on fd 4; copy first, so neither end is overwritten.
            commands, replies = os.dup(to_browser_r), os.dup(from_browser_w)
            os.dup2(commands, 3)
            os.dup2(replies, 4)

        # close_fds=False: subprocess would close fds 3 and 4 after preexec_fn has placed them.
        said = folder / "chromium.log"
        with said.open("wb") as sink:
            proc = subprocess.Popen(
                [binary, *CHROMIUM_FLAGS, f"--user-data-dir={folder / 'profile'}", "about:blank"],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=sink,
                close_fds=False,
                preexec_fn=child_fds,
                start_new_session=True,
                env={**os.environ, "HOME": str(folder), "XDG_CONFIG_HOME": str(folder), "XDG_CACHE_HOME": str(folder)},
                user=account.pw_uid if account else None,
                group=account.pw_gid if account else None,
                extra_groups=[] if account else None,
            )
        os.close(to_browser_r)
        os.close(from_browser_w)
        pipe = _Pipe(proc, to_browser_w, from_browser_r)
        try:
            return _inspect(pipe, copy.resolve().as_uri(), width, timeout_s)
        except TimeoutError as error:
            raise MissingToolError(
                f"sandboxed Chromium did not render the page: {error}; it said: {_said(proc, said)}",
                "Chromium's sandbox needs unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; "
                "in a container, a seccomp profile that allows them)",
            ) from None
        finally:
            _stop(proc)
            os.close(to_browser_w)
            os.close(from_browser_r)


def _said(proc: subprocess.Popen, log: pathlib.Path) -> str:
    """The last lines Chromium wrote on stderr (after it was stopped), without its D-Bus noise."""
    _stop(proc)
    text = log.read_bytes()[-100_000:].decode(errors="replace")
    lines = [line for line in text.splitlines() if "dbus" not in line.lower()]
    return " / ".join(lines[-3:])[-600:] or "nothing"


def _stop(proc: subprocess.Popen) -> None:
    """Kills Chromium and every helper it started (they share its new session's process group)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def _inspect(pipe: _Pipe, url: str, width: int, timeout_s: float) -> PageCheck:
    target = pipe.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
    attached = pipe.send("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)
    pipe.session = as_text(attached["sessionId"])
    for domain in ("Page", "Runtime", "Log", "Network"):
        pipe.send(f"{domain}.enable")
    pipe.send(
        "Emulation.setDeviceMetricsOverride", {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False}
    )
    pipe.send("Page.navigate", {"url": url})
    pipe.wait_for("Page.loadEventFired", timeout_s)
    result = PageCheck()
    result.images = _count(pipe, "document.images.length")
    result.broken_images = _count(pipe, _BROKEN_IMAGES)
    height = _count(pipe, "document.documentElement.scrollHeight")
    shot = pipe.send(
        "Page.captureScreenshot",
        {
            "format": "png",
            "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": width, "height": min(height, 16000), "scale": 1},
        },
        timeout_s=timeout_s,
    )
    result.screenshot_png = base64.b64decode(as_text(shot["data"]) or "")
    result.console_errors = _errors(pipe.events)
    result.requests = _requests(pipe.events, url)
    return result


def _count(pipe: _Pipe, expression: str) -> int:
    """The whole number a JavaScript expression gives in the page (Runtime.evaluate, returned by value); 0 for what is
    not a number."""
    reply = pipe.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
    return int(as_number(as_object(reply["result"])["value"]) or 0)


def _requests(events: list[JsonObject], page_url: str) -> list[str]:
    """Every URL the page asked for besides itself and data: URIs."""
    urls = (as_text(as_object(as_object(e.get("params")).get("request")).get("url")) for e in events)
    return [url for url in urls if url and url != page_url and not url.startswith("data:")]


def _errors(events: list[JsonObject]) -> list[str]:
    """Console errors, uncaught exceptions and failed loads reported while the page loaded."""
    errors = []
    for event in events:
        method, params = event.get("method"), as_object(event.get("params"))
        entry = as_object(params.get("entry"))
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            args = map(as_object, as_array(params.get("args")))
            errors.append(" ".join(str(a.get("value", a.get("description", ""))) for a in args))
        elif method == "Runtime.exceptionThrown":
            errors.append(str(as_object(params.get("exceptionDetails")).get("text", "exception")))
        elif method == "Log.entryAdded" and entry.get("level") == "error":
            errors.append(str(entry.get("text", "error")))
    return errors
