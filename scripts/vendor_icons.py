"""Writes the sandbox's icon stylesheet from Font Awesome Free's SVGs.

Foundry ships Font Awesome and the module names its icons with Font Awesome classes
(``fa-solid fa-crosshairs``); the sandbox's stand-in for Foundry has no icon font, so without this the
Token HUD showed empty squares. Rather than vendor the whole font (hundreds of kilobytes, every
icon), this keeps only the icons the module and the sandbox name, as CSS masks painted in the text
colour, so they follow the light and dark themes like the real icons do.

Usage (the package comes from npm: ``npm pack @fortawesome/fontawesome-free`` and untar it)::

    python scripts/vendor_icons.py path/to/package > vtt_module/sandbox/vendor/icons.css

The icons are under CC BY 4.0; ``vendor/fontawesome.LICENSE`` carries the attribution.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
SEARCHED = ("vtt_module/scripts", "vtt_module/sandbox", "vtt_module/templates")
ICON = re.compile(r"\bfa-(?!solid\b|regular\b|brands\b)[a-z0-9]+(?:-[a-z0-9]+)*")


def icons_named() -> list[str]:
    """Every ``fa-*`` icon class the module's scripts, templates and the sandbox mention."""
    names: set[str] = set()
    for folder in SEARCHED:
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in {".js", ".hbs", ".html"} and "vendor" not in path.parts:
                names.update(ICON.findall(path.read_text(encoding="utf-8")))
    return sorted(names)


def main(package: Path) -> int:
    version = json.loads((package / "package.json").read_text(encoding="utf-8"))["version"]
    out = [
        f"/* Font Awesome Free {version} icons (CC BY 4.0, https://fontawesome.com/license/free), only those",
        "   Volley names, as masks painted in the text colour. Written by scripts/vendor_icons.py. */",
        '.fa-solid::before { content: ""; display: inline-block; width: 1em; height: 1em;'
        " vertical-align: -0.125em; background: currentColor;"
        " -webkit-mask: var(--fa-svg) center / contain no-repeat;"
        " mask: var(--fa-svg) center / contain no-repeat; }",
        "button .fa-solid::before, a .fa-solid::before { margin-inline-end: 0.3em; }",
        ".control-icon .fa-solid::before { width: 22px; height: 22px; margin: 8px; vertical-align: top; }",
    ]
    missing = []
    for name in icons_named():
        svg = package / "svgs" / "solid" / f"{name.removeprefix('fa-')}.svg"
        if not svg.exists():
            missing.append(name)
            continue
        text = re.sub(r"<!--.*?-->", "", svg.read_text(encoding="utf-8"))
        out.append(f'.{name} {{ --fa-svg: url("data:image/svg+xml,{quote(text, safe=" /=:")}"); }}')
    if missing:
        print(f"no solid SVG for: {', '.join(missing)}", file=sys.stderr)
        return 1
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
