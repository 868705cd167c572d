"""The accessibility check the browser tests share: axe-core, injected into the page, over the module's
own elements, for the WCAG 2.0 and 2.1 A and AA rules.

One call per thing a user sees::

    assert_no_axe_violations(page, ".volley-attack-dialog")

``page`` is a Playwright ``Page`` or ``Frame`` (the sandbox's player view is a frame); ``selector`` is
CSS for the elements to check, each with everything inside it (a list of selectors checks them all at
once). The selector must match something, so a check never passes by looking at nothing. The checker
is the ``axe-core`` package from ``vtt_module/node_modules`` (a devDependency, installed by ``npm ci``);
a missing file fails the test, it never skips it.

Only the WCAG-tagged rules run: the "best-practice" ones judge a whole page's structure (one main
landmark, a level-one heading), which is the VTT's page, not the module's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from browserkit import ROOT

AXE_SOURCE = ROOT / "vtt_module" / "node_modules" / "axe-core" / "axe.min.js"

#: WCAG 2.0 and 2.1, levels A and AA.
WCAG_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")

_RUN = """async ({selectors, tags}) => {
  const missing = selectors.filter((selector) => document.querySelector(selector) === null);
  if (missing.length) return {missing};
  const results = await axe.run(
    {include: selectors.map((selector) => [selector])},
    {runOnly: {type: "tag", values: tags}, resultTypes: ["violations", "passes"]},
  );
  const nodes = (rule) => rule.nodes.map((node) => ({
    target: node.target.join(" "), html: node.html.slice(0, 300), summary: node.failureSummary ?? "",
  }));
  return {
    violations: results.violations.map((rule) => ({
      id: rule.id, impact: rule.impact, help: rule.help, nodes: nodes(rule),
    })),
    passed: Object.fromEntries(results.passes.map((rule) => [rule.id, rule.nodes.length])),
  };
}"""


@dataclass(frozen=True)
class AxeReport:
    """What a clean check looked at: each rule that passed and on how many elements."""

    passed: dict[str, int]


def axe_source() -> str:
    if not AXE_SOURCE.is_file():
        pytest.fail(f"{AXE_SOURCE} is missing: cd vtt_module && npm ci (axe-core is a devDependency)")
    return AXE_SOURCE.read_text(encoding="utf-8")


def inject_axe(page: Any) -> None:
    """Put axe-core into the page (or frame) once; a reload needs it again."""
    if not page.evaluate("typeof window.axe === 'object' && typeof window.axe.run === 'function'"):
        page.add_script_tag(content=axe_source())


def axe_violations(page: Any, selector: str | list[str]) -> tuple[list[dict[str, Any]], AxeReport]:
    """Run the WCAG rules over ``selector``; the violations found, and what passed."""
    selectors = [selector] if isinstance(selector, str) else list(selector)
    inject_axe(page)
    result = page.evaluate(_RUN, {"selectors": selectors, "tags": list(WCAG_TAGS)})
    if "missing" in result:
        pytest.fail(f"accessibility check: nothing on the page matches {result['missing']}")
    return result["violations"], AxeReport(passed=result["passed"])


def describe(violations: list[dict[str, Any]]) -> str:
    lines = []
    for rule in violations:
        lines.append(f"{rule['id']} ({rule['impact']}): {rule['help']}")
        for node in rule["nodes"]:
            lines.append(f"    {node['target']}\n      {node['html']}")
            lines.extend(f"      {line}" for line in node["summary"].splitlines())
    return "\n".join(lines)


def assert_no_axe_violations(page: Any, selector: str | list[str], *, what: str = "") -> AxeReport:
    """Fail with every violation axe-core finds in ``selector`` (each rule, element and reason)."""
    violations, report = axe_violations(page, selector)
    if violations:
        pytest.fail(f"accessibility ({what or selector}):\n{describe(violations)}", pytrace=False)
    return report
