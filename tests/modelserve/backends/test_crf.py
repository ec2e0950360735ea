"""The CRF's scores against brute force: every path of short sequences enumerated. The log
partition has two ways to compute it (a parallel scan on a GPU, a loop on a CPU, for
faster epochs); both must give the same numbers and gradients, padding included."""

from __future__ import annotations

import itertools

import pytest
import torch

from modelserve.backends import biohd
from modelserve.backends.crf import CRF, log_sum_last

TAGS = len(biohd.TAGS)


@pytest.fixture
def crf():
    torch.manual_seed(0)
    model = CRF(biohd.ALLOWED, biohd.START_ALLOWED)
    with torch.no_grad():
        for parameter in (model.transitions, model.start, model.end):
            parameter.normal_()
    return model


def path_score(crf, emissions, path):
    """A path's score written out term by term."""
    transitions, start = crf._scores()
    score = start[path[0]] + emissions[0, path[0]]
    for before, tag, row in zip(path, path[1:], emissions[1:], strict=False):
        score = score + transitions[before, tag] + row[tag]
    return score + crf.end[path[-1]]


def test_the_gold_score_and_the_log_partition_match_every_path_written_out(crf):
    torch.manual_seed(1)
    emissions = torch.randn(3, 4, TAGS)
    lengths = [4, 2, 1]  # right-padded
    mask = torch.arange(4)[None, :] < torch.tensor(lengths)[:, None]
    for row, length in enumerate(lengths):
        paths = list(itertools.product(range(TAGS), repeat=length))
        by_hand = torch.stack([path_score(crf, emissions[row, :length], p) for p in paths])
        padded = torch.tensor([list(p) + [0] * (4 - length) for p in paths])
        batch = emissions[row : row + 1].expand(len(paths), -1, -1)
        rows_mask = mask[row : row + 1].expand(len(paths), -1)
        torch.testing.assert_close(crf.gold_score(batch, padded, rows_mask), by_hand)
        expected = torch.logsumexp(by_hand, dim=0)
        torch.testing.assert_close(crf.log_partition(emissions, mask)[row], expected)
        scan = log_sum_last(crf.prefix_alphas(emissions), mask, crf.end)[row]
        torch.testing.assert_close(scan, expected)


def test_the_scan_and_the_loop_agree_in_value_and_gradient_on_long_padded_batches(crf):
    torch.manual_seed(2)
    emissions = torch.randn(6, 77, TAGS, requires_grad=True)
    mask = torch.arange(77)[None, :] < torch.tensor([77, 50, 33, 5, 1, 64])[:, None]

    loop = crf.log_partition_loop(emissions, mask)
    scan = log_sum_last(crf.prefix_alphas(emissions), mask, crf.end)
    (loop_gradient,) = torch.autograd.grad(loop.sum(), [emissions])
    (scan_gradient,) = torch.autograd.grad(scan.sum(), [emissions])

    torch.testing.assert_close(scan, loop, rtol=1e-5, atol=1e-3)
    torch.testing.assert_close(scan_gradient, loop_gradient, rtol=1e-4, atol=1e-4)


def test_marginals_of_long_sequences_are_probabilities(crf):
    """Long float32 sequences round the log-partition's gradient past 1 (1.0088 here before
    the clamp); a mention's score is their mean and must stay within [0, 1]."""
    torch.manual_seed(1)
    emissions = torch.randn(8, 600, TAGS) * 20
    marginals = crf.marginals(emissions, torch.ones(8, 600, dtype=torch.bool))
    assert marginals.min().item() >= 0.0
    assert marginals.max().item() <= 1.0
    assert torch.allclose(marginals.sum(-1), torch.ones(8, 600), atol=0.05)
