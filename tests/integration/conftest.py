import shutil
import tempfile
from pathlib import Path

import pytest

from corefapp.runtime.defaults import var_dir


@pytest.fixture
def var_root():
    """Under the repository's var/, not pytest's tmp dir: pytest keeps /tmp/pytest-of-<user>
    private (0700), which the unprivileged PostgreSQL user could not traverse."""
    base = var_dir() / "test"
    base.mkdir(parents=True, exist_ok=True)  # a first test that starts no session servers
    root = Path(tempfile.mkdtemp(prefix="integration-", dir=base))
    yield root
    shutil.rmtree(root, ignore_errors=True)
