"""``volley roll FILE`` and ``volley odds FILE``: the request from a file, or from stdin when the
argument is absent or ``-``; a file that cannot be read is refused by name, in the table's language."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from clikit import run_volley

ROOT = Path(__file__).resolve().parent.parent
BURST = ROOT / "docs" / "examples" / "gurps" / "mp5_burst.json"
JONG_WU = ROOT / "docs" / "examples" / "megatraveller" / "jong_wu_fast_draw_rapid.json"
VOLLEY = Path(sys.executable).parent / "volley"


@pytest.mark.parametrize("command", [["odds"], ["roll", "--seed", "4"], ["roll", "--seed", "4", "--text"]])
def test_a_file_argument_reads_the_same_request_as_stdin(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from_stdin = run_volley(command, capsys, BURST.read_text())
    from_file = run_volley([*command, str(BURST)], capsys)
    from_dash = run_volley([*command, "-"], capsys, BURST.read_text())
    assert from_stdin[0] == 0 and from_stdin[1].strip(), from_stdin
    assert from_file == from_stdin == from_dash


def test_the_file_comes_before_or_after_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    before = run_volley(["roll", str(JONG_WU), "--repeat", "2", "--seed", "9"], capsys)
    after = run_volley(["roll", "--repeat", "2", "--seed", "9", str(JONG_WU)], capsys)
    assert before[0] == 0 and len(before[1].splitlines()) == 2
    assert before == after


def test_a_file_argument_ignores_stdin(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_volley(["odds", str(BURST)], capsys, "not json at all")
    assert code == 0, err
    assert json.loads(out)["targets"]


@pytest.mark.parametrize(("lang", "words"), [("en", "cannot read the request file"), ("ru", "не удаётся")])
def test_a_missing_file_is_refused_by_name_and_nothing_is_rolled(
    tmp_path: Path, lang: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.json"
    for command in (["odds"], ["roll", "--seed", "1"]):
        code, out, err = run_volley([*command, "--lang", lang, str(missing)], capsys)
        assert code == 2 and out == ""
        assert err.startswith(f"volley {command[0]}: $: {words}") and str(missing) in err, err


def test_a_folder_or_an_empty_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_volley(["odds", str(tmp_path)], capsys)
    assert code == 2 and out == "" and str(tmp_path) in err
    empty = tmp_path / "empty.json"
    empty.write_text("")
    code, out, err = run_volley(["roll", str(empty)], capsys)
    assert code == 2 and out == "" and "no request" in err


def test_the_installed_command_takes_a_file_and_a_dash() -> None:
    """The real program (its fast path for ``odds`` alone skips the parser): a file, ``-``, and stdin."""
    by_file = subprocess.run([VOLLEY, "odds", str(BURST)], capture_output=True, check=True)
    by_dash = subprocess.run([VOLLEY, "odds", "-"], input=BURST.read_bytes(), capture_output=True, check=True)
    bare = subprocess.run([VOLLEY, "odds"], input=BURST.read_bytes(), capture_output=True, check=True)
    assert by_file.stdout == by_dash.stdout == bare.stdout and by_file.stdout.startswith(b"{")


def _on_a_terminal(args: list[str]) -> tuple[int, str]:
    """``volley ARGS`` with stderr on a pseudo-terminal (stdout a pipe): exit code and what the
    terminal showed."""
    import os
    import pty

    leader, follower = pty.openpty()
    try:
        process = subprocess.Popen([VOLLEY, *args], stdout=subprocess.PIPE, stderr=follower, cwd=ROOT)
        os.close(follower)
        shown = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal's other end closed: the program has ended
                break
            if not chunk:
                break
            shown += chunk
        process.communicate(timeout=120)
    finally:
        os.close(leader)
    return process.returncode, shown.decode(errors="replace")


@pytest.mark.parametrize("command", ["report", "replay"])
def test_long_work_shows_progress_on_a_terminal_and_is_quiet_otherwise(command: str, tmp_path: Path) -> None:
    replays = ROOT / "tests" / "replays"
    if command == "report":
        sessions = [str(replays / f"{name}.jsonl") for name in ("gurps", "megatraveller", "d100")]
        args = ["report", *sessions, "-o", str(tmp_path / "campaign.html"), "--data-dir", str(tmp_path)]
        words = "report ["
    else:
        args, words = ["replay", str(replays / "gurps.jsonl"), "--progress"], "replay ["
        # --progress forces the bar; the default follows the terminal (below, on a pipe: quiet).
    code, shown = _on_a_terminal(args)
    assert code == 0, shown
    assert words in shown and "3/3" in shown if command == "report" else words in shown, shown
    quiet = subprocess.run(
        [VOLLEY, *args[: -1 if command == "replay" else None]], check=False, capture_output=True, cwd=ROOT
    )
    assert quiet.returncode == 0, quiet.stderr
    assert b"[" not in quiet.stderr, quiet.stderr
