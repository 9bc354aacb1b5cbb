"""``python -m symcot.cli``."""

import sys

from symcot.cli import main

sys.exit(main())
