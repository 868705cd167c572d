"""Issue 18: nothing in a d100 request half-works, and no number is too big for the formatter.

A field that belongs to another mode (``rate`` on a long burst), a share nothing would read, a band
that contradicts the distance: each is refused with its field named, not dropped. A distance of 1e308
is ``invalid`` (its range named), never ``internal``.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from d100_helpers import chances, refused, vex

from bridge.i18n import Catalogue
from bridge.resolution import odds_reply
from rules import RuleError, decode_request
from rules.d100.requests import MAX_DISTANCE_METRES

WEAPON_RNG_90 = {"range": 90}
SECONDARY = {"id": "t2", "name": "Cultist", "wp": 28, "to_primary": 1.5, "share": 1}


def test_rate_on_a_long_burst_is_refused_not_ignored() -> None:
    error = refused(vex(rate="semi"), "$.rate", "suppressing fire")
    assert error.msg is not None and error.msg.key == "d100.error.rate_not_suppressing"


def test_arc_base_and_order_belong_to_their_own_modes() -> None:
    refused(vex(arc=30), "$.arc", "sector")
    refused(vex(base="short_burst"), "$.base", "wide_burst")
    refused(vex(order={"mode": "single"}), "$.order", "overwatch")
    # in their own modes they are read as before
    chances(vex(mode="wide_burst", base="short_burst"))
    chances(
        vex(
            mode="suppressing",
            rate="semi",
            arc=30,
            weapon={"rof": "S/3/10", "range": 90},
            targets=[{"id": "t1", "wp": 35}],
        )
    )


def test_a_share_on_a_suppressing_target_or_on_the_primary_is_refused() -> None:
    suppressing = vex(
        mode="suppressing", targets=[{"id": "t1", "wp": 35}, {"id": "t2", "wp": 30, "share": 2}]
    )
    refused(suppressing, "$.targets[1].share", "at random")
    primary = vex(targets=[{"id": "t1", "wp": 35, "share": 2}, SECONDARY])
    refused(primary, "$.targets[0].share", "primary")
    refused(
        vex(targets=[{"id": "t1", "wp": 35, "to_primary": 1.0}, SECONDARY]), "$.targets[0].to_primary", ""
    )
    chances(vex(targets=[{"id": "t1", "wp": 35}, SECONDARY]))  # a secondary's share is what shares are for


def test_a_band_that_contradicts_the_distance_is_refused() -> None:
    """The issue's case: ``band: point_blank`` with ``distance: 30`` at Rng 90 (short range)."""
    conflict = vex(
        weapon=WEAPON_RNG_90, targets=[{"id": "t1", "wp": 35, "band": "point_blank", "distance": 30}]
    )
    error = refused(conflict, "$.targets[0].band", "disagrees with distance 30 m")
    assert Catalogue.load("ru").render(msgspec.to_builtins(error.msg)).startswith("дистанция «в упор»")
    agreeing = vex(weapon=WEAPON_RNG_90, targets=[{"id": "t1", "wp": 35, "band": "short", "distance": 30}])
    chances(agreeing)
    refused(vex(weapon=WEAPON_RNG_90, band="short", range_band="long"), "$.range_band", "one range")


@pytest.mark.parametrize(
    ("changes", "path"),
    [
        ({"targets": [{"id": "t1", "distance": 1e308}]}, "$.targets[0].distance"),
        ({"targets": [{"id": "t1"}, {**SECONDARY, "to_primary": 1e308}]}, "$.targets[1].to_primary"),
        ({"distance": 1e308}, "$.distance"),
        ({"room_size": 1e308}, "$.room_size"),
        ({"arc": 1e308}, "$.arc"),
        ({"targets": [{"id": "t1", "armour": 10**12}]}, "$.targets[0].armour"),
        ({"targets": [{"id": "t1", "armour": {"head": 10**12}}]}, "$.targets[0].armour[...]"),
        ({"targets": [{"id": "t1", "tb": 10**12}]}, "$.targets[0].tb"),
        ({"targets": [{"id": "t1", "cover_ap": 10**12}]}, "$.targets[0].cover_ap"),
        ({"targets": [{"id": "t1"}, {**SECONDARY, "share": 10**12}]}, "$.targets[1].share"),
        ({"weapon": {"pen": 10**12}}, "$.weapon.pen"),
        ({"range_modifiers": {"short": 10**12}}, "$.range_modifiers[...]"),
        ({"attacker": {"overwatch": {"facing": 1e308}}}, "$.attacker.overwatch.facing"),
    ],
)
def test_huge_numbers_are_invalid_and_named_never_internal(changes: dict[str, Any], path: str) -> None:
    request = vex(**{"weapon": WEAPON_RNG_90, **changes})
    with pytest.raises(RuleError) as caught:
        decode_request(msgspec.json.encode(request))
    assert (caught.value.path, caught.value.code) == (path, "invalid")
    for language in ("en", "ru"):
        assert "{" not in Catalogue.load(language).render(msgspec.to_builtins(caught.value.msg))


def test_a_distance_of_1e308_through_the_bridge_is_invalid() -> None:
    request = vex(weapon=WEAPON_RNG_90, targets=[{"id": "t1", "distance": 1e308}])
    with pytest.raises(Exception) as caught:
        odds_reply("o1", request)
    assert (getattr(caught.value, "code", None), getattr(caught.value, "path", None)) == (
        "invalid",
        "$.request.targets[0].distance",
    )
    just_inside = vex(weapon={"range": 100_000}, targets=[{"id": "t1", "distance": MAX_DISTANCE_METRES}])
    with pytest.raises(RuleError) as beyond:
        chances(just_inside)
    assert beyond.value.path == "$.targets[0].distance"  # beyond extreme range: a rule, rendered in full
    assert "1000000 m" in beyond.value.message


def test_an_overwatch_order_refuses_what_only_firing_reads() -> None:
    order = vex(mode="overwatch", order={"mode": "single", "arc": 30}, targets=[])
    chances(order)
    refused(vex(mode="overwatch", order={"mode": "single"}), "$.targets", "overwatch_fire")
    refused({**order, "modifier": 10}, "$.modifier", "overwatch_fire")
    lift = {"system": "d100", "action": "overwatch", "attacker": {"id": "a1", "bs": 45}, "clear": True}
    chances(lift)
    refused({**lift, "order": {"mode": "single"}}, "$.order", "clear lifts")
