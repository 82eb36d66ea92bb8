"""``python -m palaestra.cli``."""

import sys

from palaestra.cli._main import main

sys.exit(main())
