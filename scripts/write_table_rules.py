"""Write the module's copy of the table-rules declaration from the rules engine's own.

The rules engine declares every reading a table may change (``rules.table_rules``, one table per
system). The Foundry module cannot import Python, so it reads a generated ES module,
``vtt_module/scripts/table-rules/readings.js``; ``tests/test_table_rules.py`` fails when that file
and the engine's table disagree. Run after changing a system's ``table_rules.py``::

    .venv/bin/python scripts/write_table_rules.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET = ROOT / "vtt_module" / "scripts" / "table-rules" / "readings.js"


def module_text() -> str:
    """The generated file's text."""
    from rules.registry import SYSTEMS
    from rules.table_rules import export

    body = json.dumps(export(), ensure_ascii=False, indent=2)
    actions = json.dumps({name: SYSTEMS[name].default_action for name in sorted(SYSTEMS)}, indent=2)
    return (
        "/**\n"
        " * Every reading a table may change, per rule system: written by scripts/write_table_rules.py\n"
        " * from the rules engine's declaration (rules/<system>/table_rules.py). Do not edit by hand;\n"
        " * tests/test_table_rules.py fails when the two disagree.\n"
        " *\n"
        ' * @typedef {{field: string, owner: "rules" | "module",\n'
        ' *   kind: "choice" | "integer" | "boolean" | "bands", default: any, reading: string,\n'
        " *   actions: string[], choices?: (string | number)[], minimum?: number, maximum?: number,\n"
        " *   members?: string[]}} Reading\n"
        " */\n\n"
        "/** @type {Readonly<Record<string, Reading[]>>} */\n"
        f"export const READINGS = Object.freeze({body});\n\n"
        "/** The action a request that names none is (``RuleSystem.default_action``). */\n"
        f"export const DEFAULT_ACTIONS = Object.freeze({actions});\n"
    )


def main() -> int:
    TARGET.write_text(module_text(), encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
