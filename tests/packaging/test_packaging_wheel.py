"""The wheel as a referee gets it: built, installed into a fresh venv far from the checkout, and run.

``python -m build`` makes the sdist and, from it, ``volley-<version>-py3-none-any.whl`` in a temporary
copy of the repository (so nothing is written into the checkout). The wheel goes into a new venv; its
``volley serve`` is started from a temporary directory, and Foundry's two requests are made against
it: the manifest must name the bridge's own address, and the zip must hold the module's files byte for
byte, the same bytes as a zip built here from the checkout. pip's cache is reused, so this takes a few
seconds, not a download of the world.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import subprocess
import sys
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import bridge
from bridge.module.release import (
    CHANGELOG_PATH,
    DOWNLOAD_PATH,
    MANIFEST_PATH,
    README_PATH,
    Release,
    runtime_files,
)

ROOT = Path(__file__).resolve().parents[2]
CHECKOUT_MODULE = ROOT / "vtt_module"
WHEEL = f"volley-{bridge.__version__}-py3-none-any.whl"
#: Left out of the copy the wheel is built from: what the build must not need (and must not ship).
NOT_SOURCE = shutil.ignore_patterns(
    ".git", ".venv", "node_modules", "__pycache__", ".*_cache", ".hypothesis", "build", "dist", "*.egg-info"
)
#: Files dropped into the copy before building: whatever lands in these folders must ship in the wheel.
PROBES = {
    "vtt_module/sandbox/packaging-probe.html": b"<!doctype html><title>probe</title>\n",
    "vtt_module/sandbox/nested/packaging-probe.js": b"export const probe = 1;\n",
    "bridge/locale/packaging-probe.en.json": b"{}\n",
}
#: Dev tooling in the module folder that neither the wheel nor the zip may carry.
DEV_TOOLING = ("node_modules", "tools/", "types/", "package.json", "package-lock.json", "eslint", "jsconfig")


def _run(*command: str | Path, cwd: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VOLLEY_TOKEN", "VIRTUAL_ENV")}
    result = subprocess.run(
        [str(part) for part in command], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, (
        f"{command} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
    )
    return result.stdout


@dataclass(frozen=True)
class Installed:
    wheel: Path
    venv: Path
    outside: Path  # a working directory with no checkout in sight

    @property
    def volley(self) -> Path:
        return self.venv / "bin" / "volley"

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    for name, data in PROBES.items():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_bytes(data)
    _run(sys.executable, "-m", "build", "--outdir", work / "dist", source, cwd=work)
    wheel = work / "dist" / WHEEL
    assert wheel.is_file(), sorted(path.name for path in (work / "dist").iterdir())

    venv = work / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=work)
    # --no-compile: pip would byte-compile every file of SciPy and matplotlib (two thirds of the install's
    # CPU); Python compiles the few modules these tests import when they are first imported instead.
    pip = (sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install", "-q", "--no-compile")
    _run(*pip, wheel, cwd=work)
    outside = work / "elsewhere"
    outside.mkdir()
    return Installed(wheel, venv, outside)


def test_one_wheel_holds_bridge_rules_module_locale_and_sandbox(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = set(wheel.namelist())
        module_files = {
            name.removeprefix("bridge/foundry_module/"): wheel.read(name)
            for name in names
            if name.startswith("bridge/foundry_module/")
        }
    python_files = {
        path.relative_to(ROOT).as_posix()
        for package in ("rules", "bridge")
        for path in (ROOT / package).rglob("*.py")
        if "__pycache__" not in path.parts
    }
    assert python_files <= names, sorted(python_files - names)
    assert {"rules/py.typed", "bridge/py.typed", "bridge/locale/packaging-probe.en.json"} <= names
    assert not any(name.startswith(("vtt_module/", "tests/", "scripts/")) for name in names)

    for name in runtime_files(CHECKOUT_MODULE):  # the module's runtime files, byte for byte
        assert module_files.pop(name) == (CHECKOUT_MODULE / name).read_bytes(), name
    assert (
        module_files.pop("sandbox/packaging-probe.html") == PROBES["vtt_module/sandbox/packaging-probe.html"]
    )
    assert (
        module_files.pop("sandbox/nested/packaging-probe.js")
        == PROBES["vtt_module/sandbox/nested/packaging-probe.js"]
    )
    module_files.pop("__init__.py")
    # What is left is the checkout's own sandbox page, if it has one yet; never dev tooling.
    assert all(name.startswith("sandbox/") for name in module_files), sorted(module_files)
    for name, content in module_files.items():
        assert content == (CHECKOUT_MODULE / name).read_bytes(), name
    assert not [name for name in names if any(tool in name for tool in DEV_TOOLING)]


def test_the_installed_volley_runs_from_the_wheel_not_the_checkout(installed: Installed) -> None:
    version = bridge.__version__
    assert _run(installed.volley, "--version", cwd=installed.outside) == (
        f"volley {version} (bridge {version}, rules {version}, Foundry module {version})\n"
    )
    module_path = Path(_run(installed.volley, "module-path", cwd=installed.outside).strip())
    site = Path(
        _run(
            installed.python,
            "-c",
            "import sysconfig; print(sysconfig.get_path('purelib'))",
            cwd=installed.outside,
        ).strip()
    )
    assert module_path == site / "bridge" / "foundry_module"
    located = _run(
        installed.python,
        "-c",
        "import bridge, rules; print(bridge.__file__); print(rules.__file__)",
        cwd=installed.outside,
    )
    for path in located.split():
        assert Path(path).is_relative_to(site), path


def test_the_readme_install_gives_a_working_session_report(installed: Installed) -> None:
    """The README installs the wheel alone (``pipx install volley-….whl``: a venv of its own, the wheel
    and its dependencies, no extras). ``volley report`` on a recorded session must then work: the
    charts (matplotlib) and the fairness tests (SciPy) come with the wheel."""
    journal = installed.outside / "gurps-session.jsonl"
    journal.write_bytes((ROOT / "tests" / "replays" / "gurps.jsonl").read_bytes())
    page = installed.outside / "report.html"
    data = installed.outside / "data"
    out = _run(
        installed.volley,
        "report",
        journal,
        "-o",
        page,
        "--data-dir",
        data,
        "--lang",
        "en",
        cwd=installed.outside,
    )
    assert out.strip() == str(page)
    html = page.read_text(encoding="utf-8")
    assert "<svg" in html, "no chart: matplotlib did not draw"
    assert "chi" in html.lower() or "χ²" in html, "no dice-fairness test: SciPy did not run"
    requires = _run(
        installed.python,
        "-c",
        "from importlib.metadata import requires; print('\\n'.join(requires('volley')))",
        cwd=installed.outside,
    ).splitlines()
    plain = [line for line in requires if "extra ==" not in line]
    assert any(line.startswith("matplotlib") for line in plain), requires
    assert any(line.startswith("scipy") for line in plain), requires


@pytest.fixture(scope="module")
def served(installed: Installed, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``volley serve`` from the installed wheel, on a free port; yields its ``http://host:port``."""
    state = tmp_path_factory.mktemp("served")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VOLLEY_TOKEN", "VIRTUAL_ENV")}
    env["PYTHONUNBUFFERED"] = "1"
    command = [str(installed.volley), "serve", "--port", "0", "--token", "wheel-test-token"]
    command += ["--data-dir", str(state / "data"), "--config-dir", str(state / "config")]
    process = subprocess.Popen(
        command, cwd=installed.outside, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        origin = ""
        for line in process.stdout:
            if "listening on ws://" in line:
                origin = "http://" + line.split("listening on ws://", 1)[1].strip().removesuffix("/ws")
                break
        assert origin, f"volley serve did not start: {process.communicate(timeout=10)}"
        yield origin
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=15)
    assert process.returncode == 0, err


