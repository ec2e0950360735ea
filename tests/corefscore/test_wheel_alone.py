"""The scorer is a library a researcher installs alone: the corefscore wheel, built from the
checkout, installs into a fresh virtual environment (no system site packages, no index, only
the wheels of its own dependencies), holds none of the application and none of its
frameworks, and there scores the golden cases and the demo files as the checkout's scorer
does, converts a file, and answers its Python API.

The dependencies' wheels are downloaded at install time by `make scorer-wheels` (the versions
of the project's environment) into var/wheels/corefscore; nothing is downloaded here. pip's
configuration and its environment variables (an index, find-links, constraints) are left out,
as on a researcher's machine.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import corefscore
from tests.corefapp.test_wheel import first_party_packages
from tests.corefscore.metrics.test_golden_cases import cases, value
from tests.paths import CHEMU_DEMO, DEMO, REPO

WHEELS = REPO / "var" / "wheels" / "corefscore"
FRAMEWORKS = ("django", "rest_framework", "celery", "channels", "torch", "transformers")
GOLD, A, B = (DEMO / f"scico_demo{s}.jsonl" for s in ("", "_annotator_a", "_annotator_b"))
# Computed in the fresh environment: every coreference golden case's counts.
GOLDEN_SCRIPT = """
import json, sys
from corefscore.metrics.coreference import conll_f1, coreference_counts
cases = json.loads(sys.stdin.read())
out = []
for keep, key, response in cases:
    counts = coreference_counts(key, response, keep_singletons=keep)
    prf = {name: [c.precision, c.recall] for name, c in counts.items()}
    out.append({**prf, "conll_f1": conll_f1(counts)})
print(json.dumps(out))
"""


class Fresh:
    """The fresh environment: its interpreter, run from a folder outside the checkout with no
    PYTHONPATH (the checkout's scorer must not be what answers)."""

    def __init__(self, venv: Path, work: Path):
        self.python = venv / "bin" / "python"
        self.work = work
        self.env = {
            "PATH": os.environ["PATH"],
            "HOME": str(work),
            "PYTHONNOUSERSITE": "1",
            "PIP_CONFIG_FILE": os.devnull,
            "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        }

    def run(self, *args: str | Path, stdin: str | None = None) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(self.python), *map(str, args)],
            cwd=self.work,
            env=self.env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )


