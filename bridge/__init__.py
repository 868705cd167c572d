"""Volley's bridge: the companion server a referee runs next to the VTT, and the ``volley`` CLI."""

__version__ = "0.1.0"
