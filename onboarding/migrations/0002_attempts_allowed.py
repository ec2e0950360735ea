"""A cap on scored attempts, and attempts' feedback without gold's answer.

Attempts kept before this stored a diff that listed gold's cluster of every mention (and
gold's edges and links), which the annotator's results showed: rewritten into the feedback
that names only what was wrong in the annotator's own work (onboarding/scores.py: diff).
"""

from django.db import migrations, models


def _label(snapshot: dict, cluster_id) -> str:
    for cluster in snapshot.get("clusters") or []:
        if cluster.get("id") == cluster_id:
            return cluster.get("label") or f"cluster #{cluster_id}"
    return f"cluster #{cluster_id}"


def _feedback(old: dict, snapshot: dict) -> dict:
    entries = old.get("mentions") or []
    wrong, unclustered = 0, 0
    clusters: dict[int, dict] = {}
    for entry in entries:
        yours, gold = set(entry.get("yours") or []), set(entry.get("gold") or [])
        alone = {entry.get("text")}
        if (yours or alone) == (gold or alone):
            continue
        wrong += 1
        if not yours and gold:
            unclustered += 1
        cluster = entry.get("cluster")
        if cluster is None:
            continue
        row = clusters.setdefault(
            cluster,
            {
                "cluster": cluster,
                "label": _label(snapshot, cluster),
                "size": len(yours),
                "mixed": False,
                "split": False,
                "mention": entry.get("mention"),
            },
        )
        row["mixed"] = row["mixed"] or not yours <= (gold or alone)
        row["split"] = row["split"] or not (gold or alone) <= yours
    return {
        "mentions_wrong": wrong,
        "unclustered": unclustered,
        "clusters": list(clusters.values()),
        "missing_edges": len(old.get("missing_edges") or []),
        "extra_edges": [
            {
                "parent": ", ".join(e.get("parent") or []),
                "child": _label(snapshot, e.get("cluster")),
                "cluster": e.get("cluster"),
                "mention": e.get("mention"),
            }
            for e in old.get("extra_edges") or []
        ],
        "missing_links": len(old.get("missing_links") or []),
        "extra_links": list(old.get("extra_links") or []),
    }


def forwards(apps, schema_editor):
    Attempt = apps.get_model("onboarding", "PracticeAttempt")
    for attempt in Attempt.objects.all().iterator():
        if isinstance(attempt.diff.get("mentions"), list):
            attempt.diff = _feedback(attempt.diff, attempt.snapshot or {})
            attempt.save(update_fields=["diff"])


class Migration(migrations.Migration):
    dependencies = [
        ("onboarding", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="qualificationrule",
            name="attempts_allowed",
            field=models.PositiveIntegerField(
                blank=True,
                default=3,
                help_text="scored attempts per annotator; null: no limit",
                null=True,
            ),
        ),
        # Not reversible into the old diff: gold's answer is not to be written back.
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
