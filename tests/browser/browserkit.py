"""Shared helpers for the browser tests (a module name of its own, so it never clashes with another
folder's ``conftest``)."""

from __future__ import annotations

import secrets
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class Bridge:
    """A ``volley serve`` on a free loopback port with its own token, config and data directories,
    drawing seeds from a fixed base so every run rolls the same dice. The test may stop it and start
    it again: same port, same token, same journals."""

    SEED_BASE = 20261129
    START_TIMEOUT_S = 20.0

    def __init__(self, root: Path, workdir: Path) -> None:
        self.root = root
        self.port = free_port()
        self.token = secrets.token_urlsafe(24)
        self.config_dir = workdir / "config"
        self.data_dir = workdir / "data"
        self.log_path = workdir / "bridge.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> None:
        """Start the process and wait until it listens; RuntimeError (with its log) if it does not."""
        command = [sys.executable, "-m", "bridge.cli", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(self.port), "--token", self.token]
        command += ["--config-dir", str(self.config_dir), "--data-dir", str(self.data_dir)]
        command += ["--seed-base", str(self.SEED_BASE), "--log-level", "info"]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(command, cwd=self.root, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + self.START_TIMEOUT_S
        while not self._listening():
            if self.process.poll() is not None:
                raise RuntimeError(f"volley serve exited with {self.process.returncode}:\n{self.log()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"volley serve did not listen in {self.START_TIMEOUT_S} s:\n{self.log()}")
            time.sleep(0.05)

    def _listening(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                return True
        except OSError:
            return False

    def stop(self) -> None:
        """SIGTERM (the bridge drains and exits 0), SIGKILL if it hangs."""
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")[-4000:]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Pages:
    """Opens pages in one browser context (so harness tabs share their BroadcastChannel socket) and
    collects every uncaught page error, which the tests assert stays empty."""

    def __init__(self, context: Any) -> None:
        self.context = context
        self.errors: list[str] = []

    def new(self) -> Any:
        page = self.context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.set_default_timeout(15_000)
        return page


@dataclass(frozen=True)
class Table:
    """Everything one browser test needs: the bridge, the harness site and a way to open pages."""

    bridge: Bridge
    site: str
    pages: Pages
