"""Files the bridge serves or reads that are not Python: the Foundry module and its message catalogues.

Every path goes through here so that an installed wheel and a repository checkout find them the same
way. The Foundry module's folder is the package ``bridge.foundry_module`` (``setup.py`` maps
``vtt_module/`` onto that name): in a wheel it is package data inside ``bridge/``, in an editable
install (``scripts/setup``) the import system maps it onto the live checkout. Either way the path
comes from the import system, never from walking up from this file into a repository.
"""

from __future__ import annotations

import json
from pathlib import Path

__all__ = ["MODULE_PACKAGE", "ModuleMissing", "module_dir", "module_version"]

#: The package name the Foundry module's folder is installed under.
MODULE_PACKAGE = "bridge.foundry_module"


class ModuleMissing(RuntimeError):
    """The Foundry module's files are not installed alongside the bridge (a broken install)."""


def module_dir() -> Path:
    """The Foundry module's folder (``module.json``, ``scripts/``, ``lang/``, ``templates/``...)."""
    # Imported here: importlib.resources pulls in tempfile, shutil and the compressors, which a
    # command that never looks at the module's files (``volley replay``, ``volley show``) should not pay.
    from importlib import resources

    try:
        root = resources.files(MODULE_PACKAGE)
    except ModuleNotFoundError:
        raise ModuleMissing(
            f"the Foundry module ({MODULE_PACKAGE}) is not installed with the bridge; reinstall volley"
        ) from None
    # Installed by pip, the package is a folder on disk (not inside a zip), so this is a real path.
    path = Path(str(root))
    if not (path / "module.json").is_file():
        raise ModuleMissing(f"{path} holds no module.json; reinstall volley")
    return path


def module_version() -> str:
    """The version in the installed module's ``module.json`` (what Foundry's update check compares)."""
    manifest = json.loads((module_dir() / "module.json").read_text(encoding="utf-8"))
    version = manifest.get("version") if isinstance(manifest, dict) else None
    if not isinstance(version, str):
        raise ModuleMissing(f"{module_dir() / 'module.json'} has no version")
    return version
