"""What the README's install costs: a fresh ``pipx install volley-<version>-py3-none-any.whl``.

pipx makes a venv of the application's own and installs the wheel and its dependencies into it. This
does the same by hand (``python -m venv`` + ``pip --python VENV install WHEEL``, so it runs where pipx is
not installed) into a throwaway folder, with pip's cache off, and prints seconds and megabytes:

* ``full``: the wheel as the README installs it (with matplotlib and SciPy, which the report needs);
* ``core``: the same wheel with only the bridge's own dependencies (``--no-deps`` plus aiohttp,
  websockets, msgspec, platformdirs), i.e. what the install cost before the report's libraries were
  made ordinary dependencies. ``ratio`` compares the two, measured in the same run.

Packages come from wherever pip is configured to find them (an index, a local wheel folder), so the
seconds say more about this machine's pip sources than about a referee's download; the megabytes hold.

    .venv/bin/python scripts/bench_install.py [--wheel dist/volley-….whl]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = ["aiohttp>=3.9", "websockets>=12", "msgspec>=0.18", "platformdirs>=4.12"]


def _run(command: list[str | Path], cwd: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PIP_NO_CACHE_DIR"] = "1"
    subprocess.run([str(part) for part in command], cwd=cwd, env=env, check=True, capture_output=True)


def _size_mb(path: Path) -> float:
    total = sum(
        entry.stat().st_size for entry in path.rglob("*") if entry.is_file() and not entry.is_symlink()
    )
    return total / 1_000_000


def build_wheel(work: Path) -> Path:
    """Build the wheel from a copy of the checkout (nothing is written into it)."""
    source = work / "source"
    ignore = shutil.ignore_patterns(
        ".git", ".venv", "node_modules", "__pycache__", ".*_cache", "build", "dist"
    )
    shutil.copytree(ROOT, source, ignore=ignore)
    _run([sys.executable, "-m", "build", "--wheel", "--outdir", work / "dist", source], cwd=work)
    return next((work / "dist").glob("volley-*.whl"))


def install(wheel: Path, venv: Path, *, core_only: bool) -> tuple[float, float]:
    """Seconds for the venv and the install; megabytes of the venv afterwards."""
    started = time.perf_counter()
    _run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=venv.parent)
    pip = [sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install", "-q"]
    if core_only:
        _run([*pip, "--no-deps", wheel], cwd=venv.parent)
        _run([*pip, *CORE], cwd=venv.parent)
    else:
        _run([*pip, wheel], cwd=venv.parent)
    return time.perf_counter() - started, _size_mb(venv)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", type=Path, default=None, help="the wheel (default: build one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="volley-install-") as temp:
        work = Path(temp)
        wheel = args.wheel.resolve() if args.wheel else build_wheel(work)
        core_s, core_mb = install(wheel, work / "core", core_only=True)
        full_s, full_mb = install(wheel, work / "full", core_only=False)
    print(f"core (bridge's own dependencies): {core_s:.1f} s, {core_mb:.0f} MB", file=sys.stderr)
    print(f"full (as the README installs it): {full_s:.1f} s, {full_mb:.0f} MB", file=sys.stderr)
    summary = {
        "install_full_s": round(full_s, 1),
        "install_full_mb": round(full_mb),
        "install_core_s": round(core_s, 1),
        "install_core_mb": round(core_mb),
        "ratio_s": round(full_s / core_s, 2),
        "ratio_mb": round(full_mb / core_mb, 2),
    }
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
