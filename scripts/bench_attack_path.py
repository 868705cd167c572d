"""Where one attack's time goes in the bridge's own code, stage by stage, in one process.

The same GURPS attack the socket bench sends (``bench_bridge.py``), each stage repeated ``--count``
times in a tight loop after a warm-up: frame decode (the request kept as its bytes), the plain view of
the request (limits, card), limits, request decode (straight from the bytes, once; and, beside it, the
dict written back to JSON and decoded again, as before issue 38), dice, rules, card and reply, the
journal line. No socket, no loop, no fsync: what is left of a round trip once those are taken out.

Timed by ``time.process_time`` (this process's CPU), so other work on a shared machine weighs less than
it would on a wall clock; each stage's figure is the best of ``--repeat`` runs of ``--count`` calls.

    .venv/bin/python scripts/bench_attack_path.py [--count 20000] [--repeat 1]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bridge import resolution
from bridge.protocol import decode_client
from bridge.store.lines import Entry, line_time
from devkit.serve import GURPS_MP5
from rules.registry import SYSTEMS, _typed


def per_call(count: int, work: Callable[[], Any], repeat: int = 1) -> float:
    work()
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        for _ in range(count):
            work()
        best = min(best, (time.process_time() - started) / count)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=1, help="runs of --count calls; the best is printed")
    args = parser.parse_args()
    frame = json.dumps({"type": "attack", "id": "a1", "request": GURPS_MP5}, separators=(",", ":")).encode()
    message = decode_client(frame)
    raw = message.request
    request = resolution.plain(raw, id="a1")
    typed = resolution.decode(raw, id="a1")
    result = resolution.resolve(typed, resolution.dice_for(typed, 1), id="a1")
    outcome, reply = resolution.reply_for("a1", request, result)
    system = SYSTEMS["gurps"]
    with_action = {**request, "action": request.get("action", system.default_action)}
    encoder = msgspec.json.Encoder()
    sent = resolution.journaled(raw, request)

    def line() -> bytes:
        entry = Entry(
            id="a1", type="attack", at=line_time(), outcome=outcome, request=sent, seed=1,
            dice=None, pending_id=None, reply=msgspec.Raw(reply),
        )  # fmt: skip
        return encoder.encode(entry)

    stages: list[tuple[str, Callable[[], Any]]] = [
        ("frame decode", lambda: decode_client(frame)),
        ("plain view of the request", lambda: resolution.plain(raw, id="a1")),
        ("limits", lambda: resolution.check_limits(request, allow_scripted_dice=False, id="a1")),
        ("request decode, once", lambda: resolution.decode(raw, id="a1")),
        ("  (the dict to JSON and back, before)", lambda: _typed(with_action, system.request_type)),
        (
            "  (msgspec.convert, before that)",
            lambda: msgspec.convert(with_action, system.request_type, strict=True),
        ),
        ("dice", lambda: resolution.dice_for(typed, 12345)),
        ("rules", lambda: resolution.resolve(typed, resolution.dice_for(typed, 12345), id="a1")),
        ("card and reply", lambda: resolution.reply_for("a1", request, result)),
        ("journal line", line),
    ]
    total = 0.0
    for name, work in stages:
        seconds = per_call(args.count, work, args.repeat)
        if not name.startswith(" "):
            total += seconds
        print(f"  {name:32s} {seconds * 1e6:7.2f} us", flush=True)
    print(f"  {'total (stages above)':32s} {total * 1e6:7.2f} us")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
