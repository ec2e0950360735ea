import gc
import os
import sys

# A short-lived process that builds millions of objects (JSON) and frees them line by line,
# none in reference cycles worth collecting: the cyclic collector would only scan them.
gc.disable()
# The matrices are tiny; one BLAS thread starts faster (set before numpy is imported).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from annotation.domain.scoring.cli import main

sys.exit(main())
