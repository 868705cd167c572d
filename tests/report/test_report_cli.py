"""``volley report``: one page per call, its path on stdout, clear refusals with exit code 2."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from reportkit import REPLAYS

from bridge.cli import main
from bridge.report.command import default_output


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A data directory holding the recorded sessions, as `volley serve` would have left them."""
    sessions = tmp_path / "data" / "sessions"
    sessions.mkdir(parents=True)
    for path in REPLAYS:
        shutil.copyfile(path, sessions / f"20261129T2013{path.stem}.jsonl")
    return tmp_path / "data"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["report", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_one_session_by_name_prefix(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["20261129T2013gurps", "--data-dir", str(data), "--lang", "en"], capsys)
    assert code == 0, err
    page = Path(out.strip())
    assert page == data / "reports" / "20261129T2013gurps.html"
    assert "Session report" in page.read_text(encoding="utf-8")
    assert not list(page.parent.glob("*.part"))


def test_several_sessions_make_a_campaign_in_the_chosen_file(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_file = tmp_path / "out" / "night.html"
    code, out, _ = run(["--all", "-o", str(out_file), "--data-dir", str(data), "--lang", "ru"], capsys)
    assert code == 0
    assert out.strip() == str(out_file)
    html = out_file.read_text(encoding="utf-8")
    assert "Отчёт о кампании" in html and "3 сессии" in html
    assert "даёт одному стрелку один исправленный вывод, а не по выводу на сессию" in html


def test_all_pools_each_shooter_over_the_campaign(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--all` copies a session twice under new names: still one row and one verdict per shooter."""
    sessions = data / "sessions"
    first = sorted(sessions.glob("*.jsonl"))[0]
    shutil.copyfile(first, sessions / "20261130T2013again.jsonl")
    code, out, err = run(["--all", "--data-dir", str(data), "--lang", "en"], capsys)
    assert code == 0, err
    html = Path(out.strip()).read_text(encoding="utf-8")
    assert "4 sessions" in html
    assert "attacks over all 4 sessions and gives one corrected verdict per shooter" in html
    names = re.findall(r'<tr class="shooter"><td><strong>([^<]+)</strong>', html)
    assert names and len(names) == len(set(names))


def test_a_path_works_as_volley_show_takes_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "d100.html"
    code, _, _ = run([str(REPLAYS[0]), "-o", str(out_file), "--data-dir", str(tmp_path)], capsys)
    assert code == 0 and out_file.exists()


def test_open_hands_the_page_to_the_browser(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", lambda url: opened.append(url) or True)
    code, out, _ = run(["20261129T2013d100", "--open", "--data-dir", str(data)], capsys)
    assert code == 0 and opened == [Path(out.strip()).resolve().as_uri()]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "name at least one session"),
        (["nosuch"], "no session 'nosuch'"),
        (["20261129T2013"], "matches 3 sessions"),
    ],
)
def test_refusals(data: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run([*args, "--data-dir", str(data)], capsys)
    assert code == 2 and not out
    assert message in err


def test_all_of_nothing_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["--all", "--data-dir", str(tmp_path)], capsys)
    assert code == 2 and "no sessions" in err


def test_a_file_that_is_not_a_journal_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "notes.jsonl"
    junk.write_text("shopping list\n")
    code, _, err = run([str(junk), "--data-dir", str(tmp_path)], capsys)
    assert code == 2 and "not a Volley session journal" in err


def test_an_unwritable_output_fails_cleanly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, _, err = run(
        [str(REPLAYS[0]), "-o", str(blocker / "page.html"), "--data-dir", str(tmp_path)], capsys
    )
    assert code == 1 and "cannot write" in err


def test_default_output_names() -> None:
    data = Path("/data")
    assert default_output([Path("s/a.jsonl")], data) == Path("/data/reports/a.html")
    assert default_output([Path("s/a.jsonl"), Path("s/b.jsonl")], data) == Path(
        "/data/reports/campaign-a--b.html"
    )


def test_volley_odds_does_not_load_the_report_extra() -> None:
    import subprocess
    import sys

    probe = (
        "import sys; from bridge.cli.program import build_parser; build_parser(); "
        "print('matplotlib' in sys.modules, 'scipy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout
    assert out.split() == ["False", "False"]
