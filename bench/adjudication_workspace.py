"""The adjudication workspace in a real browser: a 1,000-mention topic over 200 documents with
5 submitted annotations (each annotator perturbs a hidden gold: about 8% of the mentions moved
to another cluster, some edges dropped), adjudicated from their consensus.

Measures, like bench/frontend_bench.py (Daphne + PostgreSQL + Redis + headless Chromium):
- navigation -> interactive: from the start of the navigation to the later of the page's
  `workspace-interactive` mark (the current mention on screen, keys handled) and its
  `adjudication-ready` mark (the annotators' versions loaded, aligned and counted: the counter
  of disagreements on screen). 5 navigations.
- N -> the next disagreement on screen: keydown to the first frame whose DOM shows the new
  current item (its description and the current mention), >= 120 presses.

Targets: interactive < 1.5 s; N p95 < 50 ms.

`main()` starts its own servers; `main(services)` runs on servers (and a Django) already set up
by the caller (bench/adjudication.py).
"""

from __future__ import annotations

import random
import sys
from itertools import pairwise

from bench.environment import django_with_services, percentile, signed_in_page
from bench.frontend_bench import HARNESS, _press_and_measure, _row
from bench.smoke import verdict

ANNOTATORS = 5
NAVIGATIONS = 5
PRESSES = 120
TARGET_INTERACTIVE_MS = 1500
TARGET_NEXT_P95_MS = 50

# The browser bench's harness, deaf to modifier keys (Shift+N's Shift is a keydown of its own).
MODIFIERS_IGNORED = HARNESS.replace(
    "const lat = window.__lat;",
    'if (["Shift", "Control", "Alt", "Meta"].includes(event.key)) return;\n'
    "    const lat = window.__lat;",
    1,
)
ITEM_PROBE = """() => {
  const item = document.querySelector('[data-adjudication-item]')?.dataset.item ?? '';
  const current = document.querySelector('.m.is-current')?.dataset.mention ?? '';
  return item + '@' + current;
}"""


def _hidden_gold(mention_ids: list[int], rng: random.Random) -> tuple[list[list[int]], list]:
    """About 250 clusters of 1-7 mentions, and a hierarchy over the first 60 of them."""
    clusters: list[list[int]] = []
    at = 0
    while at < len(mention_ids):
        size = rng.randint(1, 7)
        clusters.append(mention_ids[at : at + size])
        at += size
    edges = list(pairwise(range(20))) + [(i % 20, i) for i in range(20, 60)]
    return clusters, edges


def _perturbed(gold: list[list[int]], edges: list, rng: random.Random):
    clusters = [list(c) for c in gold]
    for cluster in clusters:
        for mention in list(cluster):
            if rng.random() < 0.08 and len(cluster) > 1:
                cluster.remove(mention)
                rng.choice(clusters).append(mention)
    kept = [edge for edge in edges if rng.random() > 0.1]
    return clusters, kept


def _write_annotation(annotation, clusters: list[list[int]], edges: list) -> None:
    """One logged operation that builds the annotation (as an import does)."""
    from annotation.infra.effects_sql import effects_write
    from annotation.models import Annotation, Operation
    from annotation.services.operations import _new_id

    ids = {i: _new_id("cluster") for i, members in enumerate(clusters) if members}
    effects = [
        {"e": "cluster_created", "cluster": cid, "label": f"concept {i}", "note": ""}
        for i, cid in ids.items()
    ]
    effects += [
        {"e": "member_set", "mention": m, "old": None, "new": ids[i]}
        for i, members in enumerate(clusters)
        for m in members
    ]
    effects += [
        {"e": "edge_added", "parent": ids[p], "child": ids[c]}
        for p, c in edges
        if p in ids and c in ids
    ]
    effects_write(annotation_id=annotation.pk, topic_id=annotation.topic_id, effects=effects)
    Operation.objects.create(
        annotation=annotation,
        version=1,
        kind="do",
        name="import",
        payload={"op": "import"},
        effects=effects,
    )
    Annotation.objects.filter(pk=annotation.pk).update(version=1)


