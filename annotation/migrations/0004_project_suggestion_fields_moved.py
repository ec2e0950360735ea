from django.db import migrations


class Migration(migrations.Migration):
    """A project's suggestion backend and parameters now live in the suggestions app
    (modelserve.SuggestionSettings, modelserve 0003). That migration used to copy these
    columns first, ordered before this one by a `run_before`, which made the core depend on
    modelserve; it no longer reads them (see there), so the two are independent."""

    dependencies = [
        ("annotation", "0003_proposals_by_id"),
    ]

    operations = [
        migrations.RemoveField(model_name="project", name="suggestion_backend"),
        migrations.RemoveField(model_name="project", name="suggestion_params"),
    ]
