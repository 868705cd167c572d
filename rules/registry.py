"""The systems Volley knows, and the typed front door every request goes through.

Systems are imported on first use: ``volley odds`` on a GURPS request loads GURPS alone, and a
process that serves one table never pays for the systems it is not asked about until it lists them.
"""

from __future__ import annotations

import functools
import importlib
import re
import typing
from collections.abc import Iterator, Mapping, MutableMapping
from typing import Any, NamedTuple

import msgspec

from rules import errors
from rules.dice import Dice, ScriptedDice, SeededDice
from rules.errors import RuleError, split_validation, validation_message
from rules.results import Odds, Result
from rules.system import RuleSystem

__all__ = [
    "SYSTEMS",
    "SystemRegistry",
    "decode_request",
    "dice_for",
    "drop_unknown_fields",
    "odds",
    "odds_cost",
    "request_schema",
    "resolve",
    "warm_up",
]


class SystemRegistry(MutableMapping[str, RuleSystem]):
    """Rule systems by name; each built-in one is imported the first time it is looked up.

    Listing the names imports nothing; ``SYSTEMS["gurps"]`` imports ``rules.gurps``; iterating the
    values or items imports them all. Systems can be added (tests register made-up ones).
    """

    def __init__(self, modules: Mapping[str, str]) -> None:
        self._modules = dict(modules)
        self._loaded: dict[str, RuleSystem] = {}

    def __getitem__(self, name: str) -> RuleSystem:
        system = self._loaded.get(name)
        if system is None:
            module = self._modules[name]
            system = importlib.import_module(module).SYSTEM
            self._loaded[name] = system
        return system

    def __setitem__(self, name: str, system: RuleSystem) -> None:
        self._loaded[name] = system
        self._modules.setdefault(name, "")

    def __delitem__(self, name: str) -> None:
        if name not in self._modules:
            raise KeyError(name)
        del self._modules[name]
        self._loaded.pop(name, None)

    def __contains__(self, name: object) -> bool:
        return name in self._modules

    def get(self, name: str, default: RuleSystem | None = None) -> RuleSystem | None:  # type: ignore[override]
        # Every request looks its system up a few times: ``Mapping.get`` (Python, through
        # ``__getitem__`` and a KeyError for a miss) cost each a microsecond or so.
        system = self._loaded.get(name)
        if system is not None:
            return system
        return self[name] if name in self._modules else default

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._modules))

    def __len__(self) -> int:
        return len(self._modules)


#: Every system Volley ships, in listing order, with the module that defines its ``SYSTEM``.
SYSTEMS = SystemRegistry(
    {
        "gurps": "rules.gurps",
        "megatraveller": "rules.megatraveller",
        "d100": "rules.d100",
    }
)


