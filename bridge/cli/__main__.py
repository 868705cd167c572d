"""``python -m bridge.cli``: the ``volley`` program without its installed script."""

import sys

from bridge.cli.program import main

sys.exit(main())
