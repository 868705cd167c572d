"""Files that cannot hang or flood the bridge: a FIFO named like a journal, a 2 GB sparse journal, a
torn last line; and tokens pasted with a BOM or too short.

A command that hangs fails here by its subprocess timeout (generous: a busy machine is slow, a hang is
forever); memory is checked as the peak RSS the command reports for itself.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
from storekit import first_session

from bridge.server.access import find_token
from bridge.store.files import LineReader, odd_files, session_files
from bridge.store.lines import FORMAT_VERSION, Header
from bridge.store.reader import read_session
from devkit.serve import BUDGET_S, ROOT, ServeProcess, serve_command, serve_process

#: Seconds a reader may take before it counts as hung (a hang is forever): twice the budget.
HANG = 2 * BUDGET_S
#: Peak memory a reader may reach on a 2 GB journal (it used 4.2 GB).
FLAT_KIB = 200 * 1024

# The peak is this process's own VmHWM, not ``getrusage(RUSAGE_SELF).ru_maxrss``: Linux carries
# ru_maxrss across exec, and subprocess starts the child with vfork, so ru_maxrss begins at the
# peak of the pytest process that launched it (hundreds of MB late in a full run, tiny alone).
_PEAK = (
    "import re, sys\n"
    "from bridge.cli import main\n"
    "try:\n"
    "    code = main(sys.argv[1:])\n"
    "finally:\n"
    "    with open('/proc/self/status') as status:\n"
    "        peak = re.search(r'VmHWM:\\s*(\\d+)', status.read())\n"
    "    sys.stderr.write(f'\\nPEAK {peak[1] if peak else -1}\\n')\n"
    "sys.exit(code)\n"
)


def volley(*args: str) -> tuple[int, str, str, int]:
    """Run ``volley args``: exit code, stdout, stderr, peak RSS in KiB."""
    done = subprocess.run(
        [sys.executable, "-c", _PEAK, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=HANG,
        check=False,
    )
    peak = int(done.stderr.rsplit("PEAK ", 1)[1].split()[0]) if "PEAK " in done.stderr else -1
    return done.returncode, done.stdout, done.stderr, peak


def header_line(session: str) -> bytes:
    header = Header(
        format=FORMAT_VERSION,
        session=session,
        started="2026-01-01T00:00:00Z",
        rules_version="0",
        bridge_version="0",
    )
    return msgspec.json.encode(header) + b"\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX thing")
@pytest.mark.asyncio
async def test_a_fifo_named_like_a_journal_hangs_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    replies = await first_session(data, 2)
    sessions = data / "sessions"
    fifo = sessions / "20260101T000000.000000Z-fifo00.jsonl"
    os.mkfifo(fifo)
    assert session_files(sessions) == sorted(sessions.glob("2*.jsonl"))[1:]  # the FIFO sorts first
    assert odd_files(sessions) == [f"{fifo.name}: a FIFO; skipped"]

    server = serve_process(tmp_path)
    code, err = server.stop(signal.SIGTERM, timeout=HANG)
    assert code == 0, err
    assert f"{fifo.name}: a FIFO; skipped" in err

    code, out, err, _ = volley("sessions", "--data-dir", str(data))
    assert code == 0 and "a FIFO; skipped" in err
    assert len(out.strip().splitlines()) == 2  # the heading and the real session
    for command in ("show", "replay"):
        code, _, err, _ = volley(command, fifo.name, "--data-dir", str(data))
        assert code == 2 and "a FIFO; skipped" in err, (command, err)
        code, _, err, _ = volley(command, str(fifo), "--data-dir", str(data))
        assert code == 2 and "not a regular file" in err, (command, err)
    code, _, err, _ = volley("report", str(fifo), "-o", str(tmp_path / "r.html"))
    assert "not a regular file" in err, err
    code, _, err, _ = volley("report", "--all", "--data-dir", str(data), "-o", str(tmp_path / "all.html"))
    assert code == 0, err
    assert replies


def test_readers_of_a_2_gb_sparse_journal_hold_memory_flat(tmp_path: Path) -> None:
    sessions = tmp_path / "data" / "sessions"
    sessions.mkdir(parents=True)
    name = "20260101T000000.000000Z-sparse"
    path = sessions / f"{name}.jsonl"
    line = {"kind": "resolved", "id": "r1", "type": "attack", "at": "x", "outcome": "result"}
    line |= {"request": {"system": "gurps"}, "seed": 1, "reply": {"type": "result", "id": "r1"}}
    with open(path, "wb") as handle:
        handle.write(header_line(name) + json.dumps(line).encode() + b"\n")
        handle.truncate(2 << 30)  # 2 GB of zeros, no newline: a hole, not disk
    for args in (("sessions",), ("show", name), ("replay", name)):
        _, _, err, peak = volley(*args, "--data-dir", str(tmp_path / "data"))
        assert 0 < peak < FLAT_KIB, (args, peak, err)
    _, _, err, peak = volley("report", str(path), "-o", str(tmp_path / "r.html"))
    assert 0 < peak < FLAT_KIB, (peak, err)


def test_every_reader_skips_an_unterminated_last_line(tmp_path: Path) -> None:
    path = tmp_path / "20260101T000000.000000Z-torn00.jsonl"
    line = {"kind": "resolved", "id": "r1", "type": "attack", "at": "x", "outcome": "result"}
    line |= {"request": {"system": "gurps"}, "seed": 1, "reply": {"type": "result", "id": "r1"}}
    whole = header_line(path.stem) + json.dumps(line).encode() + b"\n"
    path.write_bytes(whole + b'{"kind":"resolved","id":"r2","ty')
    log = read_session(path)
    assert [entry.id for entry in log.entries] == ["r1"] and log.problems == []
    with open(path, "rb") as handle:
        reader = LineReader(handle)
        assert [number for number, _, _ in reader] == [1, 2]
        assert reader.unterminated == len(b'{"kind":"resolved","id":"r2","ty')


def test_a_line_longer_than_any_journal_line_is_skipped_unheld(tmp_path: Path) -> None:
    path = tmp_path / "long.jsonl"
    path.write_bytes(b"a\n" + b"x" * 5000 + b"\nb\n")
    with open(path, "rb") as handle:
        assert list(LineReader(handle, max_line=100)) == [(1, 0, b"a"), (2, 2, None), (3, 5003, b"b")]


def test_tokens_lose_a_bom_and_whitespace_and_a_short_one_is_warned_about(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("VOLLEY_TOKEN", raising=False)
    (tmp_path / "token").write_bytes("\ufeff  a-token-long-enough-1234 \r\n".encode())
    found = find_token(tmp_path)
    assert found is not None and found.value == "a-token-long-enough-1234" and found.warning() is None
    (tmp_path / "token").write_text("x\n")
    weak = find_token(tmp_path)
    assert weak is not None and weak.value == "x"
    warning = weak.warning()
    assert warning is not None and "1 characters" in warning and "16" in warning
    monkeypatch.setenv("VOLLEY_TOKEN", "\ufeffshort ")
    from_env = find_token(tmp_path)
    assert from_env is not None and from_env.value == "short" and from_env.weak


def test_serve_warns_about_a_weak_token(tmp_path: Path) -> None:
    server = ServeProcess(
        serve_command(tmp_path / "data", tmp_path / "config", "--port", "0", "--token", "abc")
    )
    code, err = server.stop(signal.SIGTERM, timeout=HANG)
    assert code == 0
    assert "WARNING: the access token (from --token) is 3 characters long" in err


def _reseeded_journal(path: Path, copies: int, *, pad: int = 0) -> None:
    """A recorded GURPS session copied ``copies`` times with every seed changed (as after a rules
    change, every request replays differently); ``pad`` adds a field of that many bytes to every
    recorded reply (a crafted wide line: its difference is as wide)."""
    head, *entries = (ROOT / "tests" / "replays" / "gurps.jsonl").read_bytes().splitlines()
    with open(path, "wb") as out:
        out.write(head + b"\n")
        for k in range(copies):
            for line in entries:
                record = json.loads(line)
                record["id"] = f"{k}-{record['id']}"
                record["seed"] += 1000 + k
                if pad:
                    record["reply"]["pad"] = "p" * pad
                out.write(json.dumps(record).encode() + b"\n")


@pytest.mark.parametrize("pad", [0, 1 << 20], ids=["every seed changed", "wide lines"])
def test_replay_holds_only_the_differences_it_prints(tmp_path: Path, pad: int) -> None:
    """Issue 33, item 6: replay kept every differing entry (its line, and every difference with its
    values) although it prints ten: a 107 MB journal with every seed changed peaked at 582 MiB, and
    crafted wide lines at 2.4 GB. Its memory is now the same for a short journal and a long one."""
    peaks = []
    for copies in (4, 40) if pad else (40, 1200):
        path = tmp_path / f"reseeded-{copies}.jsonl"
        _reseeded_journal(path, copies, pad=pad)
        code, out, err, peak = volley("replay", str(path), "--no-progress")
        assert code == 1 and f"0/{5 * copies} requests replayed identically ({5 * copies} differ)" in out, (
            out + err
        )
        assert out.count("\n  $.") == 10 and "... and more" in out, out  # what it prints: ten differences
        peaks.append(peak)
    small, large = peaks
    assert large - small < 20 * 1024, f"replay grew from {small // 1024} to {large // 1024} MiB"
