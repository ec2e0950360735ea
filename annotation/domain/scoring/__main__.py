import sys

from annotation.domain.scoring.cli import main

sys.exit(main())
