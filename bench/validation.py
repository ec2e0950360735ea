"""The validation workspace in a real browser on a 2,000-mention validation topic.

Same stack as bench/frontend_bench.py (own PostgreSQL + Redis, Daphne serving the built
frontend, Debian's headless Chromium through Playwright). The topic: 2,000 mentions over 400
documents (bench/big_topic.py's words) in 200 input clusters of 10, each member with a
confidence, imported as a CoRefi upload like any clusters to validate (CoRefi names each
document and carries no other document metadata).

- navigation -> interactive: from the navigation's start to the page's
  `validation-interactive` mark (the first frame after the current mention is on screen).
- decision -> next mention on screen: a capture-phase keydown listener notes the time; a
  requestAnimationFrame loop watches `[data-current-mention]`; once it names another mention,
  a message posted from that frame marks the time after its style, layout and paint. Y
  (accept) and the reason key after X (reject) are measured, one decision at a time.
- the tool's ceiling: a scripted validator with no thinking time presses Y for each next
  mention as soon as the previous one is on screen, for 400 decisions, until every decision is
  saved (the page's "saving" indicator gone and the rows in PostgreSQL); mentions per hour =
  decisions / that wall time.

Targets: interactive < 1.5 s; decision -> next mention p95 < 50 ms.
"""

from __future__ import annotations

import random
import sys
import time

from bench.environment import django_with_services, percentile, signed_in_page
from bench.smoke import size, verdict

MENTIONS = size(2000, 100)
DOCUMENTS = size(400, 20)
CLUSTER_SIZE = 10
NAVIGATIONS = size(5, 1)
ACCEPTS = size(200, 3)
REJECTS = size(60, 3)  # a multiple of 3: the three reasons in turn
CEILING_DECISIONS = size(400, 3)
TARGET_INTERACTIVE_MS = 1500
TARGET_P95_MS = 50

HARNESS = """
() => {
  if (window.__lat) return;
  window.__lat = { results: [], on: false, keys: null };
  const current = () =>
    document.querySelector('[data-current-mention]')?.dataset.currentMention ?? '';
  const after = (fn) => {
    const ch = new MessageChannel(); ch.port1.onmessage = fn; ch.port2.postMessage(0);
  };
  window.addEventListener("keydown", (event) => {
    const lat = window.__lat;
    if (!lat.on || !lat.keys.includes(event.key)) return;
    const t0 = performance.now();
    const before = current();
    const record = { key: event.key, shown: null };
    lat.results.push(record);
    const frame = () => {
      if (record.shown === null && current() !== before) {
        after(() => { record.shown = performance.now() - t0; });
        return;
      }
      if (performance.now() - t0 < 5000) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }, { capture: true });
}
"""


def _validation_topic():
    """The clusters to validate imported as an admin imports them (a CoRefi upload)."""
    from annotation.models import Project
    from bench.big_topic import big_topic_data
    from tests.e2e.data import mention_ids
    from tests.validation.validation_setup import (
        ClusterToValidate,
        corefi_file,
        validation_input_import,
    )

    project = Project.objects.create(name="validation bench", hierarchy=False, validation=True)
    documents, mentions = big_topic_data(mentions=MENTIONS, documents=DOCUMENTS)
    rng = random.Random(16)
    shuffled = list(range(len(mentions)))
    rng.shuffle(shuffled)
    clusters = [
        ClusterToValidate(
            shuffled[i : i + CLUSTER_SIZE],
            f"event {i // CLUSTER_SIZE}",
            [round(rng.random(), 3) for _ in range(CLUSTER_SIZE)],
        )
        for i in range(0, len(shuffled), CLUSTER_SIZE)
    ]
    corefi = corefi_file(
        documents=documents,
        mentions=mentions,
        clusters=clusters,
        doc_names=[f"paper-{d // 2}" for d in range(len(documents))],
    )
    topic = validation_input_import(project, "validation-bench", corefi)
    return topic, mention_ids(topic)


def _navigate(page, url: str) -> float:
    page.goto(url)
    page.wait_for_selector("html[data-validation-ready='true']", timeout=30_000)
    return page.evaluate(
        "() => performance.getEntriesByName('validation-interactive')[0].startTime"
    )


