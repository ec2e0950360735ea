"""A linear-chain CRF over tag scores, with the tag scheme's forbidden transitions masked.

Batched over padded sequences (`mask` marks real positions; every sequence has at least one).
The forbidden transitions (an ``I`` after ``O``, say) get a large negative score in training
and in Viterbi decoding, so decoded layers are always well formed. Marginals (how sure the
model is of each tag) come as the gradient of the log partition function.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn

FORBIDDEN = -10_000.0


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
        """(batch,) log Z; emissions (batch, time, tags), mask (batch, time) bool."""
        transitions, start = self._scores()
        alpha = start + emissions[:, 0]
        for t in range(1, emissions.shape[1]):
            step = torch.logsumexp(alpha.unsqueeze(2) + transitions, dim=1) + emissions[:, t]
            alpha = torch.where(mask[:, t].unsqueeze(1), step, alpha)
        return torch.logsumexp(alpha + self.end, dim=1)

    def gold_score(
        self, emissions: torch.Tensor, tags: torch.Tensor, mask: torch.Tensor
    ) -> torch.Tensor:
        transitions, start = self._scores()
        batch = torch.arange(emissions.shape[0], device=emissions.device)
        score = start[tags[:, 0]] + emissions[batch, 0, tags[:, 0]]
        for t in range(1, emissions.shape[1]):
            step = transitions[tags[:, t - 1], tags[:, t]] + emissions[batch, t, tags[:, t]]
            score = score + step * mask[:, t]
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
        return gradient
