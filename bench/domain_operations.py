"""The pure domain code on a large topic: plan + apply of operations that reach across a
1,000-mention topic with a hierarchy 250 deep (or are refused for the cycle they would close),
in one process with no database. Shows that no operation does work proportional to the whole
topic; the server time of the same operations over HTTP is `python -m bench operations`.
"""

from __future__ import annotations

import itertools
import statistics
import sys
import time

from annotation.domain.effects import apply_effects, invert_effects
from annotation.domain.errors import DomainError
from annotation.domain.operations import plan
from bench.smoke import size
from tests.domain.operations.large_topic import OPERATIONS, large_topic

RUNS = size(50, 1)


def timed(state, op) -> list[float]:
    """Milliseconds of plan + apply (or of the refusal), each applied operation reverted after."""
    ids = itertools.count(10_000)
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        try:
            result = plan(state, op, lambda kind: next(ids))
        except DomainError:
            times.append((time.perf_counter() - start) * 1000)
            continue
        apply_effects(state, result.effects)
        times.append((time.perf_counter() - start) * 1000)
        apply_effects(state, invert_effects(result.effects))
    return times


def main() -> int:
    print(f"1,000 mentions, 500 clusters, hierarchy 250 deep; {RUNS} runs each; milliseconds")
    print(
        f"{'operation':<42}{'single parent p50':>18}{'max':>8}{'several parents p50':>21}{'max':>8}"
    )
    for name, (op, _) in OPERATIONS.items():
        single = timed(large_topic(single_parent=True), op)
        several = timed(large_topic(single_parent=False), op)
        print(
            f"{name:<42}{statistics.median(single):>18.3f}{max(single):>8.3f}"
            f"{statistics.median(several):>21.3f}{max(several):>8.3f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
