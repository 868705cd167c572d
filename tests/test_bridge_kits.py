"""One way to start a bridge in the tests, and every wait of it from one budget (issue #37).

- Only ``devkit/serve.py`` enters ``bridge.server.app.serving`` (no test serves an app of its own,
  ``create_app``, either): the kits (``bridgekit`` and the bridge
  tests' ``conftest``, ``storekit``, ``hostilekit``) start their bridges through ``devkit.serve``, and
  share its token.
- The bridge kits take their waits from ``devkit.budget.BUDGET_S``: no timeout is a bare number, so
  ``VOLLEY_TEST_SLOWDOWN`` scales every one of them.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

from devkit.serve import BUDGET_S

ROOT = Path(__file__).resolve().parents[1]
KITS = [
    "devkit/serve.py",
    "tests/bridge/bridgekit.py",
    "tests/bridge/conftest.py",
    "tests/store/storekit.py",
    "tests/hostile/hostilekit.py",
]
#: Keywords that set how long a test waits (not the bridge's own settings, ``request_timeout``...).
WAIT_KEYWORDS = {"timeout", "open_timeout", "receive_timeout"}
#: Calls whose first argument is a timeout in seconds.
TIMED_CALLS = {"timeout", "sleep", "Timer"}
#: Names a wait's length is kept under.
WAIT_NAMES = ("TIMEOUT", "WITHIN", "HANG", "BUDGET", "WAIT")


def is_number(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) in (int, float)


def fixed_waits(path: Path, root: Path = ROOT) -> list[str]:
    """Where ``path`` waits a fixed number of seconds: ``timeout=60``, ``asyncio.timeout(15)``,
    ``wait_for(x, 30)``, ``STOP_WITHIN = 15.0``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            numbers = [k.arg for k in node.keywords if k.arg in WAIT_KEYWORDS and is_number(k.value)]
            if name in TIMED_CALLS and node.args and is_number(node.args[0]):
                numbers.append(name)
            if name == "wait_for" and len(node.args) > 1 and is_number(node.args[1]):
                numbers.append(name)
            found += [f"{path.relative_to(root)}:{node.lineno} {n}" for n in numbers]
        elif isinstance(node, ast.Assign) and is_number(node.value):
            for target in node.targets:
                if isinstance(target, ast.Name) and any(w in target.id.upper() for w in WAIT_NAMES):
                    found.append(f"{path.relative_to(root)}:{node.lineno} {target.id}")
    return found


def test_only_the_dev_kit_serves_a_bridge() -> None:
    found = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.ImportFrom)
                and node.module == "bridge.server.app"
                and any(alias.name in ("serving", "create_app") for alias in node.names)
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_the_kits_share_one_token() -> None:
    found = []
    for kit in KITS[1:]:
        tree = ast.parse((ROOT / kit).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "TOKEN" for t in node.targets
            ):
                found.append(f"{kit}:{node.lineno}")
    assert found == []


def test_every_wait_of_the_kits_comes_from_the_budget() -> None:
    assert [wait for kit in KITS for wait in fixed_waits(ROOT / kit)] == []


def test_the_scan_sees_a_fixed_wait(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "STOP_WITHIN = 15.0\nasync def f(ws):\n    await ws.receive(timeout=60)\n"
        "    async with asyncio.timeout(5):\n        await asyncio.wait_for(g(), 30)\n"
        "    await ws.receive(timeout=BUDGET_S)\n",
        encoding="utf-8",
    )
    assert fixed_waits(probe, tmp_path) == [
        "probe.py:1 STOP_WITHIN",
        "probe.py:3 timeout",
        "probe.py:4 timeout",
        "probe.py:5 wait_for",
    ]


def test_a_slower_machine_gets_a_longer_budget() -> None:
    """``VOLLEY_TEST_SLOWDOWN=3``: the bridge kits' budget, and the hostile tests' stop deadline with it."""
    script = (
        "import sys; sys.path[:0] = ['.', 'tests/hostile']\n"
        "import hostilekit, devkit.serve\n"
        "print(devkit.serve.BUDGET_S, hostilekit.STOP_WITHIN)\n"
    )
    env = {**os.environ, "VOLLEY_TEST_SLOWDOWN": "3"}
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=BUDGET_S,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["180.0", "45.0"]