def decode_request(
    data: bytes | bytearray | memoryview | msgspec.Raw | str | Mapping[str, Any],
    *,
    lenient: bool = False,
    view: Mapping[str, Any] | None = None,
) -> Any:
    """Parse and validate one request; a ``RuleError`` names the offending field's path.

    ``system`` picks the rule system, ``action`` the request type within it (the system's default
    action when absent). A field the request type does not declare is refused (``unknown_field``, its
    path naming it): a typo such as ``distnce`` must not quietly resolve with the default instead.

    JSON text (the bytes of a client's frame) is decoded once, straight into the system's typed
    request (msgspec's tagged union, as its ``asyncio-kv`` example decodes): a first pass reads only
    ``system`` and ``action``, skipping the rest, to pick the union (or, for a request that names no
    action, the default action's own struct, which reads it without the tag). ``view``: the same
    text already read as a dict (the bridge reads one for its own checks), whose ``system`` and
    ``action`` are taken instead of that first pass. A request that pass or the typed decoder
    refuses is read again the long way (as a dict, then checked), so a refusal names the same field
    in the same words whichever way the request came.

    ``lenient`` is for reading old journals only (``volley replay``, the session report): a field
    that no longer exists was ignored when the request was resolved, so it is dropped again
    (:func:`drop_unknown_fields`) and the request resolves as it did at the table.
    """
    if not lenient and isinstance(data, (bytes, bytearray, memoryview, msgspec.Raw)):
        typed = _typed_from_json(data, view)
        if typed is not None:
            return typed
        data = bytes(data)
    if isinstance(data, (bytes, bytearray, str)):
        try:
            obj: Any = msgspec.json.decode(data)
        except msgspec.DecodeError as error:
            raise RuleError("$", errors.NOT_JSON(detail=str(error)), code="json") from None
    else:
        obj = data
    if not isinstance(obj, dict):
        raise RuleError("$", errors.NOT_OBJECT(), code="invalid")
    if "system" not in obj:
        raise RuleError("$.system", errors.NO_SYSTEM(known=_known()), code="invalid")
    name = obj["system"]
    system = SYSTEMS.get(name) if isinstance(name, str) else None
    if system is None:
        raise RuleError("$.system", errors.UNKNOWN_SYSTEM(system=repr(name), known=_known()), code="invalid")
    if "action" not in obj:
        obj = {**obj, "action": system.default_action}
    actions = _actions(system)
    if obj["action"] not in actions:
        refusal = errors.UNKNOWN_ACTION(title=system.title, action=repr(obj["action"]), actions=list(actions))
        raise RuleError("$.action", refusal, code="invalid")
    if lenient:
        obj, _ = drop_unknown_fields(obj)
    try:
        return _typed(obj, system.request_type)
    except msgspec.ValidationError as error:
        text, path = split_validation(error)
        allowed = None
        if text.startswith("Invalid enum value"):
            allowed = _allowed_values(_request_member(system, obj["action"]), path)
        raise RuleError(path, validation_message(text, allowed), code="invalid") from None


class _Head(msgspec.Struct):
    """What picks a request's type: its system and action (every other field is skipped unread)."""

    system: Any = msgspec.UNSET
    action: Any = msgspec.UNSET


_HEAD = msgspec.json.Decoder(_Head)


def _typed_from_json(
    data: bytes | bytearray | memoryview | msgspec.Raw, view: Mapping[str, Any] | None = None
) -> Any:
    """The typed request of JSON text, decoded once; None when anything is wrong with it (the caller
    then reads it the long way, which says what). ``view``: the text as a dict, if it was read so."""
    if view is None:
        try:
            head = _HEAD.decode(data)
        except (msgspec.DecodeError, RecursionError):  # a ValidationError is a DecodeError
            return None
        name, action = head.system, head.action
    else:
        name, action = view.get("system"), view.get("action", msgspec.UNSET)
    system = SYSTEMS.get(name) if isinstance(name, str) else None
    if system is None:
        return None
    known = _known_type(system.request_type)
    if action is msgspec.UNSET:
        # The default action: its own struct's decoder, which reads a request without the tag field
        # as that struct (no copy of the request with the tag spliced in for the union to read).
        decoder = known.defaults.get(system.default_action)
        if decoder is None:
            if system.default_action not in known.tags:
                return None
            decoder = known.defaults[system.default_action] = msgspec.json.Decoder(
                _member(system.request_type, system.default_action)
            )
    elif action in known.tags:
        decoder = known.decoder
    else:
        return None
    try:
        return decoder.decode(data)
    except (msgspec.DecodeError, RecursionError):
        return None


#: The most unknown fields :func:`drop_unknown_fields` removes from one request (a guard, not a rule).
MAX_DROPPED = 256


