"""The browser tests' kit, under the name they import it by (a module name of its own, so it never
clashes with another folder's ``conftest``). It lives in ``devkit/browser.py``, which the scripts that
drive a sandbox (soaks, benchmarks) share without reaching into ``tests/``."""

from devkit.browser import *  # noqa: F403
