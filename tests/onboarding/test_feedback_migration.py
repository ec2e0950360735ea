"""Attempts kept before feedback stopped naming gold's members are rewritten by the migration
into the new feedback: counts and the annotator's own clusters, no gold membership left."""

from __future__ import annotations

import importlib
import json

migration = importlib.import_module("onboarding.migrations.0002_attempts_allowed")

PAIR = ["CNN", "convnet"]
OLD = {
    "mentions": [
        {"mention": 1, "text": "CNN", "cluster": 7, "yours": ["CNN"], "gold": PAIR},
        {
            "mention": 2,
            "text": "convnet",
            "cluster": 8,
            "yours": ["convnet"],
            "gold": PAIR,
        },
        {"mention": 3, "text": "task", "cluster": None, "yours": None, "gold": ["task", "job"]},
        # Alone in a cluster and in none of gold's: alike, not wrong.
        {"mention": 4, "text": "x", "cluster": 9, "yours": ["x"], "gold": None},
    ],
    "missing_edges": [{"parent": ["a"], "child": ["b"], "cluster": None, "mention": None}],
    "extra_edges": [],
    "missing_links": [],
    "extra_links": [],
}
SNAPSHOT = {"clusters": [{"id": 7, "label": "CNN"}, {"id": 8, "label": "convnet"}]}


def test_an_old_diff_becomes_feedback_without_gold():
    new = migration._feedback(OLD, SNAPSHOT)

    assert new["mentions_wrong"] == 3
    assert new["unclustered"] == 1
    assert [(c["label"], c["mixed"], c["split"]) for c in new["clusters"]] == [
        ("CNN", False, True),
        ("convnet", False, True),
    ]
    assert new["missing_edges"] == 1
    assert new["missing_links"] == 0
    assert "gold" not in json.dumps(new)
    assert "job" not in json.dumps(new)  # a gold member the annotator never placed
