"""The one budget every wait of the tests and the development scripts is taken from.

Waits are on conditions, so a large budget costs nothing when things work; it only lets a busy machine
finish what it was asked. ``VOLLEY_TEST_SLOWDOWN=3`` on a loaded machine multiplies every wait.
"""

from __future__ import annotations

import os

#: How much slower than an idle developer machine this one is: every wait is multiplied by it.
SLOWDOWN = max(1.0, float(os.environ.get("VOLLEY_TEST_SLOWDOWN") or 1))
#: The longest any single wait (a page to boot, a reply, a worker's warm-up, a polite stop) may take
#: before a test fails. Every other wait is a fraction or a multiple of it.
BUDGET_S = 60.0 * SLOWDOWN
