"""A linear-chain CRF over tag scores, with the tag scheme's forbidden transitions masked.

Batched over padded sequences (`mask` marks real positions; every sequence has at least one).
The forbidden transitions (an ``I`` after ``O``, say) get a large negative score in training
and in Viterbi decoding, so decoded layers are always well formed. Marginals (how sure the
model is of each tag) come as the gradient of the log partition function.

Speed: the forward algorithm is a product of per-step (tags x tags) matrices in the log
semiring, and that product is associative, so the log partition is a parallel prefix scan:
about log2(time) batched steps instead of one Python step per word (a ChEMU snippet has up
to ~500 words; the loop was most of a training epoch's time). The gold path's score is one
gather. Both give the same numbers as the step-by-step recursion (`log_partition_loop`),
up to float rounding; the scan runs on a GPU, the loop on a CPU (see `log_partition`).
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn

FORBIDDEN = -10_000.0


def log_sum_last(alphas: torch.Tensor, mask: torch.Tensor, end: torch.Tensor) -> torch.Tensor:
    """log Z from every position's forward scores: each sequence's last real one, plus `end`."""
    batch = torch.arange(alphas.shape[0], device=alphas.device)
    return torch.logsumexp(alphas[batch, mask.sum(1) - 1] + end, dim=1)


class CRF(nn.Module):
    def __init__(self, allowed: Sequence[Sequence[bool]], start_allowed: Sequence[bool]) -> None:
        super().__init__()
        count = len(start_allowed)
        self.transitions = nn.Parameter(torch.zeros(count, count))
        self.start = nn.Parameter(torch.zeros(count))
        self.end = nn.Parameter(torch.zeros(count))
        blocked = ~torch.tensor([list(row) for row in allowed], dtype=torch.bool)
        self.register_buffer("transition_mask", blocked.float() * FORBIDDEN)
        start_blocked = ~torch.tensor(list(start_allowed), dtype=torch.bool)
        self.register_buffer("start_mask", start_blocked.float() * FORBIDDEN)

    def _scores(self) -> tuple[torch.Tensor, torch.Tensor]:
        transition_mask: torch.Tensor = self.transition_mask  # type: ignore[assignment]
        start_mask: torch.Tensor = self.start_mask  # type: ignore[assignment]
        return self.transitions + transition_mask, self.start + start_mask

    def log_partition(self, emissions: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """(batch,) log Z; emissions (batch, time, tags), mask (batch, time) bool (right-padded).

        On a GPU the scan (each Python step is a few kernel launches, so ~500 of them per
        batch were the cost); on a CPU the loop, which does ~tags times less arithmetic
        and whose steps are cheap there (measured: 3x faster than the scan for 5 tags)."""
        if emissions.is_cuda:
            return log_sum_last(self.prefix_alphas(emissions), mask, self.end)
        return self.log_partition_loop(emissions, mask)

    def prefix_alphas(self, emissions: torch.Tensor) -> torch.Tensor:
        """(batch, time, tags) forward scores alpha_t for every t (padding ignored: a right-
        padded sequence reads its own at its last real position)."""
        transitions, start = self._scores()
        batch, time, tags = emissions.shape
        # step t's matrix: [i, j] = transition i -> j + emission of j at t; step 0's rows are
        # all the start scores, so every row of a prefix product is alpha_t
        steps = transitions.view(1, 1, tags, tags) + emissions.unsqueeze(2)
        first = (start + emissions[:, 0]).unsqueeze(1).expand(batch, tags, tags)
        steps = torch.cat([first.unsqueeze(1), steps[:, 1:]], dim=1)
        offset = 1
        while offset < time:  # Hillis-Steele inclusive scan
            earlier = steps[:, :-offset]
            later = steps[:, offset:]
            joined = torch.logsumexp(earlier.unsqueeze(-1) + later.unsqueeze(-3), dim=-2)
            steps = torch.cat([steps[:, :offset], joined], dim=1)
            offset *= 2
        return steps[:, :, 0, :]

    def log_partition_loop(self, emissions: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """The same as `log_partition`, one step per position (the reference)."""
        transitions, start = self._scores()
        # one unbind, not `emissions[:, t]` per step: each indexing's backward wrote a whole
        # (batch, time, tags) gradient of zeros but one column, time x time work in all
        steps, real = emissions.unbind(1), mask.unsqueeze(2).unbind(1)
        alpha = start + steps[0]
        for t in range(1, len(steps)):
            step = torch.logsumexp(alpha.unsqueeze(2) + transitions, dim=1) + steps[t]
            alpha = torch.where(real[t], step, alpha)
        return torch.logsumexp(alpha + self.end, dim=1)

    def gold_score(
        self, emissions: torch.Tensor, tags: torch.Tensor, mask: torch.Tensor
    ) -> torch.Tensor:
        transitions, start = self._scores()
        batch = torch.arange(emissions.shape[0], device=emissions.device)
        emitted = emissions.gather(2, tags.unsqueeze(2)).squeeze(2)  # (batch, time)
        moved = transitions[tags[:, :-1], tags[:, 1:]]  # (batch, time - 1)
        real = mask.to(emissions.dtype)
        score = start[tags[:, 0]] + emitted[:, 0]
        score = score + ((moved + emitted[:, 1:]) * real[:, 1:]).sum(dim=1)
        last = tags[batch, mask.sum(1) - 1]
        return score + self.end[last]

    def negative_log_likelihood(
        self, emissions: torch.Tensor, tags: torch.Tensor, mask: torch.Tensor
    ) -> torch.Tensor:
        """Summed over the batch."""
        return (self.log_partition(emissions, mask) - self.gold_score(emissions, tags, mask)).sum()

    def viterbi(self, emissions: torch.Tensor, mask: torch.Tensor) -> list[list[int]]:
        """The best tag sequence of each (unpadded) sequence."""
        transitions, start = self._scores()
        score = start + emissions[:, 0]
        pointers = []
        for t in range(1, emissions.shape[1]):
            total = score.unsqueeze(2) + transitions
            best, pointer = total.max(dim=1)
            step = best + emissions[:, t]
            keep = mask[:, t].unsqueeze(1)
            score = torch.where(keep, step, score)
            # a padded step points every tag at itself, so backtracking passes through it
            same = torch.arange(score.shape[1], device=score.device).expand_as(pointer)
            pointers.append(torch.where(keep, pointer, same))
        score = score + self.end
        paths = []
        lengths = mask.sum(1).tolist()
        last = score.argmax(dim=1).tolist()
        stacked = torch.stack(pointers, dim=1).tolist() if pointers else None
        for row, length in enumerate(lengths):
            tag = last[row]
            path = [tag]
            for t in range(emissions.shape[1] - 2, -1, -1):
                assert stacked is not None
                tag = stacked[row][t][tag]
                path.append(tag)
            path.reverse()
            paths.append(path[:length])
        return paths

    def marginals(self, emissions: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """(batch, time, tags) probability of each tag at each position."""
        with torch.enable_grad():
            scores = emissions.detach().clone().requires_grad_(True)
            (gradient,) = torch.autograd.grad(self.log_partition(scores, mask).sum(), [scores])
        # The gradient of a float32 log-partition is a probability only up to rounding: over a
        # long sentence it came out at 1.000102 in make test, 1.0088 in test_crf.py.
        return gradient.clamp(0.0, 1.0)
