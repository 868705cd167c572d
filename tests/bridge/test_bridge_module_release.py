"""``volley module-release`` takes only a web address, shows the terminal nothing it could obey, and
never writes through a link (issue 33, the smaller items)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bridge.cli import main


@pytest.mark.parametrize(
    "base",
    [
        "http://a b",
        "https://example.org/vol ley",
        "https://example.org:99999/volley",
        "https://example.org:x/volley",
        "https://user:secret@example.org/volley",
        "https:///volley",
        "https://exa*mple.org",
        "https://example.org/\x1b]0;pwned\x07",
        "https://example.org/\u202eevil",
    ],
)
def test_a_base_url_that_is_not_a_web_address_is_refused_and_shown_inert(
    tmp_path: Path, base: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["module-release", "--base-url", base, str(tmp_path / "site")]) == 2
    err = capsys.readouterr().err
    assert "--base-url: not an http(s) address" in err
    assert "\x1b" not in err and "\x07" not in err and "\u202e" not in err, repr(err)
    assert not (tmp_path / "site").exists()


def test_a_link_planted_where_the_zip_goes_is_replaced_never_written_through(tmp_path: Path) -> None:
    outside = tmp_path / "precious.txt"
    outside.write_bytes(b"not yours")
    folder = tmp_path / "site" / "module"
    folder.mkdir(parents=True)
    (folder / "volley.zip").symlink_to(outside)
    assert main(["module-release", "--base-url", "https://example.org/v", str(tmp_path / "site")]) == 0
    assert outside.read_bytes() == b"not yours"
    zipped = folder / "volley.zip"
    assert not zipped.is_symlink() and zipped.read_bytes().startswith(b"PK")


def test_a_module_folder_that_is_a_link_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "module").symlink_to(elsewhere, target_is_directory=True)
    assert main(["module-release", "--base-url", "https://example.org/v", str(tmp_path / "site")]) == 1
    assert "symbolic link" in capsys.readouterr().err
    assert list(elsewhere.iterdir()) == []
