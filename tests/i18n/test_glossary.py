"""The Russian glossary (docs/i18n.md, "Glossary"): each system's catalogues spell each of its terms
one way, in its own book's case; none uses a spelling the glossary rules out (a system's `not`s hold in
the chrome too, which names every system's terms, and the chrome's in each system's own dialog and card
words); a term that must be said whole (`only`) never appears cut short; no catalogue capitalises a word
in mid-sentence that is not a term (chrome and labels are sentence case); the English catalogues say
what the module names itself one way (Rounds fired, Recover ammunition); and the options of one list
(docs/i18n.md, "Lists") share one case, in both languages.

The tables are read from the document itself, so the glossary a translator reads is the one held.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "i18n.md"
LANG = ROOT / "vtt_module" / "lang"

#: Glossary sections (by their heading's first word) and the catalogues they hold.
SECTIONS = {
    "d100": "d100",
    "GURPS": "gurps",
    "MegaTraveller": "megatraveller",
    "Module": "chrome",
    "English": "english",
}


@dataclass
class Glossary:
    stems: list[list[str]] = field(default_factory=list)
    banned: list[str] = field(default_factory=list)
    #: terms said whole: their first word never appears without the rest (`only переводчик… огня`)
    whole: list[list[str]] = field(default_factory=list)


def glossaries(text: str) -> dict[str, Glossary]:
    """Each section's checked stems (a term: its words' stems, in their one right case) and `not`s."""
    body = text.split("## Glossary", 1)[1]
    out: dict[str, Glossary] = {}
    for section in re.split(r"^### ", body, flags=re.M)[1:]:
        name = SECTIONS.get(section.split()[0])
        if name is None:
            continue
        glossary = out.setdefault(name, Glossary())
        for line in section.splitlines():
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if len(cells) != 3 or cells[0] in ("English", "---"):
                continue
            for check in re.findall(r"`([^`]+)`", cells[2]):
                if check.startswith("not "):
                    glossary.banned.append(check.removeprefix("not "))
                elif check.startswith("only "):
                    glossary.whole.append(check.removeprefix("only ").split())
                    glossary.stems.append(check.removeprefix("only ").split())
                else:
                    glossary.stems.append(check.split())
    return out


def leaves(node: object, path: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield from leaves(value, f"{path}.{key}" if path else key)
    elif isinstance(node, str):
        yield path, node


def own_words(name: str) -> list[tuple[str, str]]:
    """A system's own module words (its dialog, card and profile texts: chrome about that system)."""
    return list(leaves(json.loads((LANG / "systems" / f"{name}.ru.json").read_text(encoding="utf-8"))))


def catalogue(name: str) -> list[tuple[str, str]]:
    """A system's Russian texts (its own file and its rules messages); the chrome's for ``chrome``;
    every English text for ``english``."""
    if name == "english":
        files = [LANG / "en.json", LANG / "messages.en.json", *sorted((LANG / "systems").glob("*.en.json"))]
        return [
            (f"{path.name}:{key}", text)
            for path in files
            for key, text in leaves(json.loads(path.read_text(encoding="utf-8")))
        ]
    messages = json.loads((LANG / "messages.ru.json").read_text(encoding="utf-8"))
    if name == "chrome":
        own = list(leaves(json.loads((LANG / "ru.json").read_text(encoding="utf-8"))))
        prefix = "VOLLEY.Msg.common."
    else:
        own = own_words(name)
        prefix = f"VOLLEY.Msg.{name}."
    return own + [(key, text) for key, text in messages.items() if key.startswith(prefix)]


def plain(text: str) -> str:
    """The words of a template, its placeholders' names left out (their forms and texts kept)."""
    text = re.sub(r"\{[a-z_]+\}", " ", text)
    return re.sub(r"\{[a-z_]+[|?]", " ", text).replace("|", " ").replace("}", " ")


def stem_pattern(stem: list[str]) -> re.Pattern[str]:
    words = [
        re.escape(word.removesuffix("…")) + (r"\w*" if word.endswith("…") else r"(?!\w)") for word in stem
    ]
    return re.compile(r"(?<!\w)" + r"\s+".join(words), re.I)


def same_case(found: str, stem: list[str], *, sentence_start: bool = False) -> bool:
    """Each word in its one case; a lower-case term may begin a sentence with a capital."""
    wants = [w.removesuffix("…") for w in stem]
    for index, (got, want) in enumerate(zip(found.split(), wants, strict=True)):
        if got[:1] == want[:1] or (
            index == 0 and sentence_start and want[:1].islower() and got[:1].isupper()
        ):
            continue
        return False
    return True


GLOSSARY = glossaries(DOC.read_text(encoding="utf-8"))

#: A capital is a sentence's after these (and at the start of a text).
SENTENCE_START = re.compile(r"(^|[.!?:;«\"“(—–\-/]\s*|\n\s*)$")


def test_the_glossary_covers_each_system_and_the_chrome() -> None:
    assert set(GLOSSARY) == {"d100", "gurps", "megatraveller", "chrome", "english"}
    assert all(g.stems or g.banned for g in GLOSSARY.values())
    assert ["Подавл…"] in GLOSSARY["d100"].stems and "ГМ" in GLOSSARY["chrome"].banned
    assert re.search(stem_pattern(["мастер…"]).pattern, "на машине мастера")


def banned_in(texts: list[tuple[str, str]], banned: list[str]) -> list[str]:
    """Each text that uses a ruled-out spelling: written as stems too ("мастер…" rules out мастера,
    мастеру...), each in its own case (the glossary lists a capitalised one apart)."""
    return [
        f"{key}: {word!r} (the glossary rules it out)"
        for key, text in texts
        for word in banned
        if re.search(stem_pattern(word.split()).pattern, plain(text))
    ]


