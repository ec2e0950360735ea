"""The flaky-test runner's selection and its reading of repeated test ids (tests/flaky.py)."""

from tests import flaky, lanes


def test_every_module_the_runner_names_exists():
    missing = [m for m in flaky.DEFAULT_MODULES if not (lanes.TESTS.parent / m).exists()]
    assert missing == []


def test_the_model_worker_modules_are_in_the_selection():
    assert "tests/modelserve/services/test_runs_with_worker.py" in flaky.WORKER_MODULES
    assert "tests/modelserve/services/test_corpus_encoding_worker.py" in flaky.WORKER_MODULES


def test_a_repeated_id_gives_its_run_and_the_test_it_repeats():
    cases = {
        "m.py::t[run-3]": ("3", "m.py::t"),
        "m.py::t[a-run-12]": ("12", "m.py::t[a]"),
        "m.py::t[run-4-b]": ("4", "m.py::t[b]"),
        "m.py::t[a-run-5-b]": ("5", "m.py::t[a-b]"),
        "m.py::t[prerun-5]": ("1", "m.py::t[prerun-5]"),
    }
    for nodeid, expected in cases.items():
        assert (flaky._run(nodeid), flaky._test(nodeid)) == expected, nodeid