def in_repo(*args: str | Path) -> subprocess.CompletedProcess:
    """The checkout's scorer (this session's corefscore), for the figures to compare with."""
    return subprocess.run(
        [sys.executable, "-m", "corefscore", *map(str, args)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    if not (WHEELS / ".downloaded").exists():
        pytest.fail(
            "var/wheels/corefscore holds no wheels of the scorer's dependencies: run "
            "`make scorer-wheels`",
            pytrace=False,
        )
    # Built from a copy (tracked and new files, as git sees them): setuptools writes build/
    # and an .egg-info beside the sources.
    source = tmp_path_factory.mktemp("scorer-source")
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z", "scorer"],
        cwd=REPO,
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    for name in filter(None, (entry.decode() for entry in listed)):
        if (REPO / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, source / name)
    out = tmp_path_factory.mktemp("scorer-wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation"]
        + ["--wheel-dir", str(out), str(source / "scorer")],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (built,) = out.glob("corefscore-*.whl")
    return built


@pytest.fixture(scope="module")
def fresh(wheel, tmp_path_factory) -> Fresh:
    root = tmp_path_factory.mktemp("fresh")
    venv, work = root / "venv", root / "work"
    work.mkdir()
    subprocess.run(
        [sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True, timeout=300
    )
    env = Fresh(venv, work)
    installed = env.run(
        "-m", "pip", "install", "--quiet", "--no-index", "--find-links", WHEELS, wheel
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return env


def test_the_wheel_installs_alone_with_no_framework_and_no_app(fresh, wheel):
    names = [*FRAMEWORKS, *sorted(first_party_packages())]
    found = fresh.run(
        "-c",
        "import importlib.util, json, sys, corefscore\n"
        f"names = {names!r}\n"
        "base = [p for p in sys.path if p.startswith(sys.base_prefix) and 'site-packages' in p]\n"
        "print(json.dumps({'found': [n for n in names if importlib.util.find_spec(n)],"
        " 'corefscore': corefscore.__file__, 'prefix': sys.prefix, 'system_site': base}))",
    )
    assert found.returncode == 0, found.stderr
    where = json.loads(found.stdout)
    assert where["found"] == []
    assert where["corefscore"].startswith(where["prefix"])  # the wheel's copy, not the checkout
    assert where["system_site"] == []  # no system site packages
    assert len(first_party_packages()) >= 8  # the check names the apps it means to miss

    listed = fresh.run("-m", "pip", "list", "--format=json")
    versions = {
        p["name"].lower().replace("_", "-"): p["version"] for p in json.loads(listed.stdout)
    }
    installed = set(versions)
    wheelhouse = {w.name.split("-")[0].lower().replace("_", "-") for w in WHEELS.glob("*.whl")}
    # Nothing but the scorer, its dependencies and the venv's own pip.
    assert installed - wheelhouse - {"pip", "setuptools"} == {"corefscore"}
    listing = ", ".join(f"{name} {version}" for name, version in sorted(versions.items()))
    print(f"\nwheel {wheel.name}: {wheel.stat().st_size:,} bytes; fresh venv: {listing}")


def test_the_golden_coreference_cases_score_as_computed_by_hand(fresh):
    golden = [param.values for param in cases("coreference")]  # fixtures/golden/coreference_*
    inputs = [
        (case.get("keep_singletons", document["keep_singletons"]), case["key"], case["response"])
        for document, case in golden
    ]

    scored = fresh.run("-c", GOLDEN_SCRIPT, stdin=json.dumps(inputs))

    assert scored.returncode == 0, scored.stderr
    results = json.loads(scored.stdout)
    assert len(results) == len(golden) >= 20
    for (_, case), got in zip(golden, results, strict=True):
        for name, expected in case["expected"].items():
            if name == "conll_f1":
                assert got[name] == pytest.approx(value(expected), rel=1e-12, abs=1e-15)
            else:
                want = [value(e) for e in expected]
                assert got[name] == pytest.approx(want, rel=1e-12, abs=1e-15), case["name"]


@pytest.mark.parametrize(
    "args",
    [
        ("score", GOLD, A, "--format", "scico", "--json", "--intervals"),
        ("score", GOLD, B, "--format", "scico", "--per-topic", "--level", "corpus"),
        ("iaa", A, B, GOLD, "--format", "scico", "--json", "--names", "a,b,gold"),
        ("iaa", A, B, "--format", "scico"),
    ],
    ids=["score-json", "score-table", "iaa-json", "iaa-table"],
)
def test_the_command_line_scores_the_demo_files_as_the_checkouts_scorer(fresh, args):
    there, here = fresh.run("-m", "corefscore", *args), in_repo(*args)

    assert there.returncode == here.returncode == 0, there.stderr + here.stderr
    assert there.stdout == here.stdout
    assert there.stderr == here.stderr
    assert "F1" in there.stdout or "conll_f1" in there.stdout


def test_chemu_scores_and_converts_as_the_checkouts_scorer(fresh, tmp_path):
    system = tmp_path / "system.jsonlines"
    lines = [json.loads(line) for line in CHEMU_DEMO.read_text().splitlines()]
    for line in lines:  # a system that misses some links and gets one wrong
        line["Work-up"] = line["Work-up"][::2]
        line["Coreference"] = line["Coreference"][1:]
    system.write_text("".join(json.dumps(line) + "\n" for line in lines))
    args = ("score", CHEMU_DEMO, system, "--format", "chemu", "--json")
    # the table adds Krippendorff's alpha of all annotators (the krippendorff package)
    agreement = ("iaa", CHEMU_DEMO, system, "--format", "chemu")

    there, here = fresh.run("-m", "corefscore", *args), in_repo(*args)
    agreed_there, agreed_here = fresh.run("-m", "corefscore", *agreement), in_repo(*agreement)
    to_brat = ("convert", CHEMU_DEMO, "--from", "chemu", "--to", "brat")
    converted = [
        fresh.run("-m", "corefscore", *to_brat[:2], tmp_path / "fresh", *to_brat[2:]),
        in_repo(*to_brat[:2], tmp_path / "repo", *to_brat[2:]),
    ]

    assert there.returncode == 0, there.stderr
    assert there.stdout == here.stdout
    assert 0 < json.loads(there.stdout)["exact"]["overall"]["recall"] < 1
    assert agreed_there.returncode == 0, agreed_there.stderr
    assert agreed_there.stdout == agreed_here.stdout
    assert "alpha" in agreed_there.stdout
    assert [c.returncode for c in converted] == [0, 0], [c.stderr for c in converted]
    files = sorted(p.name for p in (tmp_path / "repo").iterdir())
    assert len(files) == 16  # eight snippets, a .txt and an .ann each
    assert sorted(p.name for p in (tmp_path / "fresh").iterdir()) == files
    for name in files:
        assert (tmp_path / "fresh" / name).read_bytes() == (tmp_path / "repo" / name).read_bytes()


def test_the_python_api_there_gives_what_it_gives_here(fresh):
    script = (
        "import json, sys, corefscore\n"
        "result = corefscore.score(sys.argv[1], sys.argv[2], format='scico', per_topic=True)\n"
        "print(json.dumps(result))\n"
    )

    there = fresh.run("-c", script, GOLD, A)

    assert there.returncode == 0, there.stderr
    assert json.loads(there.stdout) == json.loads(
        json.dumps(corefscore.score(GOLD, A, format="scico", per_topic=True))
    )