def _measure(page, presses: list[list[str]]) -> list[float]:
    """Each item: the keys of one decision; the last key's time to the next mention counts."""
    page.evaluate(HARNESS)
    start = page.evaluate("() => window.__lat.results.length")
    for measured, keys in enumerate(presses):
        for key in keys[:-1]:
            page.keyboard.press(key)
        page.evaluate(f"() => {{ window.__lat.on = true; window.__lat.keys = ['{keys[-1]}']; }}")
        page.keyboard.press(keys[-1])
        page.wait_for_function(
            "i => { const r = window.__lat.results[i]; return r && r.shown !== null; }",
            arg=start + measured,
            timeout=10_000,
            polling=5,
        )
        page.evaluate("() => { window.__lat.on = false; }")
        page.wait_for_timeout(15)
    return page.evaluate("s => window.__lat.results.slice(s).map(r => r.shown)", start)


def _saved(page, annotation_id: int, expected: int) -> None:
    from annotation.models import ValidationDecision

    page.wait_for_function(
        "() => !document.querySelector('[data-progress]').textContent.includes('saving')",
        timeout=120_000,
        polling=20,
    )
    stored = ValidationDecision.objects.filter(annotation_id=annotation_id).count()
    if stored != expected:
        raise SystemExit(f"{stored} decisions stored, {expected} expected")


def _ceiling(page, annotation_id: int) -> tuple[float, int]:
    """A scripted validator: Y as soon as the next mention is on screen; time until saved."""
    current = "() => document.querySelector('[data-current-mention]')?.dataset.currentMention"
    started = time.monotonic()
    for _ in range(CEILING_DECISIONS):
        before = page.evaluate(current)
        page.keyboard.press("y")
        page.wait_for_function(f"b => ({current})() !== b", arg=before, timeout=10_000, polling=2)
    _saved(page, annotation_id, CEILING_DECISIONS)
    return time.monotonic() - started, CEILING_DECISIONS


def _row(name: str, values: list[float], target: float | None = None) -> str:
    p50, p95 = percentile(values, 50), percentile(values, 95)
    verdict = "" if target is None else ("ok" if p95 < target else "OVER")
    return f"{name:<48} {len(values):>5} {p50:>8.1f} {p95:>8.1f} {max(values):>8.1f}  {verdict}"


def main() -> int:
    services = django_with_services()
    try:
        from tests.e2e.server import require_frontend
        from tests.factories import UserFactory, assign

        require_frontend()
        topic, ids = _validation_topic()
        measured_user = UserFactory(username="bench-validator")
        _, annotation = assign(topic, measured_user)
        ceiling_user = UserFactory(username="bench-scripted")
        _, ceiling_annotation = assign(topic, ceiling_user)

        with signed_in_page(services, measured_user) as page:
            url = f"/validate/annotations/{annotation.pk}"
            navigations = [_navigate(page, url) for _ in range(NAVIGATIONS)]
            accepts = _measure(page, [["y"]] * ACCEPTS)
            rejects = _measure(page, [["x", "1"], ["x", "2"], ["x", "3"]] * (REJECTS // 3))
            _saved(page, annotation.pk, ACCEPTS + REJECTS)
            version = page.context.browser.version
        with signed_in_page(services, ceiling_user) as page:
            _navigate(page, f"/validate/annotations/{ceiling_annotation.pk}")
            seconds, decided = _ceiling(page, ceiling_annotation.pk)

        print(
            f"topic: {len(ids)} mentions over {DOCUMENTS} documents in "
            f"{MENTIONS // CLUSTER_SIZE} clusters to validate; Chromium {version} headless; "
            "Daphne + PostgreSQL + Redis on this machine"
        )
        print(f"{'measure (ms)':<48} {'n':>5} {'p50':>8} {'p95':>8} {'max':>8}")
        print(_row("navigation -> interactive", navigations, TARGET_INTERACTIVE_MS))
        print(f"{'  (first navigation, cold cache)':<48} {'':>5} {navigations[0]:>8.1f}")
        print(_row("Y: accepted, next mention on screen", accepts, TARGET_P95_MS))
        print(_row("X then 1-3: rejected, next mention on screen", rejects, TARGET_P95_MS))
        decisions = accepts + rejects
        print(_row("every decision -> next mention", decisions, TARGET_P95_MS))
        per_hour = decided / seconds * 3600
        print(
            f"tool ceiling: a scripted validator decided {decided} mentions in {seconds:.1f} s "
            f"(all saved): {per_hour:,.0f} mentions per hour (WEC's validator: 350 an hour)"
        )
        ok = (
            percentile(navigations, 95) < TARGET_INTERACTIVE_MS
            and percentile(decisions, 95) < TARGET_P95_MS
        )
        return verdict(ok)
    finally:
        services.stop()


if __name__ == "__main__":
    sys.exit(main())
