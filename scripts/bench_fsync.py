"""What one durable line costs on this disk, three ways: the journal's choice and the two around it.

Each way writes a 3 KB line and makes it durable, ``--lines`` times in its own new file, and prints
the p50 and p90 of one write + sync; the ways alternate for ``--rounds`` rounds so a busy disk weighs
on all alike:

* ``append + fsync``: the plain way (the durable baseline's, ``bench_durable.py``);
* ``append into reserved space + fsync``: disk space allocated ahead with
  ``fallocate(FALLOC_FL_KEEP_SIZE)``, the file's size unchanged (the journal's way until #18's third
  round);
* ``pwrite into zeros + fdatasync``: the journal's way (``bridge.store.journal_file._ZeroTail``): zeros
  written ahead, each line written over them, so the size never changes and only the data is synced.
  A crash leaves the zeros, which every reader skips and the next start cuts (docs/performance.md).

    .venv/bin/python scripts/bench_fsync.py [--dir DIR] [--lines 800] [--rounds 3]   # Linux
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

LINE = b"x" * 3000 + b"\n"


def _reserve(fd: int) -> None:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.fallocate.argtypes = (ctypes.c_int, ctypes.c_int, ctypes.c_int64, ctypes.c_int64)
    keep_size = 1  # FALLOC_FL_KEEP_SIZE
    if libc.fallocate(fd, keep_size, 0, 16 << 20) != 0:
        raise SystemExit("fallocate(FALLOC_FL_KEEP_SIZE) is not available here")


def _zeros(fd: int) -> None:
    os.write(fd, b"\0" * (4 << 20))
    os.fsync(fd)


def one_way(
    path: Path,
    lines: int,
    prepare: Callable[[int], None] | None,
    write: Callable[[int, int], None],
    sync: Callable[[int], None],
) -> tuple[float, float]:
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        if prepare is not None:
            prepare(fd)
        times = []
        for k in range(lines):
            started = time.perf_counter()
            write(fd, k * len(LINE))
            sync(fd)
            times.append(time.perf_counter() - started)
    finally:
        os.close(fd)
        path.unlink()
    times.sort()
    return times[len(times) // 2], times[int(len(times) * 0.9)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--dir", type=Path, default=None, help="where to write (default: a temporary directory)"
    )
    parser.add_argument("--lines", type=int, default=800)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    def append(fd: int, offset: int) -> None:
        os.lseek(fd, 0, os.SEEK_END)
        os.write(fd, LINE)

    def over(fd: int, offset: int) -> None:
        os.pwrite(fd, LINE, offset)

    ways = [
        ("append + fsync", None, append, os.fsync),
        ("append into reserved space + fsync", _reserve, append, os.fsync),
        ("pwrite into zeros + fdatasync", _zeros, over, os.fdatasync),
    ]
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        for round in range(1, args.rounds + 1):
            for name, prepare, write, sync in ways:
                p50, p90 = one_way(Path(tmp) / "line.bin", args.lines, prepare, write, sync)
                print(
                    f"round {round}  {name:36s} p50 {p50 * 1e6:6.0f} us  p90 {p90 * 1e6:6.0f} us", flush=True
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
