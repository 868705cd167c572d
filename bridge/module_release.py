"""The Foundry module as Foundry installs it: a manifest and a zip, made from the installed files.

Foundry installs a module from a manifest URL: it reads the manifest, downloads the zip named by its
``download`` field, unpacks it, and from then on checks the ``manifest`` URL of the *unpacked*
``module.json`` for updates. The bridge plays the release server (``bridge.module_server``), so both
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

import io
import json
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
    "runtime_files",
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
#: The address ``volley serve`` listens on unless told otherwise (``bridge.commands``).
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
