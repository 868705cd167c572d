"""Each system's vocabulary: every message it can say, declared in one place and built only through it.

The rules never write a sentence (docs/i18n.md). A system declares the messages it may emit in its own
``messages`` module, as a :class:`Vocabulary` of :class:`MessageKind`\\ s, and builds every log line,
roll purpose and card word by calling one of them::

    SUPPRESSION_TEST = MESSAGES.message("suppression.test", "target", "wp", "roll", "need", ...)
    log.append(SUPPRESSION_TEST(target="Cultist", wp=25, roll=62, need=5, ...))

Because of that, the set of keys a system can emit is known without running it, and tests check the
catalogues against it both ways (a text for every key in every language, no text without a key), and
that every placeholder a text uses is a value the message carries.

A kind checks its values when called: exactly the declared names, no more and no fewer, so a template
can rely on them. Names listed as ``signed`` are integers that the table reads with their sign (a DM of
+2, a modifier of -20): the message also carries ``<name>_signed``, the number written with its sign
("+2", "-20", "+0"), which is the same in every language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from rules.results import Message

__all__ = ["SIGNED_SUFFIX", "ErrorKind", "MessageKind", "Vocabulary", "action_key", "english_text"]

#: A signed value ``dm`` also travels as ``dm_signed``.
SIGNED_SUFFIX = "_signed"
#: The family a system names its actions in (``<prefix>.action.<action>``).
_ACTIONS = "action"
#: The family a vocabulary names its refusals in (``<prefix>.error.<name>``).
_ERRORS = "error"
#: The English template of every declared refusal, by key (filled as the systems are imported).
_ENGLISH: dict[str, str] = {}


def english_text(key: str) -> str | None:
    """The English template a refusal was declared with (``Vocabulary.error``), or None."""
    return _ENGLISH.get(key)


def action_key(system: str, action: str) -> str:
    """The key of an action's name in words, ``<system>.action.<action>``: what a chat card titles an
    action other than the system's default with (``bridge/card.py``); each system declares them with
    :meth:`Vocabulary.actions`."""
    return f"{system}.{_ACTIONS}.{action}"


def _mismatch(key: str, expected: frozenset[str], values: Mapping[str, Any]) -> None:
    missing = sorted(expected - values.keys())
    extra = sorted(values.keys() - expected)
    raise TypeError(f"message {key}: missing values {missing}, unexpected values {extra}")


def _sign(key: str, signed: tuple[str, ...], values: dict[str, Any]) -> None:
    for name in signed:
        number = values[name]
        if not isinstance(number, int) or isinstance(number, bool):
            raise TypeError(f"message {key}: signed value {name} must be an integer, not {number!r}")
        values[name + SIGNED_SUFFIX] = f"{number:+d}"


def _maker(key: str, expected: frozenset[str], signed: tuple[str, ...]) -> Callable[..., Message]:
    """A kind's ``make``: its ``__call__`` as a closure over the kind's key and names (one per declared
    kind, made once when the system is imported)."""
    if not signed:

        def make(**values: Any) -> Message:
            if values.keys() != expected:
                _mismatch(key, expected, values)
            return Message(key, values)

        return make

    def make_signed(**values: Any) -> Message:
        if values.keys() != expected:
            _mismatch(key, expected, values)
        _sign(key, signed, values)
        return Message(key, values)

    return make_signed


class MessageKind:
    """One message a system can say: its key and the names of the values it carries.

    A plain class with slots rather than a dataclass: every system declares dozens of these when it
    is imported, and generating a dataclass's methods costs ``volley odds`` a millisecond of start-up.
    Immutable by convention; equal and hashed by key, names and signed names.
    """

    __slots__ = ("_given", "key", "make", "names", "signed")

    def __init__(self, key: str, names: tuple[str, ...] = (), signed: tuple[str, ...] = ()) -> None:
        self.key = key
        self.names = names
        self.signed = signed
        #: the value names a call must give, computed once (a result says several messages)
        self._given = frozenset((*names, *signed))
        #: The same as calling the kind (the same checks, the same message), as a plain function: a
        #: call of an instance goes through its ``__call__`` and costs about twice as much, so the
        #: paths every attack takes (a GURPS attack's log, its card's title) keep ``KIND.make``.
        self.make: Callable[..., Message] = _maker(key, self._given, signed)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MessageKind):
            return NotImplemented
        return (self.key, self.names, self.signed) == (other.key, other.names, other.signed)

    def __hash__(self) -> int:
        return hash((self.key, self.names, self.signed))

    def __repr__(self) -> str:
        return f"MessageKind(key={self.key!r}, names={self.names!r}, signed={self.signed!r})"

    @property
    def value_names(self) -> frozenset[str]:
        """Every value the message carries, the ``_signed`` companions included."""
        return frozenset((*self.names, *self.signed, *(name + SIGNED_SUFFIX for name in self.signed)))

    def __call__(self, **values: Any) -> Message:
        expected = self._given
        if values.keys() != expected:
            _mismatch(self.key, expected, values)
        if not self.signed:  # most messages: every attack says several, each checked above and done
            return Message(self.key, values)
        _sign(self.key, self.signed, values)
        return Message(self.key, values)


class ErrorKind(MessageKind):
    """A refusal a system can give (``rules.errors.RuleError``): a message like any other, declared
    with its English template, which is what ``RuleError.message`` has always said in English.

    The English catalogue holds the same text (a test keeps them equal), so a client that renders the
    message and one that prints ``message`` read the same words.
    """

    __slots__ = ("english",)

    def __init__(
        self, key: str, english: str, names: tuple[str, ...] = (), signed: tuple[str, ...] = ()
    ) -> None:
        super().__init__(key, names, signed)
        self.english = english


class Vocabulary:
    """The messages of one system (keys ``<prefix>.<suffix>``), in declaration order."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self._kinds: dict[str, MessageKind] = {}

    def message(self, suffix: str, *names: str, signed: Iterable[str] = ()) -> MessageKind:
        """Declare the message ``<prefix>.<suffix>`` carrying ``names`` (and ``signed`` integers)."""
        key = f"{self.prefix}.{suffix}"
        if key in self._kinds:
            raise ValueError(f"message {key} declared twice")
        kind = MessageKind(key=key, names=tuple(names), signed=tuple(signed))
        if len(kind.value_names) != len(kind.names) + 2 * len(kind.signed):
            raise ValueError(f"message {key}: a value name is declared twice")
        self._kinds[key] = kind
        return kind

    def error(self, suffix: str, english: str, *names: str, signed: Iterable[str] = ()) -> ErrorKind:
        """Declare the refusal ``<prefix>.error.<suffix>`` carrying ``names``, whose English text is
        ``english`` (a template, docs/i18n.md)."""
        key = f"{self.prefix}.{_ERRORS}.{suffix}"
        if key in self._kinds:
            raise ValueError(f"message {key} declared twice")
        kind = ErrorKind(key=key, english=english, names=tuple(names), signed=tuple(signed))
        self._kinds[key] = kind
        _ENGLISH[key] = english
        return kind

    def family(self, suffix: str, members: Iterable[str], *names: str) -> dict[str, MessageKind]:
        """One message per member (``<prefix>.<suffix>.<member>``): the words for a set of names the
        rules use as data, such as fire modes, hit locations or action names."""
        return {member: self.message(f"{suffix}.{member}", *names) for member in members}

    def actions(self, names: Iterable[str]) -> dict[str, MessageKind]:
        """The words for each of the system's actions but its default (keys :func:`action_key`)."""
        return self.family(_ACTIONS, names)

    def __iter__(self) -> Iterator[MessageKind]:
        return iter(self._kinds.values())

    def __len__(self) -> int:
        return len(self._kinds)

    @property
    def kinds(self) -> Mapping[str, MessageKind]:
        """Every declared message by key."""
        return dict(self._kinds)
