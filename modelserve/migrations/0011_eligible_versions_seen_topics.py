"""Learnt versions get the eligibility rule (docs/learning.md) and the topics they were
trained on; evaluations the topics their model saw; a project may serve its base model.

Versions trained before: judged by the rule's default minimum (10 held-out topics) on the
figures they have; those with no comparison with what served are not eligible (the first
version of a project was compared with nothing). Their training topics are unknown: [].
"""

from django.db import migrations, models

MIN_HOLDOUT = 10  # LEARN_MIN_HELDOUT_TOPICS's default when this migration was written


def judge_old_versions(apps, schema_editor):
    ModelVersion = apps.get_model("modelserve", "ModelVersion")
    for version in ModelVersion.objects.all():
        if version.holdout_topics < MIN_HOLDOUT:
            reason = (
                f"{version.holdout_topics} held-out topics, not eligible "
                f"(at least {MIN_HOLDOUT} needed)"
            )
            eligible = False
        elif version.score is None or version.previous_score is None:
            reason = "trained before the eligibility rule, never compared: not eligible"
            eligible = False
        else:
            eligible = version.score >= version.previous_score
            reason = "eligible" if eligible else "worse than the version before: not eligible"
        version.eligible = eligible
        version.eligibility = reason
        version.compared_with = "the version serving before it"
        version.save(update_fields=["eligible", "eligibility", "compared_with"])


class Migration(migrations.Migration):
    dependencies = [
        ("modelserve", "0010_job_lifecycle"),
    ]

    operations = [
        migrations.AddField(
            model_name="modelevaluation",
            name="include_trained",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="modelevaluation",
            name="seen_topics",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="modelversion",
            name="compared_with",
            field=models.CharField(blank=True, max_length=200),
        ),
        migrations.AddField(
            model_name="modelversion",
            name="degenerate",
            field=models.CharField(blank=True, help_text='"": not degenerate', max_length=200),
        ),
        migrations.AddField(
            model_name="modelversion",
            name="eligibility",
            field=models.CharField(blank=True, max_length=500),
        ),
        migrations.AddField(
            model_name="modelversion",
            name="eligible",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="modelversion",
            name="trained_topics",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="suggestionsettings",
            name="serve_base",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(judge_old_versions, migrations.RunPython.noop),
    ]
