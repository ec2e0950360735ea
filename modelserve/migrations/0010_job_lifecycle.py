"""The job tables share foundation.jobs.models.Job: a training counts its attempts (ownership is
worker + attempt, as for runs), and the progress check constraints take the shared name. The
constraints are renamed in place (no table scan); the state sees a remove and an add."""

from django.db import migrations, models

RENAMES = [
    ("modelevaluation", "evaluation_progress_fraction"),
    ("modeltraining", "training_progress_fraction"),
    ("suggestionrun", "run_progress_fraction"),
]


def _renamed(model: str, old: str):
    new = f"modelserve_{model}_progress_fraction"
    table = f"modelserve_{model}"
    return migrations.SeparateDatabaseAndState(
        database_operations=[
            migrations.RunSQL(
                f"ALTER TABLE {table} RENAME CONSTRAINT {old} TO {new}",
                reverse_sql=f"ALTER TABLE {table} RENAME CONSTRAINT {new} TO {old}",
            )
        ],
        state_operations=[
            migrations.RemoveConstraint(model_name=model, name=old),
            migrations.AddConstraint(
                model_name=model,
                constraint=models.CheckConstraint(
                    condition=models.Q(("progress__gte", 0), ("progress__lte", 1)), name=new
                ),
            ),
        ],
    )


class Migration(migrations.Migration):
    dependencies = [
        ("modelserve", "0009_suggestion_settings_learn_encoder"),
    ]

    operations = [
        migrations.AddField(
            model_name="modeltraining",
            name="attempts",
            field=models.PositiveIntegerField(default=0),
        ),
        *[_renamed(model, old) for model, old in RENAMES],
    ]
