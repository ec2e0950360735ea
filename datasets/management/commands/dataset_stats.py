"""python manage.py dataset_stats --project NAME [--source gold|adjudicated|submitted|USER]
[--split NAME] [--json]"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from annotation.models import Project
from datasets.errors import DatasetRefused
from datasets.selectors import project_statistics
from datasets.statistics import stats_rows


class Command(BaseCommand):
    help = (
        "A project's corpus statistics (docs/datasets.md), in total and per split. Default "
        "source: each topic's gold (its latest submitted adjudication, else the imported gold)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--project", required=True)
        parser.add_argument("--source", help="gold (default), adjudicated, submitted or a username")
        parser.add_argument("--split", help="only the topics of this split")
        parser.add_argument("--json", action="store_true", help='{"total": ..., "splits": {...}}')

    def handle(self, *args, project, source, split, json: bool, **options):
        target = Project.objects.filter(name=project).first()
        if target is None:
            raise CommandError(f"project '{project}' does not exist")
        try:
            result = project_statistics(target, source, split=split)
        except DatasetRefused as refused:
            raise CommandError(refused.message) from None
        if json:
            self.stdout.write(_json(result))
            return
        self.stdout.write(table(stats_rows(result)))


def _json(result: dict) -> str:
    return json.dumps(result, indent=2)


def table(rows: list[list[str]]) -> str:
    """The CSV rows turned: one line per statistic, one column per scope."""
    header, *scopes = rows
    columns = [["", *(row[0] for row in scopes)]]
    columns += [[key, *(row[i] for row in scopes)] for i, key in enumerate(header) if i]
    widths = [max(len(row[i]) for row in columns) for i in range(len(columns[0]))]
    lines = []
    for row in columns:
        cells = [row[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)
