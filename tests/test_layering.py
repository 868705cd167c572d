"""Which Python code may import which (the module's own boundary is eslint's: vtt_module/eslint.config.js,
tests/js/layering.test.mjs).

- ``rules`` is the engine alone: it never imports ``bridge``, the module's package, the dev kit or the
  tests.
- ``bridge`` never imports the dev kit (``devkit``) nor the tests (nor their kits, which pytest puts on
  the path as bare names).
- ``devkit`` (what the tests and the scripts share) and ``scripts/`` never import the tests, nor put a
  test folder on ``sys.path``: what both need lives in ``devkit``.

Read from the source with ``ast`` (every ``import`` and ``from ... import``, at any depth, relative ones
resolved against the file's package), so an import inside a function counts as much as one at the top.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
#: The project's own top-level Python packages (a test folder of the same name, tests/bridge, is not one).
PACKAGES = {"rules", "bridge", "vtt_module", "devkit"}


def kit_names() -> set[str]:
    """Every name a file or folder under tests/ can be imported by once pytest puts tests/ and its
    folders on the path (``reportkit``, ``browserkit``, ``conftest``, ``test_d100``...), and ``tests``."""
    names = {"tests"}
    for path in TESTS.rglob("*"):
        if "node_modules" in path.parts:
            continue
        if path.suffix == ".py":
            names.add(path.stem)
        elif path.is_dir() and any(path.glob("*.py")):
            names.add(path.name)
    return names - PACKAGES


def imported(path: Path, root: Path = ROOT) -> Iterator[tuple[int, str]]:
    """Every module ``path`` (a file under ``root``) imports, absolute (line, dotted name)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = list(path.relative_to(root).parent.parts)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                if node.module:
                    yield node.lineno, ".".join([*base, node.module])
                else:  # from .. import bridge: each name is a module of that package
                    for alias in node.names:
                        yield node.lineno, ".".join([*base, alias.name])
            else:
                yield node.lineno, node.module or ""


def paths_to_tests(path: Path) -> Iterator[int]:
    """Lines of ``path`` that put a test folder on ``sys.path`` (a string or path expression naming
    ``tests`` in a ``sys.path`` insert, append, extend or slice assignment)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))

    def names_tests(node: ast.AST) -> bool:
        return any(isinstance(n, ast.Constant) and n.value in ("tests", "tests/") for n in ast.walk(node))

    def is_sys_path(node: ast.AST) -> bool:
        target = node.value if isinstance(node, ast.Subscript) else node
        return (
            isinstance(target, ast.Attribute) and target.attr == "path" and ast.unparse(target) == "sys.path"
        )

    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if is_sys_path(node.func.value) and any(names_tests(arg) for arg in node.args):
                yield node.lineno
        elif (
            isinstance(node, ast.Assign)
            and any(is_sys_path(t) for t in node.targets)
            and names_tests(node.value)
        ):
            yield node.lineno


def sources(folder: str) -> list[Path]:
    return sorted(p for p in (ROOT / folder).rglob("*.py") if "node_modules" not in p.parts)


def offences(folder: str, forbidden: set[str]) -> list[str]:
    found = []
    for path in sources(folder):
        for line, name in imported(path):
            if name.split(".")[0] in forbidden:
                found.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    return found


LAYERS = {
    "rules": {"bridge", "vtt_module", "devkit"},
    "bridge": {"devkit"},
    "devkit": set(),
    "scripts": set(),
}


@pytest.mark.parametrize("folder", sorted(LAYERS))
def test_imports_stay_in_their_layer(folder: str) -> None:
    forbidden = LAYERS[folder] | kit_names()
    assert sources(folder), f"no Python under {folder}/"
    assert offences(folder, forbidden) == []


@pytest.mark.parametrize("folder", sorted(LAYERS))
def test_no_test_folder_is_put_on_the_path(folder: str) -> None:
    found = [f"{p.relative_to(ROOT)}:{line}" for p in sources(folder) for line in paths_to_tests(p)]
    assert found == []


def test_the_scan_sees_what_it_must_refuse(tmp_path: Path) -> None:
    """The scan is not blind: each kind of import it must refuse, written into a file, is found."""
    probe = tmp_path / "rules" / "gurps" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text(
        "import sys\nfrom pathlib import Path\n"
        "def f():\n    from bridge.session import x\n    import servekit\n"
        "from ... import bridge\n"
        "sys.path.insert(0, str(Path(__file__).parent / 'tests'))\n"
        "sys.path[:0] = [str(ROOT / 'tests' / 'browser')]\n",
        encoding="utf-8",
    )
    names = [name for _, name in imported(probe, tmp_path)]
    assert sorted(names) == ["bridge", "bridge.session", "pathlib", "servekit", "sys"]
    assert {"reportkit", "browserkit", "conftest", "tests"} <= kit_names()
    assert "bridge" not in kit_names() and "devkit" not in kit_names()
    assert sorted(paths_to_tests(probe)) == [7, 8]
