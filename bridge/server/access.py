"""The shared secret between the referee's browser and the bridge.

Only the referee's Foundry client should be able to make the bridge roll dice, so every connection
must present a token in its ``hello``. On first start the bridge makes one up, keeps it in a file only
the referee's account can read, and shows it once so it can be pasted into the module's settings;
``--token`` or ``VOLLEY_TOKEN`` replace it for scripted setups.

"Only the referee's account" is file mode 0600 on Linux and macOS. Windows has no such modes
(``chmod`` there only sets the read-only flag): the file lives in the referee's own
``%LOCALAPPDATA%``, whose access list already shuts out other accounts, so nothing is changed there.
"""

from __future__ import annotations

import hmac
import os
import secrets
import sys
from dataclasses import dataclass
from pathlib import Path

from bridge.paths import O_BINARY
from bridge.store.files import open_for_reading

__all__ = [
    "TOKEN_ENV",
    "WEAK_BELOW",
    "AccessToken",
    "clean_token",
    "find_token",
    "load_or_create_token",
    "token_matches",
]

TOKEN_ENV = "VOLLEY_TOKEN"
TOKEN_FILE = "token"
#: 32 random bytes, URL-safe: long enough that guessing is hopeless, short enough to paste.
TOKEN_BYTES = 32
#: A token shorter than this (in characters) is accepted, with a warning at start: guessable.
WEAK_BELOW = 16


def clean_token(value: str) -> str:
    """A token as given, without a UTF-8 byte-order mark (Notepad's) or surrounding whitespace."""
    return value.strip().lstrip("\ufeff").strip()


def _owner_only(path: Path) -> None:
    """Mode 0600 where file modes exist; on Windows the profile folder's access list does this job."""
    if sys.platform != "win32":
        os.chmod(path, 0o600)


@dataclass(frozen=True)
class AccessToken:
    """The token in force and where it came from (``file``, ``new file``, ``--token`` or the env)."""

    value: str
    source: str
    path: Path | None = None

    @property
    def created(self) -> bool:
        return self.source == "new file"

    @property
    def weak(self) -> bool:
        """Shorter than ``WEAK_BELOW`` characters: ``volley serve`` warns."""
        return len(self.value) < WEAK_BELOW

    def warning(self) -> str | None:
        """The start-up warning for a weak token, naming where it came from."""
        if not self.weak:
            return None
        return (
            f"WARNING: the access token (from {self.source}) is {len(self.value)} characters long; "
            f"anyone who guesses it can roll for the table. Use at least {WEAK_BELOW} "
            "(delete the token file and restart to get a new 43-character one)."
        )


def find_token(config: Path, explicit: str | None = None) -> AccessToken | None:
    """``--token`` first, then ``$VOLLEY_TOKEN``, then the token file; None when there is none yet.

    The server's order, also for a client of it (``volley replay --against``). A token file that
    exists but cannot be read raises ``OSError``. Every source is cleaned (``clean_token``): a BOM
    or a newline pasted with the token is not part of it.
    """
    explicit = clean_token(explicit or "")
    if explicit:
        return AccessToken(explicit, "--token")
    from_env = clean_token(os.environ.get(TOKEN_ENV, ""))
    if from_env:
        return AccessToken(from_env, TOKEN_ENV)
    path = config / TOKEN_FILE
    if path.exists():
        with open_for_reading(path) as handle:  # a FIFO here is refused, never waited on
            raw = handle.read(64 * 1024)
        value = clean_token(raw.decode("utf-8-sig", errors="replace"))
        if value:
            return AccessToken(value, "file", path)
    return None


def load_or_create_token(config: Path, explicit: str | None = None) -> AccessToken:
    """The token ``find_token`` finds, else a new one in the token file (on first start)."""
    found = find_token(config, explicit)
    if found is not None:
        if found.path is not None:
            _owner_only(found.path)  # tighten a file someone loosened by hand
        return found
    path = config / TOKEN_FILE
    config.mkdir(parents=True, exist_ok=True)
    value = secrets.token_urlsafe(TOKEN_BYTES)
    # Created with mode 0600 from birth, so the secret is never readable by others, not even briefly.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | O_BINARY, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(f"{value}\n".encode())
    _owner_only(path)  # the umask can only remove bits, but be explicit
    return AccessToken(value, "new file", path)


def token_matches(expected: str, offered: object) -> bool:
    """Constant-time comparison, so the token cannot be found a character at a time."""
    if not isinstance(offered, str):
        return False
    return hmac.compare_digest(expected.encode("utf-8"), offered.encode("utf-8"))
