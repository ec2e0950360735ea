import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("annotation", "0013_agreement_pair"),
    ]

    operations = [
        migrations.CreateModel(
            name="MentionFlag",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("comment", models.CharField(blank=True, max_length=500)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("updated_at", models.DateTimeField(auto_now=True)),
                (
                    "annotation",
                    models.ForeignKey(
                        help_text="the flagging annotator's own annotation",
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="mention_flags",
                        to="annotation.annotation",
                    ),
                ),
                (
                    "mention",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="annotation.mention",
                    ),
                ),
            ],
            options={
                "ordering": ["annotation", "mention"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("annotation", "mention"), name="mention_flag_unique"
                    )
                ],
            },
        ),
    ]
