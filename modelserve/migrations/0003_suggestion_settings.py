import django.db.models.deletion
from django.db import migrations, models

import modelserve.models


def copy_from_projects(apps, schema_editor):
    """Each project's backend and parameters, as the core's project row held them so far."""
    Project = apps.get_model("annotation", "Project")
    SuggestionSettings = apps.get_model("modelserve", "SuggestionSettings")
    SuggestionSettings.objects.bulk_create(
        SuggestionSettings(
            project_id=project.pk,
            backend=project.suggestion_backend or modelserve.models._default_backend(),
            params=project.suggestion_params or {},
        )
        for project in Project.objects.all()
    )


class Migration(migrations.Migration):
    dependencies = [
        ("annotation", "0003_proposals_by_id"),
        ("modelserve", "0002_run_heartbeat_membership"),
    ]
    # The copy must read the project's columns before the core drops them.
    run_before = [("annotation", "0004_project_suggestion_fields_moved")]

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
        migrations.RunPython(copy_from_projects, migrations.RunPython.noop),
    ]