def cut_short(texts: list[tuple[str, str]], whole: list[list[str]]) -> list[str]:
    """Each text where a term said whole (`only`) appears by its first word alone."""
    wrong = []
    for key, text in texts:
        words = plain(text)
        for term in whole:
            full = [match.start() for match in stem_pattern(term).finditer(words)]
            for match in stem_pattern(term[:1]).finditer(words):
                if match.start() not in full:
                    wrong.append(f"{key}: {match.group(0)!r} without the rest of {' '.join(term)!r}")
    return wrong


@pytest.mark.parametrize("name", ["d100", "gurps", "megatraveller", "chrome", "english"])
def test_each_term_is_spelt_one_way(name: str) -> None:
    glossary = GLOSSARY[name]
    wrong = []
    for key, text in catalogue(name):
        words = plain(text)
        for stem in glossary.stems:
            for match in stem_pattern(stem).finditer(words):
                start = bool(SENTENCE_START.search(words[: match.start()]))
                if not same_case(match.group(0), stem, sentence_start=start):
                    wrong.append(f"{key}: {match.group(0)!r} (the glossary: {' '.join(stem)})")
    wrong += banned_in(catalogue(name), glossary.banned)
    wrong += cut_short(catalogue(name), glossary.whole)
    assert wrong == []


@pytest.mark.parametrize("name", ["d100", "gurps", "megatraveller"])
def test_the_chrome_and_a_system_use_each_others_words(name: str) -> None:
    """The chrome names a system's terms (the table rules menu, settings) as the system does, and a
    system's dialog and card words are chrome: «ведущий», not the book's ГМ (only its rules messages
    speak the book's words)."""
    glossary, chrome = GLOSSARY[name], GLOSSARY["chrome"]
    wrong = banned_in(catalogue("chrome"), glossary.banned) + cut_short(catalogue("chrome"), glossary.whole)
    wrong += banned_in(own_words(name), chrome.banned)
    assert wrong == []


def title_case_words(text: str) -> Iterator[str]:
    """Cyrillic words capitalised in mid-sentence (abbreviations, all capitals, are not words here)."""
    words = plain(text)
    for match in re.finditer(r"(?<!\w)[А-ЯЁ][а-яё]+(?![А-ЯЁ])", words):
        if not SENTENCE_START.search(words[: match.start()]):
            yield match.group(0)


def is_term(word: str, stems: list[list[str]]) -> bool:
    return any(
        re.fullmatch(stem_pattern([s]).pattern, word) and s[:1].isupper() for stem in stems for s in stem
    )


@pytest.mark.parametrize("name", ["d100", "gurps", "megatraveller", "chrome"])
def test_no_title_case_outside_the_terms(name: str) -> None:
    # The chrome may name any system's terms (a setting about d100's Караул); a system only its own.
    stems = [s for g in GLOSSARY.values() for s in g.stems] if name == "chrome" else GLOSSARY[name].stems
    wrong = [
        f"{key}: {word!r} in {text!r}"
        for key, text in catalogue(name)
        for word in title_case_words(text)
        if not is_term(word, stems)
    ]
    assert wrong == []


def option_lists(text: str) -> list[str]:
    """The keys of the option lists docs/i18n.md names (its "Lists" section)."""
    body = text.split("### Lists", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `(VOLLEY\.[A-Za-z0-9_.]+)`", body, flags=re.M)


def first_letter_case(text: str) -> str | None:
    """The case of a text's first letter ("upper", "lower"); None for an abbreviation (BS, ЛВК) or none."""
    for match in re.finditer(r"[^\W\d_]+", text):
        word = match.group(0)
        if len(word) > 1 and word.isupper():
            return None
        return "upper" if word[:1].isupper() else "lower"
    return None


def option_cases(lang: str, key: str) -> dict[str, str | None]:
    """Each option of the list at ``key`` in a language's catalogues, and the case it starts in."""
    files = [LANG / f"{lang}.json", *sorted((LANG / "systems").glob(f"*.{lang}.json"))]
    for path in files:
        node: object = json.loads(path.read_text(encoding="utf-8"))
        for part in key.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if isinstance(node, dict):
            return {option: first_letter_case(str(text)) for option, text in node.items()}
    raise AssertionError(f"{key}: no such list in the {lang} catalogues")


LISTS = option_lists(DOC.read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("key", LISTS)
def test_the_options_of_a_list_share_one_case(lang: str, key: str) -> None:
    cases = {option: case for option, case in option_cases(lang, key).items() if case is not None}
    assert len(set(cases.values())) <= 1, cases


def test_the_checks_catch_what_they_should() -> None:
    """A second spelling, a ruled-out word, a term cut short, a Title Case label and a list in two
    cases are each caught."""
    assert cut_short([("k", "переводчик {before} → {after}")], [["переводчик…", "огня"]])
    assert not cut_short([("k", "у переводчика огня нет положения")], [["переводчик…", "огня"]])
    assert banned_in([("k", "ГМ разрешает")], ["ГМ"]) and not banned_in([("k", "ведущий")], ["ГМ"])
    cases = [first_letter_case(t) for t in ("в упор", "Короткая", "BS +10", "−20")]
    assert cases == ["lower", "upper", None, None]
    assert len(LISTS) >= 2 and "VOLLEY.MegaTraveller.Roles" in LISTS
    suppression = [["Подавл…"]]
    assert not same_case(
        next(stem_pattern(suppression[0]).finditer("тест на подавление")).group(0), suppression[0]
    )
    assert list(title_case_words("Было Движение")) == ["Движение"]
    assert is_term("Подавлением", suppression) and not is_term("Движение", suppression)
    assert list(title_case_words("сначала «Снять Караул»")) == ["Караул"]
