import sys

from corefscore.scoring.cli import main

sys.exit(main())
