from django.conf import settings
from django.db import migrations, models


def fail_extra_active_runs(apps, schema_editor):
    """Before the constraint: of a user's queued or running runs of one topic, the newest stays;
    the older ones (asked for twice before the limit) are marked failed."""
    SuggestionRun = apps.get_model("modelserve", "SuggestionRun")
    newest: set[tuple[int, int]] = set()
    extra = []
    for run in (
        SuggestionRun.objects.filter(status__in=["queued", "running"], requested_by__isnull=False)
        .order_by("-created_at", "-pk")
        .only("pk", "topic_id", "requested_by_id")
    ):
        key = (run.topic_id, run.requested_by_id)
        if key in newest:
            extra.append(run.pk)
        newest.add(key)
    SuggestionRun.objects.filter(pk__in=extra).update(
        status="failed", message="superseded by a newer run of the same user"
    )


class Migration(migrations.Migration):
    dependencies = [
        ("annotation", "0005_project_refuse_duplicate_link_pairs"),
        ("modelserve", "0003_suggestion_settings"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(fail_extra_active_runs, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="suggestionrun",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status__in", ["queued", "running"])),
                fields=("topic", "requested_by"),
                name="run_one_active_per_topic_and_user",
            ),
        ),
    ]
