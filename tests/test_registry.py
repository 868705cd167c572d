"""The registry of rule systems: looked up by name, each built-in system imported on first use."""

from __future__ import annotations

import subprocess
import sys

from rules.registry import SYSTEMS, SystemRegistry


def test_get_answers_as_a_mapping_does() -> None:
    registry = SystemRegistry({"gurps": "rules.gurps"})
    assert registry.get("nope") is None
    assert registry.get("gurps") is SYSTEMS["gurps"]  # imported on first use, then kept
    assert registry.get("gurps") is registry["gurps"]
    made_up = SYSTEMS["gurps"]
    registry["made-up"] = made_up
    assert registry.get("made-up") is made_up
    del registry["made-up"]
    assert registry.get("made-up") is None


def test_get_imports_only_the_system_it_is_asked_for() -> None:
    code = (
        "import sys; from rules.registry import SYSTEMS; "
        "assert SYSTEMS.get('megatraveller') is not None; "
        "print(sorted(m for m in sys.modules if m in ('rules.gurps', 'rules.megatraveller', 'rules.d100')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['rules.megatraveller']"
