"""Admin bulk actions over 300 topics in a real browser (the goal: "bulk actions over hundreds
of topics take seconds"): the assignments page, a balanced assignment with an overlap to three
annotators, the progress matrix, and deleting every assignment. The steps are the browser
test's (tests/e2e/admin_bulk.py); each round uses a new project of 300 topics.
"""

from __future__ import annotations

import statistics
import sys

from bench.environment import django_with_services, signed_in_page
from bench.smoke import size, verdict

ROUNDS = size(5, 1)
TARGET_S = 5.0  # "takes seconds"


def main() -> int:
    services = django_with_services()
    try:
        from tests.e2e import admin_bulk
        from tests.factories import AdminFactory

        admin = AdminFactory(username="bench-admin")
        projects = [admin_bulk.project_with_300_topics(f"admin bench {n}") for n in range(ROUNDS)]
        rows: dict[str, list[float]] = {}
        with signed_in_page(services, admin) as page:
            for project in projects:
                topics, created = admin_bulk.TOPICS, admin_bulk.ASSIGNMENTS
                steps = {
                    f"assignments page, {topics} topics": admin_bulk.open_assignments(
                        page, project
                    ),
                    f"balanced assignment, {created} created": admin_bulk.assign_balanced(page),
                    f"progress matrix, {topics} x 3": admin_bulk.open_progress(page),
                    f"delete {created} assignments": admin_bulk.delete_all(page),
                }
                for name, seconds in steps.items():
                    rows.setdefault(name, []).append(seconds)

        print(
            f"{ROUNDS} rounds, each on a new project of {admin_bulk.TOPICS} topics and 3 "
            "annotators; seconds from the admin's action to the page showing its result"
        )
        print(f"{'action':<40} {'median s':>9} {'max s':>7}")
        for name, values in rows.items():
            print(f"{name:<40} {statistics.median(values):>9.2f} {max(values):>7.2f}")
        return verdict(all(max(values) < TARGET_S for values in rows.values()))
    finally:
        services.stop()


if __name__ == "__main__":
    sys.exit(main())
