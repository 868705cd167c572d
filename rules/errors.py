"""The one error a request can raise: it names the field and the rule it broke.

A refusal is a message like a result's lines (docs/i18n.md): a key and values, declared with
``Vocabulary.error`` by the system whose rule it is (``rules/<system>/messages.py``), or here for what
every system shares (a request that is not JSON, a field of the wrong type). ``message`` stays the
English rendering, which every layer above (CLI, bridge, VTT) can show as it is; ``msg`` is what a
client renders in its user's language. Either way it reads like a referee's ruling: "shots 12 > RoF
10", not "ValueError".
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from rules.messages import Vocabulary, english_text
from rules.results import Message

__all__ = [
    "COMMON_ERRORS",
    "RuleError",
    "english",
    "from_validation",
    "split_validation",
    "validation_message",
]

#: Refusals that belong to no one system: the request's shape, and msgspec's validation errors.
COMMON_ERRORS = Vocabulary("common")

NOT_JSON = COMMON_ERRORS.error("not_json", "not valid JSON: {detail}", "detail")
NO_REQUEST = COMMON_ERRORS.error("no_request", "no request on stdin (expected one JSON object)")
UNREADABLE_FILE = COMMON_ERRORS.error(
    "unreadable_file", "cannot read the request file {file}: {reason}", "file", "reason"
)
NOT_OBJECT = COMMON_ERRORS.error("not_object", "a request must be a JSON object")
NO_SYSTEM = COMMON_ERRORS.error("no_system", "a request needs a system: one of {known}", "known")
UNKNOWN_SYSTEM = COMMON_ERRORS.error(
    "unknown_system", "unknown system {system}{known?; expected one of {known}|}", "system", "known"
)
UNKNOWN_ACTION = COMMON_ERRORS.error(
    "unknown_action",
    "{title} has no action {action}; expected one of {actions}",
    "title",
    "action",
    "actions",
)
#: msgspec's "Expected `int`, got `str`"
WRONG_TYPE = COMMON_ERRORS.error("wrong_type", "Expected `{expected}`, got `{got}`", "expected", "got")
#: msgspec's "Expected `int` >= 1"
OUT_OF_RANGE = COMMON_ERRORS.error(
    "out_of_range", "Expected `{expected}` {bound_op} {bound}", "expected", "bound_op", "bound"
)
#: msgspec's "Expected `str` of length <= 64"
BAD_LENGTH = COMMON_ERRORS.error(
    "bad_length", "Expected `{expected}` of length {bound_op} {bound}", "expected", "bound_op", "bound"
)
MISSING_FIELD = COMMON_ERRORS.error("missing_field", "Object missing required field `{field}`", "field")
UNKNOWN_FIELD = COMMON_ERRORS.error("unknown_field", "Object contains unknown field `{field}`", "field")
#: msgspec's "Invalid enum value 'x'", with the values the field takes when they are known
UNKNOWN_VALUE = COMMON_ERRORS.error(
    "unknown_value", "Invalid enum value {value}{allowed?; expected one of {allowed}|}", "value", "allowed"
)
NO_TARGET = COMMON_ERRORS.error("no_target", "an attack needs at least one target")
TOO_MANY_DICE = COMMON_ERRORS.error("too_many_dice", "more than {most} dice in one request", "most")
#: A preview (``odds``) whose reply would be larger than a client may be sent; every system's bounds
#: keep their previews far below it, so this is the bridge's last guard, not a rule.
PREVIEW_TOO_LARGE = COMMON_ERRORS.error(
    "preview_too_large",
    "this preview would be {size} bytes, over the {most} one reply may carry: ask for fewer targets or shots",
    "size",
    "most",
)
#: The bridge's refusal of a request naming a weapon a pending two-step attack holds (issue #31):
#: ``pending`` is that attack's id, so the VTT can offer to cancel it.
PENDING_OPEN = COMMON_ERRORS.error(
    "pending_open",
    "{who}'s {weapon} waits for the allocation of a two-step attack (rolled {age} ago): allocate or "
    "cancel it before anything else fires or handles that weapon",
    "who",
    "weapon",
    "pending",
    "age",
)
DICE_RAN_OUT = COMMON_ERRORS.error(
    "dice_ran_out",
    "scripted dice ran out: a d{sides} for {purpose} was needed after {faces} faces",
    "sides",
    "purpose",
    "faces",
)
IMPOSSIBLE_FACE = COMMON_ERRORS.error(
    "impossible_face",
    "face {face} cannot come from a d{sides} (rolled for {purpose})",
    "face",
    "sides",
    "purpose",
)
FACES_LEFT = COMMON_ERRORS.error(
    "faces_left", "{left} scripted face(s) left unused after {rolled} were rolled", "left", "rolled"
)
#: any other validation failure, in msgspec's own English
INVALID = COMMON_ERRORS.error("invalid", "{detail}", "detail")
#: msgspec's names of JSON types as words a refusal carries (``common.error.type.<name>``), so a table
#: reads "ожидается целое число, а не строка"; the English is msgspec's own name, so ``message`` reads
#: as msgspec said it. A name not here (a union such as ``int | null``) is carried as it is.
TYPE_WORDS = {
    name: COMMON_ERRORS.error(f"type.{name}", name)
    for name in ("int", "float", "str", "bool", "null", "object", "array")
}


class _English:
    """Renders a message nested in a refusal: another refusal or word declared with its English
    (``Vocabulary.error``) in that English; any other message (what a die was rolled for) the way the
    rules write one where there is no catalogue, ``key(name=value, ...)`` (``Message.__str__``)."""

    def render(self, message: Any) -> str:
        from rules.template import format_template

        key, values = message["key"], dict(message["values"])
        template = english_text(key)
        if template is not None:
            return format_template(template, values, "en", self)
        return str(Message(key=key, values=values))


def english(message: Message) -> str:
    """The English of a refusal: its declared template filled with its values."""
    from rules.template import format_template  # only a refused request needs it

    template = english_text(message.key)
    if template is None:
        raise TypeError(f"{message.key} is not a declared refusal (Vocabulary.error)")
    return format_template(template, message.values, "en", _English())


class RuleError(Exception):
    """A request that cannot be resolved as asked; nothing was rolled or spent.

    ``path`` is a JSON path into the request (``$.weapon.rof``); ``msg`` the refusal as a message,
    ``message`` its English; ``code`` says what kind of problem it is: ``json`` (not JSON at all),
    ``invalid`` (wrong shape or type), ``rule`` (a game rule forbids it) or ``dice`` (scripted dice that
    do not fit the request).

    Volley's own systems always refuse with a declared message. A plain string is still accepted, for
    a system registered from outside that has no vocabulary of refusals: it is ``message`` as is, and
    ``msg`` is None (clients then show the English).
    """

    def __init__(self, path: str, msg: Message | str, *, code: str = "rule") -> None:
        message = msg if isinstance(msg, str) else english(msg)
        super().__init__(f"{path}: {message}")
        self.path = path
        self.msg: Message | None = None if isinstance(msg, str) else msg
        self.message = message
        self.code = code

    def __reduce__(self) -> tuple[type[RuleError], tuple[str, Message | str], dict[str, str]]:
        """Pickled (a rules worker's refusal) with its arguments, not just the text."""
        return (RuleError, (self.path, self.message if self.msg is None else self.msg), {"code": self.code})


_AT_PATH = re.compile(r"^(?P<message>.*?)(?: - at `(?P<path>[^`]*)`)?$", re.DOTALL)
_MISSING_FIELD = re.compile(r"Object missing required field `(?P<field>[^`]+)`")
_UNKNOWN_FIELD = re.compile(r"Object contains unknown field `(?P<field>[^`]+)`")
_WRONG_TYPE = re.compile(r"Expected `(?P<expected>[^`]+)`, got `(?P<got>[^`]+)`")
_OUT_OF_RANGE = re.compile(r"Expected `(?P<expected>[^`]+)` (?P<op>[<>]=?) (?P<bound>\S+)")
_BAD_LENGTH = re.compile(r"Expected `(?P<expected>[^`]+)` of length (?P<op>[<>]=?) (?P<bound>\S+)")
_UNKNOWN_VALUE = re.compile(r"Invalid enum value (?P<value>.+)")


def split_validation(error: msgspec.ValidationError | msgspec.DecodeError) -> tuple[str, str]:
    """msgspec's "Expected `int`, got `str` - at `$.weapon.rof`" as (message, path).

    msgspec reports a missing or an unknown field at the object that lacks or holds it; the path here
    points at the field itself (``$.attacker.skill``, ``$.targets[0].distnce``), which is where a user
    has to look.
    """
    match = _AT_PATH.match(str(error))
    assert match is not None  # the pattern matches any string
    message, path = match.group("message"), match.group("path") or "$"
    field = _MISSING_FIELD.fullmatch(message) or _UNKNOWN_FIELD.fullmatch(message)
    if field is not None:
        path = f"{path}.{field.group('field')}"
    return message, path


def validation_message(text: str, allowed: list[str] | None = None) -> Message:
    """One of msgspec's validation messages as a refusal a client can put in its own words: a wrong
    type, a value out of range (with the bound), a missing or unknown field, a value a field does not
    take (with ``allowed``, the ones it does); anything else as msgspec said it (``common.error.invalid``)."""
    if match := _WRONG_TYPE.fullmatch(text):
        return WRONG_TYPE(expected=_type_word(match["expected"]), got=_type_word(match["got"]))
    if match := _BAD_LENGTH.fullmatch(text):
        return BAD_LENGTH(expected=_type_word(match["expected"]), bound_op=match["op"], bound=match["bound"])
    if match := _OUT_OF_RANGE.fullmatch(text):
        return OUT_OF_RANGE(
            expected=_type_word(match["expected"]), bound_op=match["op"], bound=match["bound"]
        )
    if match := _MISSING_FIELD.fullmatch(text):
        return MISSING_FIELD(field=match["field"])
    if match := _UNKNOWN_FIELD.fullmatch(text):
        return UNKNOWN_FIELD(field=match["field"])
    if match := _UNKNOWN_VALUE.fullmatch(text):
        return UNKNOWN_VALUE(value=match["value"], allowed=allowed or [])
    return INVALID(detail=text)


def _type_word(name: str) -> Message | str:
    """A msgspec type name as a word (``TYPE_WORDS``), or as it is when it has none."""
    kind = TYPE_WORDS.get(name)
    return kind() if kind is not None else name


def from_validation(
    error: msgspec.ValidationError | msgspec.DecodeError, allowed: list[str] | None = None
) -> RuleError:
    """A msgspec validation error as a RuleError (code ``invalid``) naming the field's path."""
    message, path = split_validation(error)
    return RuleError(path, validation_message(message, allowed), code="invalid")
