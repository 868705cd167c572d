"""The Foundry module as the bridge releases it: which files, which manifest URLs, the same bytes twice.

Foundry installs from ``/module/module.json``, downloads ``/module/volley.zip``, and later checks the
``manifest`` URL inside the unpacked ``module.json`` for updates; all of it must name the bridge.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import posixpath
import re
import shutil
import zipfile
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

import bridge
from bridge.module.assets import module_dir
from bridge.module.release import (
    CHANGELOG_PATH,
    DEFAULT_ORIGIN,
    DOWNLOAD_PATH,
    MANIFEST_PATH,
    README_PATH,
    Release,
    runtime_files,
)

ORIGIN = "http://localhost:9123"
#: What a module folder holds besides the runtime files: none of it may reach Foundry.
DEV_ONLY = (
    "node_modules/eslint/index.js",
    "tools/install-foundry-types.mjs",
    "types/foundry.d.ts",
    "package.json",
    "package-lock.json",
    "eslint.config.js",
    "jsconfig.json",
    "sandbox/index.html",
    "sandbox/sandbox.js",
    "__init__.py",
    "scripts/.eslintrc.json",
    "styles/.DS_Store",
)
RUNTIME = (
    "module.json",
    "README.md",
    "LICENSE",
    "scripts/volley.js",
    "scripts/adapters/index.js",
    "templates/chat-card.hbs",
    "lang/en.json",
    "styles/volley.css",
)


def _module_tree(root: Path, names: tuple[str, ...]) -> Path:
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b'{"version": "9.9.9"}\n' if name == "module.json" else name.encode())
    return root


def _zip_files(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


def test_only_the_runtime_files_are_released(tmp_path: Path) -> None:
    root = _module_tree(tmp_path, RUNTIME + DEV_ONLY)
    assert runtime_files(root) == sorted(RUNTIME)
    assert sorted(_zip_files(Release(root, ORIGIN).zip())) == sorted(RUNTIME)


def test_the_real_module_releases_its_scripts_templates_languages_and_styles() -> None:
    names = runtime_files(module_dir())
    assert {"module.json", "README.md", "LICENSE", "scripts/volley.js", "styles/volley.css"} <= set(names)
    manifest = json.loads((module_dir() / "module.json").read_text(encoding="utf-8"))
    for listed in [
        *manifest["esmodules"],
        *manifest["styles"],
        *(lang["path"] for lang in manifest["languages"]),
    ]:
        assert listed in names, f"module.json lists {listed}, the release lacks it"
    top_folders = {name.split("/")[0] for name in names if "/" in name}
    assert top_folders <= {"scripts", "templates", "lang", "styles"}


def test_every_script_the_module_imports_is_released() -> None:
    """A script's relative imports (the vendored @noble/hashes' among them) name files the release holds:
    a module whose import fails to load never starts in Foundry."""
    names = set(runtime_files(module_dir()))
    missing = []
    relative = re.compile(r"""^\s*(?:import|export)\b[^"';]*?from\s+["'](\.{1,2}/[^"']+)["']""", re.M)
    for name in sorted(n for n in names if n.endswith(".js")):
        text = (module_dir() / name).read_text(encoding="utf-8")
        for target in relative.findall(text):
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(name), target))
            if resolved not in names:
                missing.append(f"{name} imports {target}")
    assert missing == []
    assert "scripts/vendor/noble-hashes/LICENSE" in names


def test_the_manifest_declares_foundry_13_and_the_v14_build_volley_was_checked_against() -> None:
    """Volley runs on Foundry 13 and 14 (issue #32): minimum 13, verified the v14 build its stand-in
    models (foundry-vtt-types 14.366, GGA 0.18.22's verified build too)."""
    manifest = json.loads((module_dir() / "module.json").read_text(encoding="utf-8"))
    assert manifest["compatibility"] == {"minimum": "13", "verified": "14.366"}


def test_the_manifest_points_at_the_bridge_it_came_from() -> None:
    served = json.loads(Release(module_dir(), ORIGIN).manifest())
    assert served["manifest"] == f"{ORIGIN}{MANIFEST_PATH}"
    assert served["download"] == f"{ORIGIN}{DOWNLOAD_PATH}"
    assert served["readme"] == f"{ORIGIN}{README_PATH}"
    assert served["changelog"] == f"{ORIGIN}{CHANGELOG_PATH}"
    checked_in = json.loads((module_dir() / "module.json").read_text(encoding="utf-8"))
    urls = ("manifest", "download", "readme", "changelog")
    assert {k: v for k, v in served.items() if k not in urls} == {
        k: v for k, v in checked_in.items() if k not in urls
    }


