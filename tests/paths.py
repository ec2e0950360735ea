"""Where tests find the repository's fixtures and the shared real data."""

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEMO = REPO / "fixtures" / "demo"
SCICO_DEMO = DEMO / "scico_demo.jsonl"
CHEMU_DEMO = DEMO / "chemu_demo.jsonlines"
# ../shared/data beside the checkout; COREFAPP_SHARED_DATA for a checkout elsewhere (a worktree)
SHARED_DATA = Path(os.environ.get("COREFAPP_SHARED_DATA", REPO.parent / "shared" / "data"))
CHEMU_TRAIN = SHARED_DATA / "chemu-ref" / "train.english.jsonlines"
COREFI_DATA = SHARED_DATA / "corefi"
INCEPTION_SUITE = SHARED_DATA / "inception" / "tsv3-suite"
