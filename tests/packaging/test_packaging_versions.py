"""One version for the whole release: the wheel, the bridge, the rules and the Foundry module.

Foundry's update check compares the installed module's version with the bridge's manifest, so the
module's version must move with the package's; ``volley --version`` shows all of them.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

import bridge
import bridge.module.assets
import rules
from bridge.cli import main
from bridge.module.assets import module_dir

ROOT = Path(__file__).resolve().parents[2]


def test_pyproject_rules_bridge_and_module_json_name_the_same_version() -> None:
    package = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    module = json.loads((ROOT / "vtt_module" / "module.json").read_text(encoding="utf-8"))["version"]
    found = {
        "pyproject.toml": package,
        "rules.__version__": rules.__version__,
        "bridge.__version__": bridge.__version__,
        "vtt_module/module.json": module,
    }
    assert len(set(found.values())) == 1, found


def test_version_shows_bridge_rules_and_module(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    assert stopped.value.code == 0
    v = bridge.__version__
    assert capsys.readouterr().out == f"volley {v} (bridge {v}, rules {v}, Foundry module {v})\n"


def test_version_fails_when_the_parts_disagree(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bridge.module.assets, "module_version", lambda: "0.0.1")
    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    assert stopped.value.code == 1
    out, err = capsys.readouterr()
    assert "Foundry module 0.0.1" in out
    assert "should be the same; reinstall volley" in err


def test_module_path_prints_the_folder_with_module_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["module-path"]) == 0
    printed = Path(capsys.readouterr().out.strip())
    assert printed == module_dir()
    assert (printed / "module.json").is_file()
