# The learnt model version an evaluation scored (the admin Models page: docs/models.md).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("modelserve", "0007_model_evaluation"),
    ]

    operations = [
        migrations.AddField(
            model_name="modelevaluation",
            name="version",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="evaluations",
                to="modelserve.modelversion",
            ),
        ),
    ]
