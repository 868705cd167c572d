"""``volley sandbox --help`` says what the page's address takes (issue 35): the page reads ``?lang``,
``?scene``, ``?view``, ``?theme``, ``?foundry`` and more, and the help said nothing of them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from clikit import run_volley

BOOT = Path(__file__).resolve().parents[1] / "vtt_module" / "sandbox" / "boot.js"


def help_text(capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as done:
        run_volley(["sandbox", "--help"], capsys)
    assert done.value.code == 0
    return capsys.readouterr().out


def test_the_help_lists_the_page_parameters(capsys: pytest.CaptureFixture[str]) -> None:
    out = help_text(capsys)
    for parameter in (
        "?lang=en|ru",
        "?scene=gurps|megatraveller|d100",
        "?view=referee|player",
        "?foundry=13|14",
    ):
        assert parameter in out, out
    assert "Configure Settings" in out


def test_every_parameter_the_help_names_is_one_the_page_reads(capsys: pytest.CaptureFixture[str]) -> None:
    boot = BOOT.read_text(encoding="utf-8")
    read = set(re.findall(r'params\.get\("(\w+)"\)', boot)) | {"foundry"}  # readGeneration(params) reads it
    named = set(re.findall(r"\?(\w+)=", help_text(capsys)))
    assert named and named <= read, (named, read)
