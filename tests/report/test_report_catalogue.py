"""The report's words: both languages have every key the page asks for, and no key nobody asks for."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bridge.i18n import LANGUAGES, Catalogue

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "bridge" / "locale"
SOURCES = sorted((ROOT / "bridge" / "report").glob("*.py"))
#: Keys the page builds from a verdict name: words("luck_" + verdict) and the like.
BUILT = {
    "luck_": ("very_unlucky", "unlucky", "ordinary", "lucky", "very_lucky", "too_few"),
    "die_": ("fair", "watch", "alert", "too_few"),
    "banner_": ("fair", "watch", "alert", "too_few"),
    "banner_order_": ("watch", "alert"),
    "banner_luck_": ("watch", "alert"),
}


def _catalogue(language: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((LOCALE / f"report.{language}.json").read_text(encoding="utf-8"))
    return data


def _source() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in SOURCES)


def _used() -> set[str]:
    """Keys the page asks for: ``words("...")``, column keys, and the ones built from a verdict."""
    keys = set(re.findall(r"""words\(\s*["']([a-z0-9_]+)["']""", _source()))
    keys |= set(re.findall(r'"((?:col|title)_[a-z0-9_]+)"', _source()))
    keys |= {prefix + name for prefix, names in BUILT.items() for name in names}
    return {f"report.{key}" for key in keys if not key.endswith("_")}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_key_the_page_uses_has_a_text(language: str) -> None:
    assert _used() <= set(_catalogue(language))


def test_the_languages_have_the_same_keys_and_none_unused() -> None:
    english, russian = _catalogue("en"), _catalogue("ru")
    assert set(english) == set(russian)
    assert set(english) <= _used(), set(english) - _used()


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_key_is_the_prefix_of_another(language: str) -> None:
    keys = set(_catalogue(language))
    assert not [key for key in keys if any(other.startswith(key + ".") for other in keys)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_placeholder_is_filled_in_both_languages(language: str) -> None:
    """A text and its translation take the same values, so neither shows a bare {name}."""
    english = _catalogue("en")
    for key, text in _catalogue(language).items():
        names = set(re.findall(r"\{([a-z_]+)", text))
        assert names == set(re.findall(r"\{([a-z_]+)", english[key])), key


def test_russian_plurals_have_three_forms() -> None:
    catalogue = Catalogue.load("ru")
    assert (
        catalogue.message("report.summary", {"sessions": 1, "requests": 21}) == "1 сессия, 21 запрос разрешён"
    )
    assert (
        catalogue.message("report.summary", {"sessions": 3, "requests": 12})
        == "3 сессии, 12 запросов разрешено"
    )
    assert (
        catalogue.message("report.summary", {"sessions": 5, "requests": 34})
        == "5 сессий, 34 запроса разрешено"
    )
