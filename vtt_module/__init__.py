"""The Foundry module's folder, importable as ``bridge.foundry_module`` (see ``setup.py``).

Not part of the module Foundry runs: this file only lets an editable install (``pip install -e .``)
map the package name onto this folder, so ``bridge.module.assets.module_dir`` finds the live files.
The installed wheel has the same package with the module's runtime files as package data.
"""
