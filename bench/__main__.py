"""`make bench`: every benchmark the issues ask for, each printing its own table.

Run one with `python -m bench <name>`; with no name all run in order. Each runs in a process
of its own: they start their own PostgreSQL, Redis and servers, and Django is set up once per
process.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

BENCHMARKS = [
    ("scoring", "bench.scoring.run", "stand-alone scorer: score and iaa on SciCo-test-sized files"),
    ("agreement", "bench.agreement_db", "agreement report from the database"),
    (
        "imports",
        "bench.imports",
        "imports into PostgreSQL: demo, ChEMU-Ref training file, CoRefi examples",
    ),
    ("domain", "bench.domain_operations", "pure domain operations on a 1,000-mention topic"),
    (
        "operations",
        "bench.operations",
        "operations: 1, 20 and 30 clients back to back, WEB_CONCURRENCY 1, 2, default",
    ),
    (
        "capacity",
        "bench.capacity",
        "capacity: 20, 40, 60 annotators at 1 op/s on one web process",
    ),
    (
        "faults",
        "bench.faults",
        "load and faults: 8 writers on a make up stack while each part is killed in turn",
    ),
    ("suggestions", "bench.suggestions", "model suggestions end to end"),
    (
        "corpus-candidates",
        "bench.corpus_candidates",
        "candidate topics for 100 concept groups over 20,000 indexed mentions",
    ),
    ("frontend", "bench.frontend_bench", "browser: navigation to interactive, keystroke latency"),
    (
        "long-documents",
        "bench.long_documents",
        "browser: 6,000, 20,000 and 100,000-token documents: open, keystroke, saved, memory",
    ),
    ("admin", "bench.admin_bench", "browser: admin bulk actions over 300 topics"),
    ("adjudication", "bench.adjudication", "consensus seeding and the adjudication workspace"),
    ("validation", "bench.validation", "validation workspace: load, next mention, tool ceiling"),
    ("mentions", "bench.mentions", "ChEMU mention detection and links from raw text"),
    (
        "learning",
        "bench.learning",
        "decisions to reach gold: no suggestions, static model, learning in the loop, questions",
    ),
    (
        "corpus",
        "bench.corpus",
        "corpus: import + encoding at 100k mentions, a query at 1M indexed, the W panel",
    ),
    (
        "scico-backends",
        "bench.scico_backends",
        "every SciCo backend on generated and demo topics: scores, seconds per topic, CPU/GPU",
    ),
]


def main(argv: list[str]) -> int:
    wanted = set(argv)
    unknown = wanted - {name for name, _, _ in BENCHMARKS}
    if unknown:
        print(
            f"unknown benchmark(s): {', '.join(sorted(unknown))}; choose from "
            f"{', '.join(name for name, _, _ in BENCHMARKS)}"
        )
        return 2
    failed = []
    for name, module, title in BENCHMARKS:
        if wanted and name not in wanted:
            continue
        print(f"\n=== {name}: {title} ===", flush=True)
        started = time.monotonic()
        code = subprocess.run([sys.executable, "-m", module], cwd=REPO, check=False).returncode
        if code:
            print(f"FAILED (exit {code})")
        print(f"({name} took {time.monotonic() - started:.1f} s)")
        if code:
            failed.append(name)
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