def test_the_checked_in_manifest_names_the_default_bridge_and_is_served_untouched_there() -> None:
    """A module copied by hand (``volley module-path``) still finds its updates at the default bridge."""
    original = (module_dir() / "module.json").read_bytes()
    checked_in = json.loads(original)
    assert checked_in["manifest"] == DEFAULT_ORIGIN + MANIFEST_PATH
    assert checked_in["download"] == DEFAULT_ORIGIN + DOWNLOAD_PATH
    assert checked_in["readme"] == DEFAULT_ORIGIN + README_PATH
    assert checked_in["changelog"] == DEFAULT_ORIGIN + CHANGELOG_PATH
    release = Release(module_dir(), DEFAULT_ORIGIN)
    assert release.manifest() == original
    assert _zip_files(release.zip())["module.json"] == original


def test_the_zip_holds_the_module_s_bytes_and_the_served_manifest() -> None:
    release = Release(module_dir(), ORIGIN)
    files = _zip_files(release.zip())
    assert files.pop("module.json") == release.manifest()
    for name, data in files.items():
        assert data == (module_dir() / name).read_bytes(), name


def test_the_same_files_make_the_same_zip_whenever_and_wherever_they_were_written(tmp_path: Path) -> None:
    """Copied in reverse order with other timestamps and modes, the module still zips to the same bytes."""
    names = runtime_files(module_dir())
    for age, name in enumerate(reversed(names)):
        copy = tmp_path / name
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(module_dir() / name, copy)
        os.utime(copy, (1_000_000_000 + age, 1_000_000_000 + age))
        copy.chmod(0o755 if age % 2 else 0o600)
    first = Release(module_dir(), ORIGIN).zip()
    assert Release(tmp_path, ORIGIN).zip() == first
    assert Release(module_dir(), ORIGIN).zip() == first
    with zipfile.ZipFile(io.BytesIO(first)) as archive:
        infos = archive.infolist()
    assert [info.filename for info in infos] == sorted(info.filename for info in infos)
    assert {(info.date_time, info.external_attr >> 16, info.compress_type) for info in infos} == {
        ((1980, 1, 1, 0, 0, 0), 0o100644, zipfile.ZIP_STORED)
    }


# --- over HTTP ----------------------------------------------------------------------------------


def _origin(client: TestClient[Any, Any]) -> str:
    return f"http://{client.server.host}:{client.server.port}"


@pytest.mark.asyncio
async def test_foundry_gets_manifest_and_zip_without_a_token(module_client: TestClient[Any, Any]) -> None:
    origin = _origin(module_client)
    response = await module_client.get(MANIFEST_PATH)
    assert response.status == 200
    assert response.content_type == "application/json"
    assert response.headers["Cache-Control"] == "no-cache"
    manifest = json.loads(await response.read())
    assert (manifest["manifest"], manifest["download"]) == (origin + MANIFEST_PATH, origin + DOWNLOAD_PATH)
    assert manifest["version"] == bridge.__version__

    download = await module_client.get(DOWNLOAD_PATH)
    assert download.status == 200
    assert download.content_type == "application/zip"
    assert f'filename="volley-{bridge.__version__}.zip"' in download.headers["Content-Disposition"]
    assert await download.read() == Release(module_dir(), origin).zip()
    assert (await module_client.head(DOWNLOAD_PATH)).status == 200


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "host",
    ["localhost:8765", "127.0.0.1:30000", "[::1]:8765", "localhost", "volley.lan"],
    ids=["name", "ip", "ipv6", "no-port", "lan name"],
)
async def test_the_urls_name_the_address_foundry_used(
    module_client: TestClient[Any, Any], remote_module_client: TestClient[Any, Any], host: str
) -> None:
    # A name that is not loopback reaches the bridge only when it was started with --allow-remote.
    client = module_client if host != "volley.lan" else remote_module_client
    response = await client.get(MANIFEST_PATH, headers={"Host": host})
    manifest = json.loads(await response.read())
    assert manifest["manifest"] == f"http://{host}{MANIFEST_PATH}"
    assert manifest["download"] == f"http://{host}{DOWNLOAD_PATH}"
    download = await client.get(DOWNLOAD_PATH, headers={"Host": host})
    inside = json.loads(_zip_files(await download.read())["module.json"])
    assert inside["manifest"] == manifest["manifest"]  # what Foundry's update check will ask


@pytest.mark.asyncio
async def test_a_name_that_is_not_loopback_is_refused_without_allow_remote(
    module_client: TestClient[Any, Any],
) -> None:
    response = await module_client.get(MANIFEST_PATH, headers={"Host": "volley.lan"})
    assert response.status == 403