def drop_unknown_fields(request: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """``request`` without the fields its system's request type does not declare, and their paths.

    For requests recorded before a field was refused (journals): each unknown field msgspec reports
    is removed from a copy and the request checked again, so only fields that are truly unknown go
    (anything else wrong is left for :func:`decode_request` to refuse). ``request`` is not modified.
    """
    obj: dict[str, Any] = dict(request)
    name = obj.get("system")
    system = SYSTEMS.get(name) if isinstance(name, str) else None
    if system is None:
        return obj, []
    if "action" not in obj:
        obj["action"] = system.default_action
    dropped: list[str] = []
    copied: set[int] = {id(obj)}
    for _ in range(MAX_DROPPED):
        try:
            msgspec.convert(obj, system.request_type, strict=True)
        except msgspec.ValidationError as error:
            text, path = split_validation(error)
            if not text.startswith("Object contains unknown field"):
                break
            parent, _, field = path.rpartition(".")
            holder = _copied_at(obj, parent, copied)
            if not isinstance(holder, dict) or field not in holder:
                break
            del holder[field]
            dropped.append(path)
        else:
            break
    if "action" not in request:
        del obj["action"]
    return obj, dropped


def _copied_at(obj: dict[str, Any], path: str, copied: set[int]) -> Any:
    """The object at ``path`` (``$.targets[0]``) inside ``obj``, each container on the way replaced
    by a shallow copy the first time (``copied``), so the caller's request is never changed."""
    here: Any = obj
    for step in re.finditer(_PATH_STEP, path.removeprefix("$")):
        key: str | int = step.group(1) if step.group(1) is not None else int(step.group(2))
        try:
            child = here[key]
        except (KeyError, IndexError, TypeError):
            return None
        if isinstance(child, (dict, list)) and id(child) not in copied:
            child = dict(child) if isinstance(child, dict) else list(child)
            copied.add(id(child))
            here[key] = child
        here = child
    return here


def _typed(obj: dict[str, Any], request_type: Any) -> Any:
    """``obj`` as ``request_type``, checked as strictly as ``msgspec.convert(strict=True)`` checks it.

    A request is JSON the bridge has just decoded, and msgspec validates JSON text into a typed
    union about three times faster than it converts a dict: the object is written back to JSON and
    read as the type (together still less than half the conversion, the largest cost of a request
    after the rules). Anything JSON cannot say the same way (an integer beyond 64 bits, a non-string
    key, nesting too deep to write) is converted as before, and so is a request the decoder refuses
    (JSON reads an integer beyond 64 bits as a float, so its message would differ): the answer and
    its error message never depend on which way was taken.
    """
    try:
        text = _JSON_OUT.encode(obj)
    except (TypeError, ValueError, OverflowError, RecursionError):
        return msgspec.convert(obj, request_type, strict=True)
    try:
        return _known_type(request_type).decoder.decode(text)
    except msgspec.ValidationError:  # refused: convert says why, in its words (rare, so never costly)
        return msgspec.convert(obj, request_type, strict=True)


_JSON_OUT = msgspec.json.Encoder()


class _KnownType(NamedTuple):
    """What every request of one request union needs, worked out once: its action tags, its decoder."""

    request_type: Any
    tags: tuple[str, ...]
    decoder: msgspec.json.Decoder[Any]
    #: the decoder of each default action's own struct, by action (filled as systems ask)
    defaults: dict[str, msgspec.json.Decoder[Any]]


def _known_type(request_type: Any) -> _KnownType:
    """Looked up by the union's identity: hashing the union type itself, as a cache keyed by it
    would, costs every request a few microseconds. The type is kept in the entry, so an id that
    outlived its type is never taken for another's."""
    found = _KNOWN.get(id(request_type))
    if found is None or found.request_type is not request_type:
        found = _KNOWN[id(request_type)] = _KnownType(
            request_type, _tags(request_type), msgspec.json.Decoder(request_type), {}
        )
    return found


_KNOWN: dict[int, _KnownType] = {}


def _known() -> list[str]:
    return sorted(SYSTEMS)


def _actions(system: RuleSystem) -> tuple[str, ...]:
    """The ``action`` tags of a system's request union, in declaration order."""
    return _known_type(system.request_type).tags


@functools.lru_cache(maxsize=64)
def _tags(request_type: Any) -> tuple[str, ...]:
    members = typing.get_args(request_type) or (request_type,)
    return tuple(str(member.__struct_config__.tag) for member in members)


def _request_member(system: RuleSystem, action: str) -> Any:
    return _member(system.request_type, action)


def _member(request_type: Any, action: str) -> Any:
    members = typing.get_args(request_type) or (request_type,)
    return next(member for member in members if member.__struct_config__.tag == action)


_PATH_STEP = r"\.([^.\[]+)|\[(\d+)\]"


def _allowed_values(request_type: Any, path: str) -> list[str] | None:
    """The values a ``Literal`` field at ``path`` accepts, for an "Invalid enum value" message."""
    import msgspec.inspect  # only an invalid request needs it

    info: Any = msgspec.inspect.type_info(request_type)
    for step in re.finditer(_PATH_STEP, path.removeprefix("$")):
        while isinstance(info, msgspec.inspect.UnionType):
            info = next((t for t in info.types if not isinstance(t, msgspec.inspect.NoneType)), None)
        if step.group(1) is not None and isinstance(info, msgspec.inspect.StructType):
            info = next((f.type for f in info.fields if f.encode_name == step.group(1)), None)
        elif step.group(2) is not None and isinstance(info, msgspec.inspect.ListType):
            info = info.item_type
        else:
            return None
    values: list[str] = []
    for option in info.types if isinstance(info, msgspec.inspect.UnionType) else (info,):
        if isinstance(option, msgspec.inspect.LiteralType):
            values.extend(str(value) for value in option.values)
    return values or None


def _system_of(request: Any) -> RuleSystem:
    name = getattr(request, "system", None)
    system = SYSTEMS.get(name) if isinstance(name, str) else None  # one look-up, not ``in`` then ``[]``
    if system is None:
        raise RuleError("$.system", errors.UNKNOWN_SYSTEM(system=repr(name), known=[]), code="invalid")
    return system


def dice_for(request: Any, seed: int) -> Dice:
    """Scripted dice when the request carries ``dice`` (tests, replays), otherwise seeded dice."""
    faces = getattr(request, "dice", None)
    if faces is not None:
        return ScriptedDice(faces)
    return SeededDice(seed)


def resolve(request: Any, dice: Dice) -> Result:
    """Resolve a decoded request. The request is not modified; the result carries every roll."""
    result = _system_of(request).resolve(request, dice)
    dice.finish()
    return msgspec.structs.replace(result, rolls=list(dice.rolls))


def odds(request: Any) -> Odds:
    """Exact probabilities of every outcome of an attack request (no dice are rolled)."""
    return _system_of(request).odds(request)


def odds_cost(request: Any) -> float:
    """About how many milliseconds ``odds(request)`` would take in this process now (its system's
    estimate; 0 for a system that gives none). Memoised tables count: a repeat is cheap."""
    estimate = _system_of(request).odds_cost
    return estimate(request) if estimate is not None else 0.0


def warm_up() -> None:
    """Fill every system's caches for typical requests (pure: only memoised computation)."""
    for system in SYSTEMS.values():
        if system.warm_up is not None:
            system.warm_up()


def request_schema() -> dict[str, Any]:
    """JSON Schema of every request and result type of every system, plus the odds shape.

    Systems reuse type names (each has an ``Attacker`` and a ``Weapon``), so each system's definitions
    are named ``<system>.<Type>``; ``requests[<system>]`` is the schema of that system's request union.
    """
    definitions: dict[str, Any] = {}
    requests: dict[str, Any] = {}
    results: dict[str, Any] = {}
    for name, system in SYSTEMS.items():
        types = [system.request_type, *system.result_types]
        schemas, components = msgspec.json.schema_components(types, ref_template=f"#/$defs/{name}.{{name}}")
        definitions.update({f"{name}.{key}": value for key, value in components.items()})
        requests[name] = schemas[0]
        results[name] = {"anyOf": schemas[1:]}
    (odds_schema,), odds_components = msgspec.json.schema_components([Odds], ref_template="#/$defs/{name}")
    definitions.update(odds_components)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Volley rules requests and results",
        "systems": {name: system.title for name, system in SYSTEMS.items()},
        "requests": requests,
        "results": results,
        "odds": odds_schema,
        "$defs": definitions,
    }
