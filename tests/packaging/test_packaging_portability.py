"""The guards around every POSIX-only call, exercised on Linux by pretending to be Windows or macOS.

Each test takes the branch Windows (or macOS) would take: ``sys.platform`` is set to ``win32`` and the
POSIX call is made to fail if it is reached, or the event loop is given Windows' missing method. The
Windows-only calls themselves (``msvcrt``) are type-checked against Windows' stubs by the last test.
"""

from __future__ import annotations

import asyncio
import os
import signal
import stat
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import msgspec
import platformdirs
import platformdirs.macos
import platformdirs.unix
import platformdirs.windows
import pytest

from bridge import paths
from bridge.server import access
from bridge.server.stopping import STOP_SIGNALS, stop_on_signals
from bridge.store import files, journal_file, lines, lock, reader
from bridge.store.journal import Journal
from bridge.store.journal_file import discard_session
from bridge.store.lines import Header
from bridge.store.lock import DirectoryBusy, DirectoryLock

ROOT = Path(__file__).resolve().parents[2]


def _header(session: str) -> Header:
    return Header(
        format=1, session=session, started="2026-01-01T00:00:00Z", rules_version="x", bridge_version="x"
    )


# --- the data directory lock --------------------------------------------------------------------


class FakeMsvcrt(types.ModuleType):
    """Windows' byte-range locks as ``msvcrt.locking`` behaves: per file, refused to other handles."""

    LK_UNLCK = 0
    LK_NBLCK = 2

    def __init__(self) -> None:
        super().__init__("msvcrt")
        self.held: dict[tuple[int, int], int] = {}  # (file, byte) -> the fd holding it
        self.calls: list[tuple[int, int, int]] = []  # (position, mode, bytes)

    def locking(self, fd: int, mode: int, nbytes: int) -> None:
        position = os.lseek(fd, 0, os.SEEK_CUR)
        self.calls.append((position, mode, nbytes))
        key = (os.fstat(fd).st_ino, position)
        if mode == self.LK_UNLCK:
            del self.held[key]
        elif key in self.held:
            raise PermissionError(13, "Permission denied")  # what msvcrt raises for a held region
        else:
            self.held[key] = fd


def test_on_windows_the_lock_is_msvcrt_s_on_a_byte_past_the_pid(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    msvcrt = FakeMsvcrt()
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setitem(sys.modules, "msvcrt", msvcrt)
    monkeypatch.setitem(sys.modules, "fcntl", None)  # any `import fcntl` now fails

    first = DirectoryLock(tmp_path)
    first.acquire()
    assert msvcrt.calls == [(lock.LOCKED_BYTE, msvcrt.LK_NBLCK, 1)]
    # Windows locks are mandatory: the pid must lie outside the locked byte to be readable at all.
    assert len(f"{os.getpid()}\n") <= lock.LOCKED_BYTE
    assert (tmp_path / ".lock").read_text() == f"{os.getpid()}\n"

    with pytest.raises(DirectoryBusy, match=rf"another volley serve \(pid {os.getpid()}\)"):
        DirectoryLock(tmp_path).acquire()

    first.release()
    assert msvcrt.calls[-1] == (lock.LOCKED_BYTE, msvcrt.LK_UNLCK, 1)
    second = DirectoryLock(tmp_path)
    second.acquire()  # free again once released
    second.release()
    assert msvcrt.held == {}


def test_on_posix_the_lock_is_flock_and_msvcrt_is_never_touched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "msvcrt", None)
    held = DirectoryLock(tmp_path)
    held.acquire()
    # Another process is refused while we hold it (flock is per open file, so ask a real other one).
    probe = (
        "import fcntl, os, sys\n"
        "fd = os.open(sys.argv[1], os.O_RDWR)\n"
        "try:\n    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\nexcept BlockingIOError:\n    sys.exit(3)\n"
    )
    lock_file = str(tmp_path / ".lock")
    assert subprocess.run([sys.executable, "-c", probe, lock_file], check=False).returncode == 3
    held.release()
    assert subprocess.run([sys.executable, "-c", probe, lock_file], check=False).returncode == 0


