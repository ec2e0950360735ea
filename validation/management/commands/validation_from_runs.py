"""python manage.py validation_from_runs --project VALIDATION (--run ID ... | --from-project SRC)

Copies topics with a succeeded suggestion run into a validation project, the run's clusters
to be validated (members' confidences from the run). --from-project takes the newest
succeeded run of each topic of SRC. --create makes the project with the reasons for clusters
of scientific concepts (our model's clusters are SciCo's kind), or --reasons events for
WEC's."""

from django.core.management.base import BaseCommand, CommandError

from annotation.errors import ImportRefused
from annotation.models import REASON_PRESETS, Project, preset_reasons
from modelserve.models import SuggestionRun
from validation.selectors.runs import newest_succeeded_runs
from validation.services.from_runs import validation_topics_from_runs


class Command(BaseCommand):
    help = "Validate a suggestion run's clusters: copy its topic into a validation project."

    def add_arguments(self, parser):
        parser.add_argument("--project", required=True, help="the validation project")
        parser.add_argument("--run", type=int, action="append", default=[], help="a run's id")
        parser.add_argument("--from-project", help="every topic's newest succeeded run")
        parser.add_argument(
            "--create", action="store_true", help="create the validation project if missing"
        )
        parser.add_argument(
            "--reasons",
            choices=sorted(REASON_PRESETS),
            default="concepts",
            help="with --create: what the clusters are, for the reasons to reject",
        )

    def handle(self, *args, project, run, from_project, create, reasons, **options):
        target = Project.objects.filter(name=project).first()
        if target is None:
            if not create:
                raise CommandError(f"project '{project}' does not exist; pass --create")
            target = Project.objects.create(
                name=project,
                hierarchy=False,
                validation=True,
                validation_reasons=preset_reasons(reasons),
            )
        runs = list(SuggestionRun.objects.filter(pk__in=run).select_related("topic"))
        if len(runs) != len(set(run)):
            raise CommandError("no such suggestion run: " + ", ".join(map(str, run)))
        if from_project:
            source = Project.objects.filter(name=from_project).first()
            if source is None:
                raise CommandError(f"project '{from_project}' does not exist")
            runs += newest_succeeded_runs(source)
        if not runs:
            raise CommandError("name runs with --run or a project with --from-project")
        try:
            result = validation_topics_from_runs(runs=runs, project=target)
        except ImportRefused as refused:
            raise CommandError(refused.message) from None
        self.stdout.write(str(result))
