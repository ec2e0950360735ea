"""`BENCH_SMOKE=1 python -m bench.together NAME...`: the named benchmarks' smoke runs one after
another in this one process, on one PostgreSQL, Redis, Daphne and Chromium
(bench/environment.py: `shared_stack`).

For smoke runs only (tests/bench/test_benchmarks_run.py runs the browser benchmarks this way):
a benchmark here finds the rows of the ones before it and a warm server, so its figures would
not be its own; `make bench` runs each in a process of its own. Every named benchmark runs,
even after one fails; the exit code is 1 when any failed.
"""

from __future__ import annotations

import importlib
import sys
import time
import traceback

from bench.__main__ import BENCHMARKS
from bench.environment import shared_stack
from bench.smoke import SMOKE


def main(argv: list[str]) -> int:
    modules = {name: module for name, module, _ in BENCHMARKS}
    unknown = [name for name in argv if name not in modules]
    if not SMOKE or not argv or unknown:
        print(
            "usage: BENCH_SMOKE=1 python -m bench.together NAME... (smoke runs only; "
            f"names: {', '.join(modules)})"
        )
        return 2
    failed = []
    with shared_stack():
        for name in argv:
            print(f"\n=== {name} (smoke, shared stack) ===", flush=True)
            started = time.monotonic()
            try:
                code = importlib.import_module(modules[name]).main()
            except Exception:  # noqa: BLE001 - say which benchmark broke, run the others
                traceback.print_exc()
                code = 1
            print(f"({name} took {time.monotonic() - started:.1f} s, exit {code})", flush=True)
            if code:
                failed.append(name)
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
