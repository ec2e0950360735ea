from django.db import migrations, models


class Migration(migrations.Migration):
    """Decisions name proposals by id: the core no longer points at the suggestions app."""

    dependencies = [
        ("annotation", "0002_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="suggestiondecision",
            name="suggestion",
            field=models.BigIntegerField(db_column="suggestion_id", db_index=True),
        ),
    ]
