"""When the loop turns during a burst of frames on one socket (``Connection.run``), so that a burst of
work from one client does not make every other socket wait for all of it."""

from __future__ import annotations

__all__ = ["TURN_FRAMES", "TURN_WORK", "TURN_WORK_LIMIT", "Turns"]

#: Seconds of work on one socket's frames after which the loop turns (other sockets get read) before
#: its next frame is taken, once at least ``TURN_FRAMES`` frames were taken; a frame is never cut short.
TURN_WORK = 0.0002
#: Frames taken from one socket before the loop turns for ``TURN_WORK`` (measured in wall time, which a
#: busy host stretches: there one attack alone passed it, and the loop turned after every frame).
TURN_FRAMES = 4
#: Seconds of work after which the loop turns however few frames that was.
TURN_WORK_LIMIT = 0.001


class Turns:
    """When a socket that sent frames together lets the loop turn before its next one (``Connection.run``).

    A burst of work on one socket (16 cold previews to estimate and hand to the workers) must not make
    every other socket wait for all of it, so after ``TURN_WORK`` of it the loop turns. But a turn is a
    pass of the loop (a ``select``, its callbacks) that an attack's own work hardly exceeds; counted in
    wall time alone, on a host busy with other processes every attack passed ``TURN_WORK`` by itself and
    the loop turned after every frame, ~8% of the server's CPU per attack under load. So the loop
    turns after ``TURN_WORK`` once ``TURN_FRAMES`` frames were taken, or after ``TURN_WORK_LIMIT``.
    """

    __slots__ = ("frames", "worked")

    def __init__(self) -> None:
        self.worked = 0.0
        self.frames = 0

    def due(self, seconds: float) -> bool:
        """One more frame took ``seconds``: whether the loop should turn before the next."""
        self.worked += seconds
        self.frames += 1
        if self.worked > TURN_WORK and (self.frames >= TURN_FRAMES or self.worked > TURN_WORK_LIMIT):
            self.worked, self.frames = 0.0, 0
            return True
        return False
