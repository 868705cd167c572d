"""``volley module-path``, ``volley module-release`` and ``volley --version``: where the Foundry module
is, the module as files to put on a web server, and which versions run.

The referee installs the module from the bridge (``/module/module.json``); ``module-path`` is for
copying it by hand instead (into Foundry's ``Data/modules/volley``). A Foundry served from elsewhere
(The Forge, a Docker host, a friend's server) cannot reach the bridge on the referee's machine:
``module-release --base-url URL DIR`` writes the manifest, the zip, the README and the changelog into
``DIR/module/``, their URLs under ``URL``, for any web server that Foundry's server can reach.
``--version`` shows the bridge, the rules and the installed module side by side: they are released
together and must agree, or the install is broken (exit 1). Imports stay inside the functions, so
``volley odds`` starts fast.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, NoReturn

__all__ = ["ShowVersions", "cmd_module_path", "cmd_module_release", "register", "versions"]


def versions() -> dict[str, str]:
    """The version of each part of this install: bridge, rules and the Foundry module."""
    import bridge
    import rules
    from bridge.module.assets import module_version

    return {"bridge": bridge.__version__, "rules": rules.__version__, "Foundry module": module_version()}


class ShowVersions(argparse.Action):
    """``--version``: print every part's version; exit 1 when they disagree."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        kwargs.setdefault("help", "show the bridge, rules and Foundry module versions, and exit")
        super().__init__(option_strings, dest=dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> NoReturn:
        found = versions()
        parts = ", ".join(f"{part} {version}" for part, version in found.items())
        print(f"volley {found['bridge']} ({parts})")
        if len(set(found.values())) > 1:
            parser.exit(1, "volley: these versions should be the same; reinstall volley\n")
        parser.exit(0)


def cmd_module_path(args: argparse.Namespace) -> int:
    from bridge.module.assets import module_dir

    print(module_dir())
    return 0


def cmd_module_release(args: argparse.Namespace) -> int:
    """Write what the bridge serves under ``/module/`` as files, addressed from ``--base-url``."""
    import sys
    from pathlib import Path

    from bridge.cli.inert import inert
    from bridge.module.assets import module_dir
    from bridge.module.release import (
        DOCUMENTS,
        DOWNLOAD_PATH,
        MANIFEST_PATH,
        Release,
        base_url,
        write_release,
    )

    try:
        base = base_url(str(args.base_url))
    except ValueError as why:
        shown = inert(f"{args.base_url}: {why}")  # the terminal shows what was typed, never obeys it
        print(f"volley module-release: --base-url: not an http(s) address: {shown}", file=sys.stderr)
        return 2
    release = Release(module_dir(), base)
    out = Path(args.directory)
    files = {MANIFEST_PATH: release.manifest(), DOWNLOAD_PATH: release.zip()}
    files.update({path: (module_dir() / name).read_bytes() for path, name, _ in DOCUMENTS})
    try:
        write_release(out, files)
    except OSError as error:
        reason = inert(str(error.strerror or error))
        print(f"volley module-release: cannot write {inert(str(out))}: {reason}", file=sys.stderr)
        return 1
    print(f"Manifest URL: {release.manifest_url}")
    print(
        f"Put the contents of {inert(str(out))} at {base}/ (the files are in {inert(str(out / 'module'))})."
    )
    return 0


def register(
    parser: argparse.ArgumentParser, commands: argparse._SubParsersAction[argparse.ArgumentParser]
) -> None:
    """Add ``--version`` to ``parser`` and ``module-path`` to its subcommands."""
    parser.add_argument("--version", action=ShowVersions)
    module_path = commands.add_parser(
        "module-path",
        help="print the folder of the installed Foundry module (to copy it into Data/modules/volley)",
        description="Print the folder holding the Foundry module's files that came with this bridge. "
        "Foundry can install the module from the running bridge instead: paste "
        "http://127.0.0.1:8765/module/module.json into Add-on Modules > Install Module > Manifest URL.",
    )
    module_path.set_defaults(run=cmd_module_path)
    module_release = commands.add_parser(
        "module-release",
        help="write the Foundry module's manifest and zip for a web server (a Foundry hosted elsewhere)",
        description="Write module/module.json, module/volley.zip, module/README.md and module/CHANGELOG.md "
        "into DIRECTORY, their URLs under --base-url, for a Foundry server that cannot reach this bridge "
        "(The Forge, a Docker host, a friend's server): put the files on any web server it can reach and "
        "paste the printed manifest URL into Install Module.",
    )
    module_release.add_argument("directory", metavar="DIRECTORY", help="where to write the files")
    module_release.add_argument(
        "--base-url",
        required=True,
        help="the address DIRECTORY will be served at, e.g. https://example.org/volley",
    )
    module_release.set_defaults(run=cmd_module_release)