def _set_up():
    from django.utils import timezone

    from adjudication.services.adjudications import create_adjudication
    from annotation.models import Assignment, Project
    from bench.big_topic import create_big_topic
    from tests.e2e.data import mention_ids
    from tests.factories import UserFactory, assign

    rng = random.Random(14)
    project = Project.objects.create(name="adjudication workspace bench", hierarchy=True)
    topic = create_big_topic(
        project, mentions=1000, documents=200, external_id="adjudication-bench"
    )
    ids = mention_ids(topic)
    gold, edges = _hidden_gold(ids, rng)
    for n in range(ANNOTATORS):
        assignment, annotation = assign(topic, UserFactory(username=f"annotator-{n + 1}"))
        _write_annotation(annotation, *_perturbed(gold, edges, rng))
        Assignment.objects.filter(pk=assignment.pk).update(
            status=Assignment.Status.SUBMITTED, submitted_at=timezone.now()
        )
    judge = UserFactory(username="bench-adjudicator")
    assignment = create_adjudication(topic=topic, user=judge, seed="consensus")
    return judge, assignment, len(ids)


def _navigate(page, url: str) -> float:
    page.goto(url)
    page.wait_for_selector("html[data-workspace-ready='true']", timeout=30_000)
    page.wait_for_selector("html[data-adjudication-ready='true']", timeout=30_000)
    return page.evaluate(
        "() => Math.max(...['workspace-interactive', 'adjudication-ready']"
        ".map((name) => performance.getEntriesByName(name)[0].startTime))"
    )


def run(services) -> int:
    from tests.e2e.server import require_frontend

    require_frontend()  # before the set-up, not after
    judge, assignment, mentions = _set_up()
    with signed_in_page(services, judge) as page:
        navigations = [_navigate(page, f"/annotate/{assignment.pk}") for _ in range(NAVIGATIONS)]
        remaining = int(page.locator("[data-adjudication-remaining]").inner_text())
        page.evaluate(MODIFIERS_IGNORED)
        page.keyboard.press("Escape")
        next_times, _ = _press_and_measure(page, "n", ITEM_PROBE, count=PRESSES)
        previous_times, _ = _press_and_measure(page, "Shift+N", ITEM_PROBE, count=PRESSES // 2)
        # The same harness on J (next mention, as the workspace bench) tells load from our cost.
        j_times, _ = _press_and_measure(page, "j", ITEM_PROBE, count=PRESSES // 2)
        alerts = page.evaluate("() => document.querySelectorAll('.notice-alert').length")
        version = page.context.browser.version
    print(
        f"topic: {mentions} mentions over 200 documents, {ANNOTATORS} submitted annotations, "
        f"consensus seed; {remaining} disagreements; Chromium {version} headless"
    )
    print(f"{'measure (ms)':<52} {'n':>5} {'p50':>8} {'p95':>8} {'max':>8}")
    print(
        _row("navigation -> adjudication workspace interactive", navigations, TARGET_INTERACTIVE_MS)
    )
    print(f"{'  (first navigation, cold cache)':<52} {'':>5} {navigations[0]:>8.1f}")
    print(_row("N: next disagreement on screen", next_times, TARGET_NEXT_P95_MS))
    print(_row("Shift+N: previous disagreement on screen", previous_times, TARGET_NEXT_P95_MS))
    print(_row("J: next mention (the same harness, for comparison)", j_times))
    print(f"alerts shown: {alerts}")
    ok = (
        percentile(navigations, 95) < TARGET_INTERACTIVE_MS
        and percentile(next_times, 95) < TARGET_NEXT_P95_MS
        and alerts == 0
    )
    return verdict(ok)


def main(services=None) -> int:
    if services is not None:
        return run(services)
    own = django_with_services()
    try:
        return run(own)
    finally:
        own.stop()


if __name__ == "__main__":
    sys.exit(main())
