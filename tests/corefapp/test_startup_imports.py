"""A Django process (web, worker, manage.py) starts without torch: it costs about 2.5 s and its
memory in every process, and only the model worker needs it, when it loads a model. The
learning-in-the-loop hook once pulled it in through `modelserve.training`'s package."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.paths import REPO

PROBE = """
import sys
import django
django.setup()
from django.urls import get_resolver
get_resolver().url_patterns  # every view module, as the first request loads them
heavy = sorted(m for m in ("torch", "transformers", "sentence_transformers") if m in sys.modules)
print(",".join(heavy))
"""


def test_django_set_up_with_every_url_imports_no_model_library():
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="corefapp.settings", PYTHONPATH=str(REPO))
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )

    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "", f"imported at start-up: {result.stdout.strip()}"