@pytest.mark.asyncio
@pytest.mark.parametrize("host", ['evil"host', "a b:80", "host/path", "host:99999", "user@host:1"])
async def test_a_host_header_that_is_not_host_and_port_is_refused_not_echoed(
    remote_module_client: TestClient[Any, Any], host: str
) -> None:
    # Without --allow-remote the door refuses these first (403); with it, the module routes do (400).
    response = await remote_module_client.get(MANIFEST_PATH, headers={"Host": host})
    assert response.status == 400
    assert host not in await response.text()


@pytest.mark.asyncio
async def test_a_request_without_host_is_refused(module_client: TestClient[Any, Any]) -> None:
    reader, writer = await asyncio.open_connection(module_client.server.host, module_client.server.port)
    writer.write(f"GET {MANIFEST_PATH} HTTP/1.0\r\n\r\n".encode())
    await writer.drain()
    status_line = await reader.readline()
    writer.close()
    await writer.wait_closed()
    assert status_line.split()[1] == b"400"


@pytest.mark.asyncio
@pytest.mark.parametrize(
    "path", ["/module/", "/module", "/module/module.json/", "/module/LICENSE", "/module/scripts/volley.js"]
)
async def test_nothing_else_is_served_under_module(module_client: TestClient[Any, Any], path: str) -> None:
    assert (await module_client.get(path, allow_redirects=False)).status == 404


@pytest.mark.asyncio
async def test_the_readme_and_changelog_the_manifest_names_are_served(
    module_client: TestClient[Any, Any],
) -> None:
    """Foundry links to the manifest's ``readme`` and ``changelog``: both answer, at the bridge Foundry
    reached, with the module's own files, and are in the zip too."""
    manifest = json.loads(await (await module_client.get(MANIFEST_PATH)).read())
    origin = _origin(module_client)
    zipped = _zip_files(await (await module_client.get(DOWNLOAD_PATH)).read())
    for field, name in (("readme", "README.md"), ("changelog", "CHANGELOG.md")):
        assert manifest[field].startswith(origin + "/module/"), manifest[field]
        response = await module_client.get(manifest[field].removeprefix(origin))
        assert response.status == 200 and response.content_type == "text/markdown"
        assert response.charset == "utf-8"
        assert await response.read() == (module_dir() / name).read_bytes() == zipped[name]


def test_the_changelog_has_a_section_per_version_newest_first() -> None:
    import re

    text = (module_dir() / "CHANGELOG.md").read_text(encoding="utf-8")
    sections = re.findall(r"^## (.+)$", text, flags=re.MULTILINE)
    released = [heading.split()[0] for heading in sections if heading != "Unreleased"]
    assert sections[0] == "Unreleased" or sections[0].split()[0] == bridge.__version__, sections
    assert "Unreleased" not in sections[1:], "Unreleased comes first, once"
    assert bridge.__version__ in released, f"no section for the version being released: {sections}"
    numbers = [tuple(int(part) for part in version.split(".")) for version in released]
    assert numbers == sorted(numbers, reverse=True) and len(set(numbers)) == len(numbers), released


def test_module_release_writes_the_files_a_web_server_serves_for_a_hosted_foundry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``volley module-release``: what the bridge serves under /module/, addressed from the base URL."""
    from bridge.cli import main

    base = "https://files.example.org/volley"
    assert main(["module-release", "--base-url", base + "/", str(tmp_path / "site")]) == 0
    assert f"Manifest URL: {base}{MANIFEST_PATH}" in capsys.readouterr().out
    written = tmp_path / "site" / "module"
    assert sorted(path.name for path in written.iterdir()) == [
        "CHANGELOG.md",
        "README.md",
        "module.json",
        "volley.zip",
    ]
    release = Release(module_dir(), base)
    assert (written / "module.json").read_bytes() == release.manifest()
    assert (written / "volley.zip").read_bytes() == release.zip()
    manifest = json.loads(release.manifest())
    for field, path in (
        ("manifest", MANIFEST_PATH),
        ("download", DOWNLOAD_PATH),
        ("readme", README_PATH),
        ("changelog", CHANGELOG_PATH),
    ):
        assert manifest[field] == base + path
        assert (tmp_path / "site" / path.lstrip("/")).is_file()
    assert json.loads(_zip_files(release.zip())["module.json"])["manifest"] == base + MANIFEST_PATH


@pytest.mark.parametrize("base", ["example.org/volley", "ftp://example.org", "https://example.org/?x=1"])
def test_module_release_refuses_a_base_that_is_not_a_web_address(
    tmp_path: Path, base: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from bridge.cli import main

    assert main(["module-release", "--base-url", base, str(tmp_path / "site")]) == 2
    assert "--base-url" in capsys.readouterr().err
    assert not (tmp_path / "site").exists()
