"""``volley serve``: the aiohttp application and everything between a socket and the rules.

``app`` builds the application (``/ws``, ``/healthz``, ``/schema``, the module's release, the session
report) and runs it; ``connection`` is one websocket client from ``hello`` to goodbye; ``access`` the
shared token. Before any handshake, the door (``entrance``): its policy (``door``), the connection caps
(``gate``), the Host and Origin checks (``origins``) and the loop's error logs kept quiet
(``loop_errors``). Flood control per player and per connection (``ratelimit``); rules work that may take
more than a millisecond in worker processes (``workers``); a polite stop on Ctrl-C, SIGTERM and
Ctrl-Break (``stopping``).
"""
