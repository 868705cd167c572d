"""The Foundry module as the bridge ships and serves it: where its files are (``assets``), the release
Foundry installs (``release``: manifest and zip), the bridge as that release's server (``server``), the
commands that print or build it (``commands``: ``module-path``, ``module-release``, ``--version``), and
``volley sandbox``, the real module over a stand-in for the Foundry client (``sandbox``)."""
