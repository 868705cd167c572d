"""What the tests and the development scripts (benchmarks, soaks, recorders) share; never shipped.

- ``devkit.budget``: how long any one wait may take (``VOLLEY_TEST_SLOWDOWN`` scales it).
- ``devkit.serve``: a bridge to talk to, in this process or as a ``volley serve`` process, and the
  request the tests and benchmarks fire.
- ``devkit.browser``: ``volley sandbox`` and the pages a headless Chromium opens on it (the browser
  tests' kit); ``devkit.bookkeeping`` and ``devkit.walk``: the long seeded runs on it.
- ``devkit.sessions`` and ``devkit.allocation``: synthetic sessions played out by the real rules.

It sits above ``rules`` and ``bridge`` (which never import it, nor anything under ``tests/``) and below
the tests and ``scripts/`` (which never import ``tests/`` nor put it on ``sys.path``):
``tests/test_layering.py`` holds both. pytest finds it from the checkout (``pythonpath`` in
``pyproject.toml``); a script puts the checkout on ``sys.path`` itself. ``setup.py`` ships ``rules`` and
``bridge`` only.
"""
