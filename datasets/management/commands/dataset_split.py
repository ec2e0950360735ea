"""python manage.py dataset_split --project NAME --ratios 0.6,0.15,0.25
[--names train,dev,test] [--seed N] [--balance links|clusters|mentions] [--force]"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from annotation.models import Project
from datasets.errors import DatasetRefused
from datasets.services.splits import BALANCES, dataset_split


class Command(BaseCommand):
    help = (
        "Assign every topic of a project to a split, balancing the chosen quantity of the gold "
        "across splits (docs/datasets.md). The same seed gives the same split. A project "
        "already split keeps its split unless --force."
    )

    def add_arguments(self, parser):
        parser.add_argument("--project", required=True)
        parser.add_argument("--ratios", required=True, help="e.g. 0.6,0.15,0.25 (adding up to 1)")
        parser.add_argument("--names", help="default train,dev,test (train,test for two ratios)")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--balance",
            choices=BALANCES,
            help="default: links for anaphora projects, clusters otherwise",
        )
        parser.add_argument("--force", action="store_true", help="replace an existing split")

    def handle(self, *args, project, ratios, names, seed, balance, force, **options):
        target = Project.objects.filter(name=project).first()
        if target is None:
            raise CommandError(f"project '{project}' does not exist")
        try:
            parsed = [float(r) for r in ratios.split(",")]
        except ValueError:
            raise CommandError(f"--ratios: {ratios!r} is not a list of numbers") from None
        try:
            outcome = dataset_split(
                project=target,
                ratios=parsed,
                names=names.split(",") if names else None,
                seed=seed,
                balance=balance,
                force=force,
            )
        except DatasetRefused as refused:
            raise CommandError(refused.message) from None
        for line in outcome.lines():
            self.stdout.write(line)
