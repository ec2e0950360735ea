"""Benchmark of the stand-alone scorer: ``score`` and ``iaa`` of 4 annotators, as users run them.

    python bench/scoring/run.py [--dir DIR] [--runs 5]

Generates the SciCo-test-sized files (bench/scoring/generate.py, fixed seed) into DIR (default
var/bench/scoring) unless they are there, then runs the command line in subprocesses and
prints wall time, CPU time (user + sys, the process and its workers) and peak memory (max
resident set of the process or any worker). Goals: score < 0.3 s, iaa < 1 s. A second table
splits one run into its phases, measured in-process: start-up imports, reading the files (the
project's readers: JSON and validation of every token), and the scoring itself.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.scoring.generate import generate

FILES = ["gold.jsonl", "system.jsonl"] + [f"annotator{i}.jsonl" for i in range(1, 5)]


def measure(argv: list[str]) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak RSS in MiB) of one run of ``argv``."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {process.stderr.read().decode()}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def phases(directory: Path) -> list[tuple[str, float, float]]:
    """(phase, score seconds, iaa seconds), CPU time in a fresh interpreter."""
    code = f"""
import time
t = time.process_time()
from annotation.domain.formats import read
from annotation.domain.scoring import api
from annotation.domain.scoring.plain import from_topic
import numpy
imports = time.process_time() - t
def load(name):
    return [from_topic(topic) for topic in read("scico", {str(directory)!r} + "/" + name).topics]
t = time.process_time(); gold, system = load("gold.jsonl"), load("system.jsonl"); read_score = time.process_time() - t
t = time.process_time(); api.score_scico(gold, system); compute_score = time.process_time() - t
t = time.process_time(); annotators = [load(f"annotator{{i}}.jsonl") for i in range(1, 5)]; read_iaa = time.process_time() - t
t = time.process_time(); api.iaa(annotators, scheme="scico"); compute_iaa = time.process_time() - t
print(imports, read_score, compute_score, read_iaa, compute_iaa)
"""
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    imports, read_score, compute_score, read_iaa, compute_iaa = map(float, out.stdout.split())
    return [
        ("imports (formats, scoring, numpy)", imports, imports),
        ("read + convert files (CPU, sequential)", read_score, read_iaa),
        ("scoring", compute_score, compute_iaa),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=ROOT / "var" / "bench" / "scoring")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if not all((args.dir / name).exists() for name in FILES):
        generate(args.dir)
    sizes = {name: (args.dir / name).stat().st_size / 2**20 for name in FILES}
    scorer = [sys.executable, "-m", "annotation.domain.scoring"]
    commands = {
        "score": (scorer + ["score", str(args.dir / "gold.jsonl"), str(args.dir / "system.jsonl"), "--format", "scico", "--json"], 0.3),
        "iaa (4 annotators)": (scorer + ["iaa", *(str(args.dir / f"annotator{i}.jsonl") for i in range(1, 5)), "--format", "scico", "--json"], 1.0),
    }
    print(f"files: {args.dir} (gold {sizes['gold.jsonl']:.1f} MiB, system {sizes['system.jsonl']:.1f} MiB, "
          f"annotators {sizes['annotator1.jsonl']:.1f} MiB each; 200 topics); CPUs: {len(os.sched_getaffinity(0))}; "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'command':<20} {'runs':>4} {'wall median':>11} {'wall min':>9} {'CPU median':>10} {'peak MiB':>9} {'goal':>6}  met")
    for name, (argv, goal) in commands.items():
        runs = [measure(argv) for _ in range(args.runs)]
        walls, cpus, peaks = zip(*runs)
        wall = statistics.median(walls)
        print(f"{name:<20} {len(runs):>4} {wall:>10.3f}s {min(walls):>8.3f}s {statistics.median(cpus):>9.3f}s "
              f"{max(peaks):>9.1f} {goal:>5.1f}s  {'yes' if wall < goal else 'no'}")
    print()
    print(f"{'phase (CPU seconds)':<42} {'score':>7} {'iaa':>7}")
    for phase, score_seconds, iaa_seconds in phases(args.dir):
        print(f"{phase:<42} {score_seconds:>7.3f} {iaa_seconds:>7.3f}")


if __name__ == "__main__":
    main()
