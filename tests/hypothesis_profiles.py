"""Hypothesis profiles, chosen by the HYPOTHESIS_PROFILE environment variable (default `ci`).

- `ci` (what `make test` and `make test-fast` run): Hypothesis's own example count (100) for
  every test that does not set its own, so the stateful operation test runs 100 random
  sequences (a twentieth of the time: ~5 s where 2,000 took 93 s on an idle machine).
- `deep`: 2,000 examples for the same tests (the stateful test's old budget), for a search
  before a release or after a change to the domain: `HYPOTHESIS_PROFILE=deep make test-fast`.

A test that sets `max_examples` itself keeps its own count in both profiles (those were sized
for what each one checks). No per-example deadline in either: the suite runs on shared, busy
machines, where a deadline flags the machine, not the code.
"""

from __future__ import annotations

import os

from hypothesis import settings

PROFILES = {
    "ci": settings(max_examples=100, deadline=None),
    "deep": settings(max_examples=2000, deadline=None),
}
for name, profile in PROFILES.items():
    settings.register_profile(name, profile)


def load_profile() -> str:
    name = os.environ.get("HYPOTHESIS_PROFILE") or "ci"
    if name not in PROFILES:
        raise ValueError(f"HYPOTHESIS_PROFILE={name!r}: the profiles are {', '.join(PROFILES)}")
    settings.load_profile(name)
    return name
