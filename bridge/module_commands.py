"""``volley module-path`` and ``volley --version``: where the Foundry module is, and which versions run.

The referee installs the module from the bridge (``/module/module.json``); ``module-path`` is for
copying it by hand instead (into Foundry's ``Data/modules/volley``). ``--version`` shows the bridge,
the rules and the installed module side by side: they are released together and must agree, or the
install is broken (exit 1). Imports stay inside the functions, so ``volley odds`` starts fast.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, NoReturn

__all__ = ["ShowVersions", "cmd_module_path", "register", "versions"]


def versions() -> dict[str, str]:
    """The version of each part of this install: bridge, rules and the Foundry module."""
    import bridge
    import rules
    from bridge.assets import module_version

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
    from bridge.assets import module_dir

    print(module_dir())
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
