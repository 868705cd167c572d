"""Volley's bridge: the companion server a referee runs next to the VTT, and the ``volley`` CLI.

By role (``bridge/README.md`` has the table): ``server`` (``volley serve``: the app, connections, the
door, workers), ``store`` (journals and their index), ``cli`` (the ``volley`` program and its commands),
``module`` (the Foundry module as shipped, and the sandbox), ``report`` (the session report); shared
by them: ``protocol``, ``resolution``, ``scribe`` (answers and journals each request once), ``holds``,
``replies``, ``card``, ``expiry``, ``paths``, ``i18n``.
"""

__version__ = "0.1.0"