# --- the journal --------------------------------------------------------------------------------


def _refuse_directories(real_open: Any) -> Any:
    def open_like_windows(path: Any, flags: int, mode: int = 0o777, **kwargs: Any) -> int:
        if Path(path).is_dir():
            raise PermissionError(13, "Permission denied", str(path))  # Windows: no handles on folders
        return int(real_open(path, flags, mode, **kwargs))

    return open_like_windows


@pytest.mark.asyncio
async def test_on_windows_the_journal_never_opens_its_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(os, "open", _refuse_directories(os.open))
    created = Journal.create(tmp_path / "sessions", _header("20260101T000000.000000Z-abcdef"))
    await created.close()
    discard_session(created.path)  # creation and removal both sync the directory on POSIX
    assert not created.path.exists()


@pytest.mark.asyncio
async def test_on_posix_the_journal_still_syncs_its_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[bool] = []
    real_fsync = os.fsync

    def recording_fsync(fd: int) -> None:
        synced.append(stat.S_ISDIR(os.fstat(fd).st_mode))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", recording_fsync)
    created = Journal.create(tmp_path / "sessions", _header("20260101T000000.000000Z-abcdef"))
    await created.close()
    # The file, then the directory holding its new name; the close syncs the file cut to its last line.
    assert synced == [False, True, False]


@pytest.mark.asyncio
@pytest.mark.parametrize("missing", ["pwrite", "fdatasync"])
async def test_without_pwrite_or_fdatasync_the_journal_appends_its_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, missing: str
) -> None:
    """Windows has no ``os.pwrite``, macOS no ``os.fdatasync``: there the journal lays no zeros ahead and
    writes each line at its end (Windows: after a seek), with a full fsync."""
    if missing == "pwrite":
        monkeypatch.setattr(journal_file, "_pwrite", None)
    else:
        monkeypatch.delattr(os, "fdatasync")
    created = Journal.create(tmp_path / "sessions", _header("20260101T000000.000000Z-abcdef"))
    assert b"\0" not in created.path.read_bytes()
    for k in range(3):
        await created.append(lines.UndoLine(id=f"u{k}", target_id="t", at="x", reply=msgspec.Raw(b"{}")))
        assert b"\0" not in created.path.read_bytes()
    await created.close()
    assert [undo.id for undo in reader.read_session(created.path).undos] == ["u0", "u1", "u2"]


@pytest.mark.asyncio
async def test_journal_and_token_files_open_in_binary_mode_where_there_is_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Windows' C runtime opens files in text mode (newline -> CR LF) unless told O_BINARY."""
    windows_binary = 0x8000
    flags: list[int] = []
    real_open = os.open

    def recording_open(path: Any, flag: int, mode: int = 0o777, **kwargs: Any) -> int:
        if not Path(path).is_dir():
            flags.append(flag)
        return int(real_open(path, flag & ~windows_binary, mode, **kwargs))

    monkeypatch.setattr(os, "open", recording_open)
    for module in (journal_file, access, files):
        monkeypatch.setattr(module, "O_BINARY", windows_binary)
    created = Journal.create(tmp_path / "sessions", _header("20260101T000000.000000Z-abcdef"))
    await created.close()
    access.load_or_create_token(tmp_path / "config")
    held = DirectoryLock(tmp_path / "lock")
    held.acquire()
    held.release()
    assert len(flags) == 3
    assert all(flag & windows_binary for flag in flags)


# --- the token file -----------------------------------------------------------------------------


