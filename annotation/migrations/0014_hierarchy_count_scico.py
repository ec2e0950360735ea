"""The raw hierarchy count was labelled SciCo's, but SciCo's released eval/hypernym.py counts
the closure: projects that chose the raw count as primary move to the closure
count, and are marked so that the agreement page tells their admins."""

from django.db import migrations, models


def to_closure(apps, schema_editor):
    Project = apps.get_model("annotation", "Project")
    Project.objects.filter(hierarchy_count="raw").update(
        hierarchy_count="closure", hierarchy_count_migrated=True
    )


def back_to_raw(apps, schema_editor):
    Project = apps.get_model("annotation", "Project")
    Project.objects.filter(hierarchy_count_migrated=True).update(hierarchy_count="raw")


class Migration(migrations.Migration):
    dependencies = [
        ("annotation", "0013_agreement_pair"),
    ]

    operations = [
        migrations.AlterField(
            model_name="project",
            name="hierarchy_count",
            field=models.CharField(
                choices=[
                    ("closure", "closure (SciCo's: every relation of the transitive closure)"),
                    ("raw", "raw edges (not SciCo's: the drawn relations only)"),
                ],
                default="closure",
                help_text="the primary hierarchy F1 of the agreement reports and the datasheet",
                max_length=10,
            ),
        ),
        migrations.AddField(
            model_name="project",
            name="hierarchy_count_migrated",
            field=models.BooleanField(
                default=False,
                help_text="the primary hierarchy F1 was moved from the raw edges count to "
                "SciCo's closure count (what eval/hypernym.py counts); cleared when an admin "
                "sets it",
            ),
        ),
        migrations.RunPython(to_closure, back_to_raw),
    ]
