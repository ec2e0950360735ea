"""Benchmark of the stand-alone scorer: ``score`` and ``iaa`` of 4 annotators, as users run them.

    python bench/scoring/run.py [--dir DIR] [--runs 7] [--before COMMIT]

Generates the SciCo-test-sized files (bench/scoring/generate.py, fixed seed) into DIR (default
var/bench/scoring) unless files made by the current generator are there, then runs the
command line in subprocesses and prints, for each command, the median and the minimum of the
wall time, the median CPU time (user + sys) and the peak memory (max resident set). Goal:
score < 0.5 s wall. The commands run alternately, so that all see the same load, and the load
average is printed with the table, since the machine is shared. ``--before COMMIT`` also runs
the scorer of that commit (its ``annotation`` package, extracted with ``git archive``) in the
same rounds, for a before/after comparison on the same files and load.

A first, unmeasured run of each command warms the page cache and writes the bytecode caches
(``PYTHONDONTWRITEBYTECODE``, which some shells here set, is left out of the commands'
environment: an installed scorer has its .pyc files, and compiling the modules anew would add
~50 ms to every run). A second table splits one run into its phases, measured in one process
(CPU seconds): imports, reading the files (JSON, the checks, the scorers' plain annotations),
and the scoring itself.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.smoke import size

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.scoring.generate import generate

FILES = ["gold.jsonl", "system.jsonl"] + [f"annotator{i}.jsonl" for i in range(1, 5)]
STAMP = "generator.sha1"  # which generate.py made the files: a changed generator regenerates them
ENVIRONMENT = {
    name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"
}
GOALS = {"score": 0.5}

PHASES = """
import sys, time
files = sys.argv[1:]
t = time.process_time()
from corefscore.scoring import api, cli
imports = time.process_time() - t
t = time.process_time()
gold, system = cli._read_all(files[:2], "scico")
read_score = time.process_time() - t
t = time.process_time()
api.score_scico(gold, system)
compute_score = time.process_time() - t
t = time.process_time()
annotators = cli._read_all(files[2:], "scico")
read_iaa = time.process_time() - t
t = time.process_time()
api.iaa(annotators, scheme="scico")
compute_iaa = time.process_time() - t
print(imports, read_score, compute_score, read_iaa, compute_iaa)
"""


def generator_stamp() -> str:
    return hashlib.sha1((Path(__file__).parent / "generate.py").read_bytes()).hexdigest()


def ensure_files(directory: Path) -> None:
    stamp = directory / STAMP
    current = all((directory / name).exists() for name in FILES) and stamp.exists()
    if not current or stamp.read_text().strip() != generator_stamp():
        print(f"generating the benchmark files into {directory} ...", flush=True)
        generate(directory, topics=size(200, 4))
        stamp.write_text(generator_stamp() + "\n")


def measure(argv: list[str], cwd: Path) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak RSS in MiB) of one run of ``argv`` in ``cwd`` (which
    decides whose ``annotation`` package ``python -m`` imports)."""
    start = time.perf_counter()
    process = subprocess.Popen(
        argv, cwd=cwd, env=ENVIRONMENT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    assert process.stderr is not None
    errors = process.stderr.read().decode()
    process.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {errors}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def phases(directory: Path) -> list[tuple[str, float, float]]:
    """(phase, score seconds, iaa seconds), CPU time in a fresh interpreter, one process."""
    files = [str(directory / name) for name in FILES]
    out = subprocess.run(
        [sys.executable, "-c", PHASES, *files],
        cwd=ROOT,
        env=ENVIRONMENT,
        capture_output=True,
        text=True,
        check=True,
    )
    imports, read_score, compute_score, read_iaa, compute_iaa = map(float, out.stdout.split())
    return [
        ("imports (reader, scoring)", imports, imports),
        ("read + convert files", read_score, read_iaa),
        ("scoring", compute_score, compute_iaa),
    ]


def extract(commit: str, into: Path) -> Path:
    """The ``annotation`` package of ``commit``, extracted under ``into``."""
    archive = subprocess.run(
        ["git", "archive", commit, "annotation"], cwd=ROOT, capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    default_dir = ROOT / "var" / "bench" / size("scoring", "scoring-smoke")
    parser.add_argument("--dir", type=Path, default=default_dir)
    parser.add_argument("--runs", type=int, default=size(7, 1))
    parser.add_argument("--before", metavar="COMMIT", help="also run the scorer of COMMIT")
    args = parser.parse_args([] if argv is None else argv)  # `python -m bench scoring` passes none
    ensure_files(args.dir)
    sizes = {name: (args.dir / name).stat().st_size / 2**20 for name in FILES}
    scorer = [sys.executable, "-m", "corefscore"]
    commands = {
        "score": [*scorer, "score", *(str(args.dir / name) for name in FILES[:2])],
        "iaa (4 annotators)": [*scorer, "iaa", *(str(args.dir / name) for name in FILES[2:])],
    }
    for command in commands.values():
        command += ["--format", "scico", "--json"]
    print(
        f"files: {args.dir} (gold {sizes['gold.jsonl']:.1f} MiB, "
        f"system {sizes['system.jsonl']:.1f} MiB, annotators {sizes['annotator1.jsonl']:.1f} MiB "
        f"each; 200 topics); CPUs: {len(os.sched_getaffinity(0))}"
    )
    with tempfile.TemporaryDirectory() as before_dir:
        checkouts = {"": ROOT}
        if args.before:
            checkouts[f"{args.before}: "] = extract(args.before, Path(before_dir))
        variants = {
            f"{label}{name}": (command, cwd)
            for label, cwd in checkouts.items()
            for name, command in commands.items()
        }
        for command, cwd in variants.values():  # warm the page cache and the bytecode caches
            measure(command, cwd)
        load_before = os.getloadavg()[0]
        runs: dict[str, list[tuple[float, float, float]]] = {name: [] for name in variants}
        for _ in range(args.runs):
            for name, (command, cwd) in variants.items():
                runs[name].append(measure(command, cwd))
        load_after = os.getloadavg()[0]
    print(f"load average (1 min) {load_before:.2f} before, {load_after:.2f} after the runs")
    width = max(map(len, variants)) + 1
    print(
        f"{'command':<{width}} {'runs':>4} {'wall median':>11} {'wall min':>9} "
        f"{'CPU median':>10} {'peak MiB':>9} {'goal':>6}  met"
    )
    for name in variants:
        walls, cpus, peaks = zip(*runs[name], strict=True)
        wall = statistics.median(walls)
        goal = GOALS.get(name)
        met = f"{goal:>5.1f}s  {'yes' if wall < goal else 'no'}" if goal else ""
        print(
            f"{name:<{width}} {len(walls):>4} {wall:>10.3f}s {min(walls):>8.3f}s "
            f"{statistics.median(cpus):>9.3f}s {max(peaks):>9.1f} {met}"
        )
    print()
    print(f"{'phase (CPU seconds, one process)':<42} {'score':>7} {'iaa':>7}")
    for phase, score_seconds, iaa_seconds in phases(args.dir):
        print(f"{phase:<42} {score_seconds:>7.3f} {iaa_seconds:>7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
