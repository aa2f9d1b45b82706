"""``python -m nnaccel``: the ``nnaccel`` command."""

import sys

from .cli import main

sys.exit(main())
