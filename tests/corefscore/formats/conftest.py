from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "fixtures" / "formats"
SHARED_DATA = REPO.parent / "shared" / "data"


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    return FIXTURES


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.fail(
            "../shared/data is not beside the checkout: the tests read the real data there "
            "(CI has it)"
        )
    return SHARED_DATA
