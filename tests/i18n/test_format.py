"""The CLI's template renderer against the vectors the module's renderer shares (docs/i18n.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bridge.i18n import Catalogue, default_language, format_template, plural_form

VECTORS: list[dict[str, Any]] = json.loads((Path(__file__).parent / "format_vectors.json").read_text("utf-8"))


@pytest.mark.parametrize("case", VECTORS, ids=[f"{c['lang']}:{c['template']}" for c in VECTORS])
def test_vector(case: dict[str, Any]) -> None:
    catalogue = Catalogue(language=case["lang"], texts=dict(case.get("catalogue", {})))
    assert format_template(case["template"], case["values"], case["lang"], catalogue) == case["expected"]


@pytest.mark.parametrize(
    ("number", "form"),
    [(0, "many"), (1, "one"), (4, "few"), (11, "many"), (14, "many"), (21, "one"), (104, "few")],
)
def test_russian_plural_categories(number: int, form: str) -> None:
    assert plural_form("ru", number, ["one", "few", "many"]) == form


def test_missing_text_shows_key_and_values() -> None:
    assert Catalogue(language="en").message("gurps.nothing", {"n": 2}) == "gurps.nothing(n=2)"


def test_russian_falls_back_to_english_text() -> None:
    english = Catalogue(language="en", texts={"a.b": "{n} {n|hit|hits}"})
    russian = Catalogue(language="ru", texts={}, fallback=english)
    assert russian.message("a.b", {"n": 2}) == "2 hits"


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LC_ALL": "en_GB.UTF-8", "LANG": "ru_RU"}, "en"),
        ({"LANG": "de_DE"}, "en"),
    ],
)
def test_default_language_from_environment(environ: dict[str, str], language: str) -> None:
    assert default_language(environ) == language
