"""``volley serve`` in a process of its own, as the bridge and hostile tests and the benchmarks start it.

``serve_command`` is its command line (its own data and config directories, then the options);
``ServeProcess`` starts a command, reads its start-up lines up to the one it waits for (by default the
last one ``volley serve`` prints, where to install the Foundry module), and stops it with a signal.
``GURPS_MP5`` is the request the bridge's tests and benchmarks fire.

The tests find this module on ``pythonpath`` (``pyproject.toml``); the benchmarks put ``tests/`` on
their path themselves.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
#: Kane fires ten shots from his MP5 at a ganger (``docs/examples/gurps/mp5_burst.json``, the README's
#: first example): the request the bridge's tests and benchmarks fire.
GURPS_MP5: dict[str, Any] = json.loads(
    (ROOT / "docs" / "examples" / "gurps" / "mp5_burst.json").read_text(encoding="utf-8")
)
#: The longest any single wait for a bridge (a reply, a worker's warm-up, a polite stop) may take before
#: a test fails, scaled like the browser tests' (``browserkit.BUDGET_S``): ``VOLLEY_TEST_SLOWDOWN=3`` on
#: a loaded machine. Waits are on conditions, so a large budget costs nothing when the bridge answers.
BUDGET_S = 60.0 * max(1.0, float(os.environ.get("VOLLEY_TEST_SLOWDOWN") or 1))
#: The start of the last line ``volley serve`` prints once it listens.
LAST_START_LINE = "Foundry module:"
#: What the line with the address says before the address (``volley serve`` and the echo server).
LISTENING = "listening on "


def serve_command(
    data: Path, config: Path, *options: str, python: Sequence[str] = ("-m", "bridge.cli")
) -> list[str]:
    """``volley serve`` with its own ``data`` and ``config`` directories, then ``options``.

    ``python`` is what the interpreter runs (``-c`` and a launcher that sets limits first, say).
    """
    return [
        sys.executable,
        *python,
        "serve",
        "--data-dir",
        str(data),
        "--config-dir",
        str(config),
        *options,
    ]


class ServeProcess:
    """A server started from ``command``; ``url`` and ``port`` are where it listens.

    ``until``: the start of the line that says it has started (read with every line before it into
    ``said``); ``seconds_to_listen``: how long until it said where it listens.
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        until: str = LAST_START_LINE,
        stderr: int = subprocess.PIPE,
        env: dict[str, str] | None = None,
    ) -> None:
        started = time.perf_counter()
        self.process = subprocess.Popen(
            list(command),
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            cwd=ROOT,
            env={**(os.environ if env is None else env), "PYTHONUNBUFFERED": "1"},
        )
        assert self.process.stdout is not None
        self.said: list[str] = []
        for line in self.process.stdout:
            self.said.append(line)
            if LISTENING in line:
                self.seconds_to_listen = time.perf_counter() - started
                self.url = line.split(LISTENING, 1)[1].strip()
                self.port = int(self.url.rsplit(":", 1)[1].split("/")[0])
            if line.startswith(until):
                return
        code, err = self.stop()
        raise RuntimeError(f"{' '.join(command[1:4])} did not start (exit {code}): {err}")

    @property
    def pid(self) -> int:
        return self.process.pid

    def http(self, path: str) -> str:
        """The address of ``path`` on the server's HTTP side (``/healthz``)."""
        return self.url.replace("wss://", "https://").replace("ws://", "http://").removesuffix("/ws") + path

    def stop(self, signum: int = signal.SIGTERM, timeout: float = BUDGET_S) -> tuple[int, str]:
        """Send ``signum`` (if it still runs) and wait: its exit code and what it wrote on stderr.

        A server that has not stopped within ``timeout`` seconds is killed (and its exit code says so).
        """
        if self.process.poll() is None:
            self.process.send_signal(signum)
        try:
            _, err = self.process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            _, err = self.process.communicate()
        return self.process.returncode, err or ""


def memory_kib(pid: int, field: str = "VmRSS") -> int:
    """``VmRSS`` (now) or ``VmHWM`` (the peak so far) of a process, in KiB (Linux: /proc/PID/status)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} for pid {pid}")
