from django.db import migrations


class Migration(migrations.Migration):
    """A project's suggestion backend and parameters now live in the suggestions app
    (modelserve.SuggestionSettings, whose migration copies them first: its `run_before`)."""

    dependencies = [
        ("annotation", "0003_proposals_by_id"),
    ]

    operations = [
        migrations.RemoveField(model_name="project", name="suggestion_backend"),
        migrations.RemoveField(model_name="project", name="suggestion_params"),
    ]
