"""Sessions for the report's tests: the recorded replays, and synthetic skirmishes with fair and loaded dice.

The synthetic journals are written once per test run (they take a second or two each) by
``devkit.sessions``, through the real rules and the bridge's journal writer.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from reportkit import Built, write_session

#: Long enough for every test to have its say (about 2,000 d6 and 400 d100 rolls), short enough to be quick.
SESSION_REQUESTS = 600
FAIR_SEEDS = (1, 2, 3)


@pytest.fixture(scope="session")
def sessions_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("sessions")


@pytest.fixture(scope="session")
def fair_sessions(sessions_dir: Path) -> list[Path]:
    return [write_session(sessions_dir, SESSION_REQUESTS, seed=seed) for seed in FAIR_SEEDS]


@pytest.fixture(scope="session")
def loaded_session(sessions_dir: Path) -> Path:
    return write_session(sessions_dir, SESSION_REQUESTS, seed=11, loaded=True)


@pytest.fixture(scope="session")
def sticky_session(sessions_dir: Path) -> Path:
    return write_session(sessions_dir, SESSION_REQUESTS, seed=13, sticky=True)


@pytest.fixture(scope="module")
def built() -> Built:
    """The findings and pages of the module's sessions, each made once (``reportkit.Built``)."""
    return Built()
