"""python manage.py adjudicate --project NAME --user USERNAME [--create-user]
[--seed consensus|empty|ANNOTATOR] [--threshold 0.5] [--topics ID ...] [--submit]

Seeded adjudication assignments for every topic with at least two submitted annotations (or
the topics named by external id). `--submit` accepts each seed as it is (topics where
everyone agreed). Exits with status 1, having assigned nothing, when any topic is refused."""

from django.core.management.base import BaseCommand, CommandError

from adjudication.services.bulk import adjudications_create
from annotation.errors import AssignmentRefused
from annotation.models import Project


class Command(BaseCommand):
    help = "Assign topics to an adjudicator, each starting from a consensus, an annotator or empty."

    def add_arguments(self, parser):
        parser.add_argument("--project", required=True, help="project name")
        parser.add_argument("--user", required=True, help="the adjudicator's username")
        parser.add_argument(
            "--create-user",
            action="store_true",
            help="create the adjudicator if missing, with an unusable password",
        )
        parser.add_argument(
            "--seed",
            default="consensus",
            help='"consensus" (default), "empty", or the username of an annotator who submitted',
        )
        parser.add_argument(
            "--threshold",
            type=float,
            default=0.5,
            help="consensus: mentions join when more than this share of annotators agree",
        )
        parser.add_argument("--topics", nargs="+", metavar="ID", help="topic external ids")
        parser.add_argument("--submit", action="store_true", help="submit each seed as it is")

    def handle(self, *args, project, user, create_user, seed, threshold, topics, submit, **kw):
        target = Project.objects.filter(name=project).first()
        if target is None:
            raise CommandError(f"project '{project}' does not exist")
        try:
            result = adjudications_create(
                project=target,
                username=user,
                create_user=create_user,
                seed=seed,
                threshold=threshold,
                topic_ids=topics,
                submit=submit,
            )
        except AssignmentRefused as refused:
            for error in refused.details.get("errors", []):
                self.stderr.write(error)
            raise CommandError(refused.message) from None
        for line in result.lines():
            self.stdout.write(line)
