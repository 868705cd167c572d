"""What goes into the wheel: the two Python packages, and the Foundry module's folder as package data.

Everything else about the project is in ``pyproject.toml``. This file exists for the one thing that
table cannot say: ``vtt_module/`` (the Foundry module, JavaScript and JSON, kept at the top of the
repository where Foundry developers expect it) ships as the package ``bridge.foundry_module``, next to
the packages found automatically. A package-dir mapping rather than a copy at build time, so that

* the wheel carries the module's runtime files (and the sandbox page) inside ``bridge/``, found at
  run time through ``importlib.resources`` (``bridge.module.assets.module_dir``), never through the checkout;
* ``pip install -e .`` (``scripts/setup``) maps the same package name onto the live ``vtt_module/``
  folder, so an edited script is served at once, without reinstalling.

``vtt_module/__init__.py`` is what lets the editable install import that folder as a package.
The globs below list the folders the module needs at run time; the zip that Foundry installs takes a
stricter selection from them (``bridge.module.release``). Dev tooling (``node_modules``, ``tools``,
``types``, ``package*.json``, eslint and jsconfig files) matches none of them and stays out.
"""

from setuptools import find_packages, setup

FOUNDRY_MODULE = "bridge.foundry_module"

setup(
    packages=[*find_packages(include=["rules", "rules.*", "bridge", "bridge.*"]), FOUNDRY_MODULE],
    package_dir={FOUNDRY_MODULE: "vtt_module"},
    package_data={
        "rules": ["py.typed"],
        # report/power_table.json: the rolls needed worked out ahead (scripts/power_table.py).
        "bridge": ["py.typed", "locale/*.json", "report/power_table.json"],
        FOUNDRY_MODULE: [
            "module.json",
            "README.md",
            "CHANGELOG.md",
            "LICENSE",
            "scripts/**/*",
            "templates/**/*",
            "lang/**/*",
            "styles/**/*",
            # The stand-in Foundry client `volley sandbox` serves: whatever lands in the folder ships.
            "sandbox/**/*",
        ],
    },
    include_package_data=False,
)
