"""The reporting app takes over two of the core's tables (annotation migrations 0012 and 0013)
in Django's state only: the tables, their rows, constraints and indexes stay as they are
(`db_table` names them; annotation migration 0016 removes the models from the core's state).
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("annotation", "0016_reporting_tables"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="SuggestionShown",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("suggestion", models.BigIntegerField()),
                        ("shown_at", models.DateTimeField()),
                        (
                            "annotation",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="annotation.annotation",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "annotation_suggestionshown",
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("annotation", "suggestion"),
                                name="suggestion_shown_unique",
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="AgreementPair",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("key_version", models.PositiveIntegerField()),
                        ("response_version", models.PositiveIntegerField()),
                        ("options", models.CharField(max_length=100)),
                        ("counts", models.JSONField()),
                        (
                            "key",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="annotation.annotation",
                            ),
                        ),
                        (
                            "response",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="annotation.annotation",
                            ),
                        ),
                        (
                            "topic",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="annotation.topic",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "annotation_agreementpair",
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("key", "response"), name="agreement_pair_unique"
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
