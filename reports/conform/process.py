"""The implementation's process: started without a shell, every read and write under a deadline.

The command is split with :func:`shlex.split` and started in its own process group, so a hung
implementation and anything it started are killed together. Lines are read from its standard
output through a selector with a deadline (never a blocking read), writes to its standard input
are non-blocking with the same deadline (an implementation that stops reading cannot block the
runner), a line longer than the limit is refused, and standard error goes to a temporary file
whose tail is shown when the implementation crashes.
"""

from __future__ import annotations

import contextlib
import errno
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from typing import IO

from invasion_oracle.model.core.errors import MalformedInputError

MAX_LINE = 16 * 1024 * 1024
STDERR_TAIL = 800


class Crashed(Exception):
    """The implementation exited (or closed its output) before answering."""


class TimedOut(Exception):
    """No answer within the deadline."""


class TooLong(Exception):
    """A line longer than the limit."""


def split_command(command: str) -> list[str]:
    """The command's words, as a POSIX shell would split them (no shell runs it).

    >>> split_command("python3 'my adapter.py' --fast")
    ['python3', 'my adapter.py', '--fast']
    """
    try:
        words = shlex.split(command)
    except ValueError as err:
        raise MalformedInputError("--cmd", "$", f"cannot split {command!r}: {err}") from None
    if not words:
        raise MalformedInputError("--cmd", "$", "the command is empty")
    return words


def cannot_start(words: list[str], reason: str) -> MalformedInputError:
    """The error for a command that does not start: the command shell-quoted, and why."""
    return MalformedInputError("--cmd", shlex.join(words), f"cannot start it: {reason}")


def require_program(command: str) -> None:
    """Refuse a command whose program is not there, before anything is read or started.

    >>> require_program("python3 -c pass")
    >>> require_program("./no-such-adapter --fast")
    Traceback (most recent call last):
    ...
    invasion_oracle.model.core.errors.MalformedInputError: --cmd:./no-such-adapter --fast: cannot start it: No such file or directory
    """
    words = split_command(command)
    program = words[0]
    if not (os.path.exists(program) if os.sep in program else shutil.which(program)):
        raise cannot_start(words, os.strerror(errno.ENOENT))


@dataclass
class Implementation:
    """One running instance of the implementation under test."""

    words: list[str]
    max_line: int = MAX_LINE
    process: subprocess.Popen[bytes] | None = None
    _buffer: bytearray = field(default_factory=bytearray)
    _stderr: IO[bytes] | None = None
    starts: int = 0

    def start(self) -> None:
        self.stop()
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the process, closed in stop()
        try:
            self.process = subprocess.Popen(
                self.words,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                bufsize=0,
                start_new_session=True,
            )
        except OSError as err:
            raise cannot_start(self.words, err.strerror or str(err)) from None
        assert self.process.stdin is not None and self.process.stdout is not None
        os.set_blocking(self.process.stdin.fileno(), False)
        os.set_blocking(self.process.stdout.fileno(), False)
        self._buffer = bytearray()
        self.starts += 1

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def send(self, data: bytes, deadline: float) -> None:
        process = self._live()
        assert process.stdin is not None
        fd = process.stdin.fileno()
        view = memoryview(data)
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_WRITE)
            while view:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimedOut("it stopped reading its input")
                if not selector.select(left):
                    continue
                try:
                    written = os.write(fd, view)
                except BlockingIOError:
                    continue
                except (BrokenPipeError, ConnectionResetError):
                    raise Crashed(self._exit_note()) from None
                view = view[written:]

    def read_line(self, deadline: float) -> bytes:
        process = self._live()
        assert process.stdout is not None
        fd = process.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while True:
                newline = self._buffer.find(b"\n")
                if newline >= 0:
                    line = bytes(self._buffer[:newline])
                    del self._buffer[: newline + 1]
                    return line.rstrip(b"\r")
                if len(self._buffer) > self.max_line:
                    raise TooLong(f"a line longer than {self.max_line} bytes")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimedOut("no answer in time")
                if not selector.select(left):
                    continue
                try:
                    chunk = os.read(fd, 1 << 16)
                except BlockingIOError:
                    continue
                if not chunk:
                    raise Crashed(self._exit_note())
                self._buffer += chunk

    def _live(self) -> subprocess.Popen[bytes]:
        if self.process is None:
            raise Crashed("not started")
        return self.process

    def _exit_note(self) -> str:
        process = self._live()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=0.5)
        code = process.poll()
        state = "still running but closed its output" if code is None else f"exited with status {code}"
        tail = self.stderr_tail()
        return state + (f"; its last error output: {tail}" if tail else "")

    def stderr_tail(self) -> str:
        if self._stderr is None:
            return ""
        try:
            size = self._stderr.seek(0, os.SEEK_END)
            self._stderr.seek(max(0, size - STDERR_TAIL))
            text = self._stderr.read().decode("utf-8", "replace").strip()
        except (OSError, ValueError):
            return ""
        return " | ".join(line for line in text.splitlines()[-4:] if line)

    def stop(self, grace: float = 0.0) -> None:
        """End the process (and its group): after ``grace`` seconds for it to leave on its own."""
        process, self.process = self.process, None
        if process is not None:
            if process.stdin is not None:
                with contextlib.suppress(OSError):
                    process.stdin.close()
            if grace > 0:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=grace)
            # The whole process group, always: the implementation may have exited and left a
            # child (or a grandchild holding its output) running.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=5)
            if process.stdout is not None:
                with contextlib.suppress(OSError):
                    process.stdout.close()
        if self._stderr is not None:
            with contextlib.suppress(OSError):
                self._stderr.close()
            self._stderr = None