def _fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200
        data: bytes = response.read()
        return data


def test_the_installed_bridge_serves_the_manifest_with_its_own_address(served: str) -> None:
    manifest = json.loads(_fetch(served + MANIFEST_PATH))
    assert manifest["manifest"] == served + MANIFEST_PATH
    assert manifest["download"] == served + DOWNLOAD_PATH
    assert manifest["version"] == bridge.__version__
    assert manifest["id"] == "volley"


def test_the_installed_bridge_serves_the_module_s_files_in_a_deterministic_zip(served: str) -> None:
    data = _fetch(served + DOWNLOAD_PATH)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    assert sorted(files) == runtime_files(CHECKOUT_MODULE)
    inside = json.loads(files.pop("module.json"))
    checkout = json.loads((CHECKOUT_MODULE / "module.json").read_bytes())
    assert inside == {
        **checkout,
        "manifest": served + MANIFEST_PATH,
        "download": served + DOWNLOAD_PATH,
        "readme": served + README_PATH,
        "changelog": served + CHANGELOG_PATH,
    }
    # The README and the changelog the manifest names, from the installed wheel.
    assert _fetch(inside["readme"]) == (CHECKOUT_MODULE / "README.md").read_bytes()
    assert _fetch(inside["changelog"]) == (CHECKOUT_MODULE / "CHANGELOG.md").read_bytes()
    for name, content in files.items():
        assert content == (CHECKOUT_MODULE / name).read_bytes(), name
    # Built again, by the installed bridge and here from the checkout's files: the same bytes.
    assert _fetch(served + DOWNLOAD_PATH) == data
    assert Release(CHECKOUT_MODULE, served).zip() == data
