"""The Foundry module as Foundry installs it: a manifest and a zip, made from the installed files.

Foundry installs a module from a manifest URL: it reads the manifest, downloads the zip named by its
``download`` field, unpacks it, and from then on checks the ``manifest`` URL of the *unpacked*
``module.json`` for updates. The bridge plays the release server (``bridge.module.server``), so both
URLs must point at the bridge, at the address Foundry reached it by, and the zip's own ``module.json``
must carry them too, or the installed module would never see an upgrade.

* The manifest is ``module.json`` with ``manifest``, ``download``, ``readme`` and ``changelog`` set to the
  bridge's address (the last two are the module's README and CHANGELOG, which the bridge serves at
  ``README_PATH`` and ``CHANGELOG_PATH``). When they already say so (the checked-in file names the
  default ``http://127.0.0.1:8765``), its bytes are served untouched.
* The zip holds exactly the files the module runs with (``RUNTIME_FOLDERS`` and ``RUNTIME_FILES``),
  no tests, tooling or sandbox page, with that manifest as its ``module.json``. It is deterministic:
  entries sorted, fixed timestamps and permissions, stored uncompressed (compressed bytes would vary
  with the zlib build), so the same version at the same address is the same bytes, on any machine.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import tempfile
import unicodedata
import urllib.parse
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "CHANGELOG_PATH",
    "DEFAULT_ORIGIN",
    "DOCUMENTS",
    "DOWNLOAD_PATH",
    "MANIFEST_PATH",
    "README_PATH",
    "RUNTIME_FILES",
    "RUNTIME_FOLDERS",
    "Release",
    "base_url",
    "runtime_files",
    "write_release",
]

#: Where the bridge serves the two, on its own address.
MANIFEST_PATH = "/module/module.json"
DOWNLOAD_PATH = "/module/volley.zip"
#: The module's README and changelog, which Foundry links to from the manifest's ``readme`` and
#: ``changelog`` fields (and a browser shows as text).
README_PATH = "/module/README.md"
CHANGELOG_PATH = "/module/CHANGELOG.md"
#: Each served document: its path under the bridge, its file in the module folder, its manifest field.
DOCUMENTS: tuple[tuple[str, str, str], ...] = (
    (README_PATH, "README.md", "readme"),
    (CHANGELOG_PATH, "CHANGELOG.md", "changelog"),
)
#: The address ``volley serve`` listens on unless told otherwise (``bridge.cli.commands``).
DEFAULT_ORIGIN = "http://127.0.0.1:8765"

#: Folders of the module Foundry loads (every file in them, at any depth).
RUNTIME_FOLDERS = ("scripts", "templates", "lang", "styles")
#: Single files at the top of the module (``module.json`` first; the others when present).
RUNTIME_FILES = ("module.json", "README.md", "CHANGELOG.md", "LICENSE")

#: The zip's fixed entry time (the earliest a zip can say), and ``rw-r--r--`` regular files.
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)
_ZIP_FILE_MODE = 0o100644 << 16
_ZIP_UNIX = 3


def runtime_files(root: Path) -> list[str]:
    """The module's runtime files under ``root``, as sorted ``/``-separated relative paths."""
    found = [name for name in RUNTIME_FILES if (root / name).is_file()]
    for folder in RUNTIME_FOLDERS:
        base = root / folder
        if base.is_dir():
            found.extend(
                path.relative_to(root).as_posix()
                for path in base.rglob("*")
                if path.is_file() and not any(part.startswith(".") for part in path.relative_to(root).parts)
            )
    return sorted(found)


@dataclass(frozen=True)
class Release:
    """The module in ``root`` as released from ``origin`` (``scheme://host[:port]``, no path)."""

    root: Path
    origin: str

    @property
    def manifest_url(self) -> str:
        return self.origin + MANIFEST_PATH

    @property
    def download_url(self) -> str:
        return self.origin + DOWNLOAD_PATH

    def manifest(self) -> bytes:
        """``module.json`` pointing at this origin (the file's own bytes when it already does)."""
        original = (self.root / "module.json").read_bytes()
        data: dict[str, Any] = json.loads(original)
        wanted = {"manifest": self.manifest_url, "download": self.download_url}
        wanted.update({field: self.origin + path for path, _, field in DOCUMENTS})
        if all(data.get(field) == url for field, url in wanted.items()):
            return original
        data.update(wanted)
        return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")

    def zip(self) -> bytes:
        """The module's runtime files, ``module.json`` replaced by ``manifest()``, deterministically."""
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as archive:
            for name in runtime_files(self.root):
                data = self.manifest() if name == "module.json" else (self.root / name).read_bytes()
                entry = zipfile.ZipInfo(name, date_time=_ZIP_TIME)
                entry.create_system = _ZIP_UNIX  # else it says "Windows" when built there
                entry.external_attr = _ZIP_FILE_MODE
                archive.writestr(entry, data)
        return buffer.getvalue()


#: A host name: letters (any script), digits, hyphens and dots.
_HOST_NAME = re.compile(r"[\w-]+(\.[\w-]+)*\.?")


def base_url(text: str) -> str:
    """``volley module-release --base-url``: an ``http(s)`` address with a host and no query or
    fragment, without its trailing ``/``. Raises ``ValueError`` saying what is wrong with it.

    Foundry and a browser will be given URLs built from it, and the terminal is shown it: a space,
    a control character or an invisible format character is refused, never passed on.
    """
    for char in text:
        if char.isspace() or unicodedata.category(char) in ("Cc", "Cf"):
            raise ValueError(f"it holds a space or a control character ({char!r})")
    try:
        parts = urllib.parse.urlsplit(text)
        port = parts.port  # a port that is not a number (or past 65535) raises here
    except ValueError as error:
        raise ValueError(str(error)) from None
    if parts.scheme.lower() not in ("http", "https"):
        raise ValueError("it must start with https:// or http://")
    host = parts.hostname or ""
    if not host:
        raise ValueError("it names no host")
    if parts.username is not None or parts.password is not None:
        raise ValueError("it must not carry a user name or password")
    if ":" not in host and not _HOST_NAME.fullmatch(host):
        raise ValueError(f"{host!r} is not a host name")
    if parts.query or parts.fragment or "?" in text or "#" in text:
        raise ValueError("it must not have a query (?) or a fragment (#)")
    if port == 0:
        raise ValueError("port 0 is not a port a web server listens on")
    return text.rstrip("/")


def write_release(out: Path, files: dict[str, bytes]) -> None:
    """Write each of ``files`` (a path under the bridge, such as ``/module/volley.zip``: its bytes)
    under ``out``, never through a link: a folder on the way that is a symbolic link is refused, and
    each file is written beside its place and renamed over it, so a link planted where a file goes is
    replaced, never followed. Raises ``OSError``."""
    for path, data in files.items():
        target = out / path.lstrip("/")
        folder = target.parent
        if folder != out:
            _refuse_links(out, folder)
        folder.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.chmod(temporary, 0o644)
            os.replace(temporary, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise


def _refuse_links(out: Path, folder: Path) -> None:
    """``OSError`` if a folder from ``out`` (exclusive) down to ``folder`` is a symbolic link."""
    for step in reversed([folder, *folder.parents]):
        if step == out or out not in step.parents:
            continue
        if step.is_symlink():
            raise OSError(f"{step} is a symbolic link; refusing to write through it")
