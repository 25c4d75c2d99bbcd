"""``python -m shotsmith.cli``: the ``shotsmith`` command without its script."""

import sys

from . import main

sys.exit(main())
