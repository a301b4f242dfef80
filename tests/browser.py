"""One headless Chromium (Debian's ``/usr/bin/chromium``) per test process, driven over its
DevTools pipe (``--remote-debugging-pipe``: JSON messages ending in a NUL byte, the browser reading
its file descriptor 3 and writing its 4), so that no Python package is needed.

Starting Chromium is most of what a one-shot ``chromium --dump-dom`` costs (about a second, mostly
spent waiting); a page in a running browser takes a tenth of that. The checks of a process
navigate one tab, opened by the first: a tab per check cost a renderer process started and ended
each time (a fifth of a check's CPU). The ``chromium`` fixture (tests/conftest.py) starts the
browser the first time a test of the process asks for it and ends it with the session.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import selectors
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import IO, Any

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-startup-window",  # no first tab: the checks open theirs (its renderer cost a fifth of a second)
)
WINDOW = (1200, 1600)
"""The window (CSS pixels) every page is laid out in."""
REPLY_SECONDS = 120.0
"""A healthy browser answers in well under a second; this only keeps a broken one from hanging the
test run (as the one-shot command's timeout did)."""
LOADED_SECONDS = 5.0
"""How long a loaded page may still take to show its check's attribute (none, unless it is broken)."""


class BrowserError(Exception):
    """The browser died, refused a command or did not answer in time."""


class Chromium:
    """A running headless Chromium and the DevTools messages to and from it."""

    def __init__(self, profile: Path) -> None:
        assert CHROMIUM is not None
        to_browser, self._commands = os.pipe()  # the browser reads its fd 3
        self._replies, from_browser = os.pipe()  # and writes its fd 4
        self._stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
        width, height = WINDOW
        command = [
            CHROMIUM,
            *FLAGS,
            f"--user-data-dir={profile}",
            f"--window-size={width},{height}",
            "--remote-debugging-pipe",
        ]
        # bash puts the two pipe ends on the descriptors the browser expects (no preexec_fn: the
        # test process may have threads; dash refuses a descriptor above 9)
        self.process = subprocess.Popen(
            ["bash", "-c", f'exec "$0" "$@" 3<&{to_browser} 4>&{from_browser}', *command],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self._stderr,
            pass_fds=(to_browser, from_browser),
            start_new_session=True,  # the browser and its helpers end together (close)
        )
        os.close(to_browser)
        os.close(from_browser)
        self._buffer = bytearray()
        self._last_id = 0
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._replies, selectors.EVENT_READ)
        self._tab: tuple[str, str] | None = None  # the checks' tab: its target and session ids
        try:
            self.call("Browser.getVersion")  # answered once the browser is up
        except BaseException:
            self.close()
            raise

    def call(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        session: str | None = None,
        seconds: float = REPLY_SECONDS,
    ) -> Any:
        """Send one command and wait for its reply (events read meanwhile are dropped)."""
        self._last_id += 1
        message: dict[str, Any] = {"id": self._last_id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        try:
            os.write(self._commands, json.dumps(message).encode() + b"\0")
        except BrokenPipeError:
            raise BrowserError(f"{method}: the browser is gone{self._tail()}") from None
        deadline = time.monotonic() + seconds
        while True:
            reply = self._read(method, deadline)
            if reply.get("id") == self._last_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def _read(self, method: str, deadline: float) -> dict[str, Any]:
        while (end := self._buffer.find(b"\0")) < 0:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError(f"{method}: no answer in time{self._tail()}")
            if not self._selector.select(left):
                continue
            chunk = os.read(self._replies, 1 << 20)
            if not chunk:
                raise BrowserError(f"{method}: the browser is gone{self._tail()}")
            self._buffer += chunk
        message = bytes(self._buffer[:end])
        del self._buffer[: end + 1]
        found: dict[str, Any] = json.loads(message)
        return found

    def check(
        self,
        url: str,
        attribute: str,
        *,
        screenshot: Path | None = None,
        scale: float = 1.0,
        hide_scrollbars: bool = False,
    ) -> str:
        """Open ``url`` in the checks' tab and return the value its load handler put in the body's
        ``attribute`` (the page's own check); ``screenshot``: the window drawn into that PNG file,
        ``scale`` device pixels to a CSS pixel (the layout stays that of the whole window)."""
        session = self._open_tab()
        try:
            # the previous check's page may hold the same attribute: cleared, it cannot be read as
            # this page's answer whenever the navigation commits
            clear = f"document.body && document.body.removeAttribute({json.dumps(attribute)})"
            self.call("Runtime.evaluate", {"expression": clear}, session)
            self.call("Emulation.setScrollbarsHidden", {"hidden": hide_scrollbars}, session)
            self.call("Page.navigate", {"url": url}, session)
            value = self._wait_for(attribute, session)
            if screenshot is not None:
                width, height = WINDOW
                clip = {"x": 0, "y": 0, "width": width, "height": height, "scale": scale}
                # the fast encoding: the same pixels for less of the browser's CPU (a larger file)
                fast = {"format": "png", "clip": clip, "optimizeForSpeed": True}
                shot = self.call("Page.captureScreenshot", fast, session)
                screenshot.write_bytes(base64.b64decode(shot["data"]))
            return value
        except BaseException:
            self._close_tab()  # a tab that failed a check is not reused: the next check opens a new one
            raise

    def _open_tab(self) -> str:
        """The DevTools session of the checks' tab, opened by the first check."""
        if self._tab is None:
            target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
            session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            self._tab = (target, session)
        return self._tab[1]

    def _close_tab(self) -> None:
        if self._tab is not None:
            target, _ = self._tab
            self._tab = None
            with contextlib.suppress(BrowserError, OSError):
                self.call("Target.closeTarget", {"targetId": target}, seconds=5)

    def _wait_for(self, attribute: str, session: str) -> str:
        # polled, not slept on: the value is there as soon as the page's load handler has run
        expression = (
            f"[document.readyState, document.body && document.body.getAttribute({json.dumps(attribute)})]"
        )
        deadline = time.monotonic() + REPLY_SECONDS
        while time.monotonic() < deadline:
            found = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session)
            if "exceptionDetails" in found:
                raise BrowserError(f"reading {attribute}: {found['exceptionDetails']}")
            state, value = found["result"]["value"]
            if isinstance(value, str):
                return value
            if state == "complete":  # the load handlers run in the task that completes the page:
                deadline = min(deadline, time.monotonic() + LOADED_SECONDS)  # a broken page fails soon
            time.sleep(0.01)
        raise BrowserError(f"the page's load handler never set {attribute}{self._tail()}")

    def _tail(self) -> str:
        with contextlib.suppress(OSError, ValueError):
            self._stderr.seek(0)
            lines = self._stderr.read().decode("utf-8", "replace").splitlines()
            wanted = [line for line in lines if "dbus" not in line][-10:]  # (no D-Bus in a container)
            return "; its last error output: " + " | ".join(wanted) if wanted else ""
        return ""

    def close(self) -> None:
        with contextlib.suppress(BrowserError, OSError):
            self.call("Browser.close", seconds=5)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)  # anything of it still running
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        self._selector.close()
        for fd in (self._commands, self._replies):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._stderr.close()
