"""Imports into PostgreSQL: the demo `make up` loads on first start, the whole ChEMU-Ref
training file (900 snippets, `--skip-invalid` for its 52 empty-side links) and the CoRefi
examples, each through `manage.py import_topics` into a new project, three times."""

from __future__ import annotations

import statistics
import sys
import time
from io import StringIO

from bench.environment import django_with_services
from bench.smoke import SMOKE, size

RUNS = size(3, 1)


def _seconds(action) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def main() -> int:
    services = django_with_services()
    try:
        from django.core.management import call_command

        from annotation.models import Project
        from tests.paths import CHEMU_DEMO, CHEMU_TRAIN, COREFI_DATA, DEMO

        if SMOKE:  # the shared data set is not needed to see that the benchmark runs
            CHEMU_TRAIN, COREFI_DATA = CHEMU_DEMO, DEMO / "scientific_onboarding_tutorial.json"

        def import_topics(name: str, fmt: str, path, *extra: str):
            Project.objects.create(name=name, hierarchy=fmt != "chemu", anaphora=fmt == "chemu")
            call_command(
                "import_topics",
                "--project",
                name,
                "--format",
                fmt,
                *extra,
                str(path),
                stdout=StringIO(),
            )

        rows = {
            "demo data (load_demo, first start)": [
                _seconds(lambda: call_command("load_demo", stdout=StringIO()))
            ],
            "ChEMU-Ref train, 900 snippets, --skip-invalid": [
                _seconds(
                    lambda n=n: import_topics(f"chemu {n}", "chemu", CHEMU_TRAIN, "--skip-invalid")
                )
                for n in range(RUNS)
            ],
            f"CoRefi examples, {len(list(COREFI_DATA.glob('*.json'))) or 1} files": [
                _seconds(lambda n=n: import_topics(f"corefi {n}", "corefi", COREFI_DATA))
                for n in range(RUNS)
            ],
        }
        print(f"{'import':<48}{'runs':>5}{'median s':>10}{'max s':>8}")
        for name, values in rows.items():
            print(
                f"{name:<48}{len(values):>5}{statistics.median(values):>10.2f}{max(values):>8.2f}"
            )
        return 0
    finally:
        services.stop()


if __name__ == "__main__":
    sys.exit(main())
