"""The suggestion displays and the stored agreement counts are the reporting app's now
(reporting/models.py): their models leave the core's state, and reporting's migration 0001
takes them over with the same tables. Nothing happens in the database: no row moves."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("annotation", "0015_import_job_lifecycle"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="SuggestionShown"),
                migrations.DeleteModel(name="AgreementPair"),
            ],
            database_operations=[],
        ),
    ]
