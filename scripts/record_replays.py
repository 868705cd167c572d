"""Record ``tests/replays/<system>.jsonl``: a real bridge session driven with every example request.

For each system with examples in ``docs/examples/<system>/*.json`` this starts a bridge on a free
loopback port (temporary data directory, scripted dice allowed, seeds drawn as ``--seed-base`` N,
N+1, ...), sends every example over a websocket in file-name order, and copies the session journal
to ``tests/replays/<system>.jsonl``. The test suite replays those files, so a rules change that alters
an old outcome fails loudly; re-record only when the change is intended.

After the examples come the requests in ``tests/replays/requests/<system>/*.json`` (ids
``<system>/requests/<name>``): one for each action the examples do not show (reload, unjam, ready,
retarget, recover...), so every action of every system is guarded by a recording too.

An example whose ``action`` is the system's default action goes as ``attack``, any other as
``action``. For systems with two-step attacks (``TWO_STEP``) each firing example is also sent with
``"allocation": "defer"`` and then allocated (a simple split, ``devkit/allocation.py``), so the
recording covers ``pending`` and ``allocate`` too. That split is test data, not a rule: the bridge itself
knows nothing of pools.

Usage::

    .venv/bin/python scripts/record_replays.py            # every system with examples
    .venv/bin/python scripts/record_replays.py gurps d100 # just these
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

import rules
from bridge.protocol import reply_pending
from bridge.server.app import BridgeSettings, serving

ROOT = Path(__file__).resolve().parent.parent
# The split a deferred attack is allocated with is the tests' own (devkit/allocation.py).
sys.path.insert(0, str(ROOT))
from devkit.allocation import simple_allocation  # noqa: E402

EXAMPLES = ROOT / "docs" / "examples"
REPLAYS = ROOT / "tests" / "replays"
#: More requests per system, recorded after the examples: the actions the examples do not show.
REQUESTS = REPLAYS / "requests"
#: Seeds of a recording start here, so re-recording an unchanged system gives the same dice.
SEED_BASE = 20_261_129
TOKEN = "recording"
#: Systems whose firing requests accept ``"allocation": "defer"`` (the two-step attack).
TWO_STEP = {"megatraveller"}


async def two_step(ws: Any, example: str, path: Path, request: dict[str, Any]) -> int:
    """Send the deferred copy of a firing example and allocate it; how many requests were recorded."""
    id = f"{example}/defer"
    await ws.send(json.dumps({"type": "attack", "id": id, "request": {**request, "allocation": "defer"}}))
    reply = json.loads(await ws.recv())
    if reply["type"] != "pending":
        print(f"  {path.name} deferred: {reply['type']} ({reply.get('message', '')})")
        return 1 if reply["type"] == "result" else 0
    allocation = simple_allocation(reply_pending(reply), len(request.get("targets", [])))
    message = {"type": "allocate", "id": f"{id}/allocate", "pending_id": id, "allocation": allocation}
    await ws.send(json.dumps(message))
    answer = json.loads(await ws.recv())
    outcome = answer["type"] if answer["type"] != "error" else f"error: {answer['path']}: {answer['message']}"
    print(f"  {path.name} deferred: pending {reply_pending(reply)} -> allocate {allocation}: {outcome}")
    return 2 if answer["type"] == "result" else 1


async def record(system: str, examples: list[tuple[str, Path]], out: Path) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        settings = BridgeSettings(token=TOKEN, data_dir=data, allow_scripted_dice=True, seed_base=SEED_BASE)
        recorded = 0
        # Served as volley serve serves (bridge.server.app.serving); leaving the block flushes the journal.
        async with serving(settings, "127.0.0.1", 0) as served, connect(served.url) as ws:
            await ws.send(json.dumps({"type": "hello", "token": TOKEN, "client": "record_replays"}))
            json.loads(await ws.recv())
            default = rules.SYSTEMS[system].default_action
            for id, path in examples:
                request = json.loads(path.read_text(encoding="utf-8"))
                kind = "attack" if request.get("action", default) == default else "action"
                message = {"type": kind, "id": id, "request": request}
                await ws.send(json.dumps(message))
                reply = json.loads(await ws.recv())
                if reply["type"] == "error":
                    print(f"  {path.name}: refused ({reply['code']} at {reply['path']}: {reply['message']})")
                    continue
                recorded += 1
                print(f"  {path.name}: {reply['type']}")
                if system in TWO_STEP and kind == "attack":
                    recorded += await two_step(ws, id, path, request)
        (journal,) = (data / "sessions").glob("*.jsonl")
        shutil.copyfile(journal, out)
    return recorded


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("systems", nargs="*", help="systems to record (default: every one with examples)")
    args = parser.parse_args(argv)
    systems = args.systems or sorted(
        path.name for path in EXAMPLES.iterdir() if path.is_dir() and any(path.glob("*.json"))
    )
    REPLAYS.mkdir(parents=True, exist_ok=True)
    status = 0
    for system in systems:
        if system not in rules.SYSTEMS:
            print(f"{system}: not a registered system; skipped", file=sys.stderr)
            status = 1
            continue
        examples = [(f"{system}/{path.stem}", path) for path in sorted((EXAMPLES / system).glob("*.json"))]
        examples += [
            (f"{system}/requests/{path.stem}", path) for path in sorted((REQUESTS / system).glob("*.json"))
        ]
        if not examples:
            print(f"{system}: no examples in {EXAMPLES / system}; skipped", file=sys.stderr)
            status = 1
            continue
        out = REPLAYS / f"{system}.jsonl"
        print(f"{system}: {len(examples)} examples and requests")
        count = asyncio.run(record(system, examples, out))
        print(f"{system}: {count} requests recorded in {out.relative_to(ROOT)}")
    return status


if __name__ == "__main__":
    sys.exit(main())
