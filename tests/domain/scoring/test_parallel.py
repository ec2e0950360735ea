"""parallel.split_map: the results of a serial map, in order, whoever computed them."""

from __future__ import annotations

import os

import pytest

from annotation.domain.scoring import parallel


@pytest.fixture
def two_cpus(monkeypatch):
    monkeypatch.setattr(parallel, "cpu_count", lambda: 2)
    if not hasattr(os, "fork"):
        pytest.skip("no fork here")


def square_with_pid(item: int) -> tuple[int, int]:
    return item * item, os.getpid()


@pytest.mark.parametrize("size", [0, 1, 2, 3, 50, 400])
def test_results_are_the_serial_results_in_order(two_cpus, size):
    results = parallel.split_map(square_with_pid, list(range(size)))
    assert [value for value, _ in results] == [item * item for item in range(size)]


def test_the_work_is_shared_with_a_child(two_cpus):
    def slow(item: int) -> int:
        sum(range(20_000))
        return os.getpid()

    pids = set(parallel.split_map(slow, list(range(400))))
    assert os.getpid() in pids and len(pids) == 2


def test_first_runs_once_in_this_process(two_cpus):
    calls = []
    parallel.split_map(square_with_pid, [1, 2, 3], first=lambda: calls.append(os.getpid()))
    assert calls == [os.getpid()]


def test_what_a_failing_child_leaves_is_computed_here(two_cpus):
    parent = os.getpid()

    def fails_in_child(item: int) -> int:
        if os.getpid() != parent:
            raise RuntimeError("child trouble")
        return item + 1

    assert parallel.split_map(fails_in_child, list(range(20))) == list(range(1, 21))


def test_an_error_surfaces_as_in_a_serial_run(two_cpus):
    def bad(item: int) -> int:
        if item == 7:
            raise ValueError("item 7")
        return item

    with pytest.raises(ValueError, match="item 7"):
        parallel.split_map(bad, list(range(10)))


def test_one_cpu_means_no_child(monkeypatch):
    monkeypatch.setattr(parallel, "cpu_count", lambda: 1)
    assert {pid for _, pid in parallel.split_map(square_with_pid, list(range(10)))} == {os.getpid()}
