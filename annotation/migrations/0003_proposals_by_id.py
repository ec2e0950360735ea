from django.db import migrations


class Migration(migrations.Migration):
    """Decisions name proposals by id: the core no longer points at the suggestions app.

    This migration turned the foreign key 0002 used to add into the plain id column; 0002 now
    adds that column itself (so the core's graph needs no modelserve), and this one is empty.
    It stays, under its name, because databases have it recorded and modelserve 0003 depends
    on it."""

    dependencies = [
        ("annotation", "0002_initial"),
    ]

    operations = []
