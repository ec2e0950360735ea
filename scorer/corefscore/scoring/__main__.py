"""``python -m corefscore.scoring``: the former name of ``python -m corefscore`` (kept so that
scripts written for it still run)."""

import sys

from corefscore.scoring.cli import main

sys.exit(main())
