import sys

from corefscore.scoring.cli import main

if __name__ == "__main__":
    sys.exit(main())
