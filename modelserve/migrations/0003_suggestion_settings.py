import django.db.models.deletion
from django.db import migrations, models

import modelserve.models


def settings_for_projects(apps, schema_editor):
    """Every existing project gets its settings row, with the default backend.

    This used to copy the backend and parameters from the core's project row, ordered before
    annotation 0004 (which drops those columns) by a `run_before`: that made the core's
    migrations depend on this app. Every database that held such columns has run both (the
    oldest we upgrade from is annotation 0005 with modelserve 0004:
    tests/integration/test_upgrade.py), so here only the project ids are read, which works in
    either order."""
    Project = apps.get_model("annotation", "Project")
    SuggestionSettings = apps.get_model("modelserve", "SuggestionSettings")
    SuggestionSettings.objects.bulk_create(
        SuggestionSettings(project_id=pk, backend=modelserve.models._default_backend(), params={})
        for pk in Project.objects.values_list("pk", flat=True)
    )


class Migration(migrations.Migration):
    dependencies = [
        ("annotation", "0003_proposals_by_id"),
        ("modelserve", "0002_run_heartbeat_membership"),
    ]

    operations = [
        migrations.CreateModel(
            name="SuggestionSettings",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "backend",
                    models.CharField(default=modelserve.models._default_backend, max_length=50),
                ),
                ("params", models.JSONField(blank=True, default=dict)),
                (
                    "project",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="suggestion_settings",
                        to="annotation.project",
                    ),
                ),
            ],
        ),
        migrations.RunPython(settings_for_projects, migrations.RunPython.noop),
    ]