def test_on_windows_the_token_file_is_not_chmodded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_chmod(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("chmod only sets the read-only flag on Windows: it must not be called")

    monkeypatch.delenv(access.TOKEN_ENV, raising=False)
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(os, "chmod", no_chmod)
    created = access.load_or_create_token(tmp_path)
    assert created.created
    assert (tmp_path / "token").read_bytes() == f"{created.value}\n".encode()
    again = access.load_or_create_token(tmp_path)
    assert (again.source, again.value) == ("file", created.value)


def test_on_posix_a_loosened_token_file_is_tightened_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(access.TOKEN_ENV, raising=False)
    created = access.load_or_create_token(tmp_path)
    (tmp_path / "token").chmod(0o644)
    assert access.load_or_create_token(tmp_path).value == created.value
    assert stat.S_IMODE((tmp_path / "token").stat().st_mode) == 0o600


# --- stopping on Ctrl-C -------------------------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["Ctrl-C", "SIGTERM"])
async def test_without_loop_signal_handlers_as_on_windows_a_signal_still_stops_politely(
    signum: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    loop = asyncio.get_running_loop()

    def windows_has_none(*args: Any) -> None:
        raise NotImplementedError

    monkeypatch.setattr(loop, "add_signal_handler", windows_has_none)
    monkeypatch.setattr(loop, "remove_signal_handler", windows_has_none)
    before = {number: signal.getsignal(number) for number in STOP_SIGNALS}
    stop = asyncio.Event()
    restore = stop_on_signals(loop, stop)
    try:
        signal.raise_signal(signum)
        await asyncio.wait_for(stop.wait(), timeout=5)
    finally:
        restore()
    assert {number: signal.getsignal(number) for number in STOP_SIGNALS} == before


@pytest.mark.asyncio
async def test_with_loop_signal_handlers_the_loop_takes_the_signal() -> None:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    restore = stop_on_signals(loop, stop)
    try:
        signal.raise_signal(signal.SIGTERM)
        await asyncio.wait_for(stop.wait(), timeout=5)
    finally:
        restore()
    assert not loop.remove_signal_handler(signal.SIGTERM)  # nothing left installed


# --- where the token and journals live ----------------------------------------------------------


def test_linux_keeps_the_xdg_folders_it_always_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(platformdirs, "PlatformDirs", platformdirs.unix.Unix)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    assert paths.config_dir() == tmp_path / "home" / ".config" / "volley"
    assert paths.data_dir() == tmp_path / "home" / ".local" / "share" / "volley"

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    assert paths.config_dir() == tmp_path / "cfg" / "volley"
    assert paths.data_dir() == tmp_path / "share" / "volley"

    monkeypatch.setenv("XDG_DATA_HOME", "relative/share")  # invalid by the XDG spec: ignored
    assert paths.data_dir() == tmp_path / "home" / ".local" / "share" / "volley"
    assert not any(tmp_path.iterdir()), "finding a folder must not create it"


def test_macos_keeps_token_and_journals_in_application_support(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(platformdirs, "PlatformDirs", platformdirs.macos.MacOS)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    support = tmp_path / "Library" / "Application Support" / "volley"
    assert paths.config_dir() == support
    assert paths.sessions_dir(paths.data_dir()) == support / "sessions"


def test_windows_keeps_token_and_journals_in_local_appdata_without_a_vendor_folder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    local = r"C:\Users\Referee\AppData\Local"
    folders = {"CSIDL_LOCAL_APPDATA": local, "CSIDL_APPDATA": r"C:\Users\Referee\AppData\Roaming"}
    monkeypatch.setattr(platformdirs, "PlatformDirs", platformdirs.windows.Windows)
    monkeypatch.setattr(platformdirs.windows, "get_win_folder", folders.__getitem__)
    # os.path.join is POSIX's here, so the last separator is "/": compare the parts, not the string.
    assert (paths.config_dir().parent, paths.config_dir().name) == (Path(local), "volley")
    assert paths.data_dir() == paths.config_dir()


def test_the_command_line_folders_win_over_the_system_s(tmp_path: Path) -> None:
    assert paths.config_dir(tmp_path / "c") == tmp_path / "c"
    assert paths.data_dir(str(tmp_path / "d")) == tmp_path / "d"


# --- the Windows and macOS branches type-check against those systems' stubs ---------------------


@pytest.mark.parametrize("platform", ["win32", "darwin"])
def test_mypy_passes_for_windows_and_macos(platform: str) -> None:
    """``fcntl``, ``os.pread`` or a missing ``msvcrt`` name on a Windows path fails here, on Linux."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--platform",
            platform,
            "--cache-dir",
            str(ROOT / ".mypy_cache" / f"platform-{platform}"),
            "rules",
            "bridge",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
