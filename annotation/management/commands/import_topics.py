"""python manage.py import_topics --project NAME [--format auto|scico|corefi|chemu|brat|
webanno-tsv|webanno-tsv-folders|uima-xmi|uima-xmi-folders|corefud|label-studio]
[--skip-invalid] [--raw text|mentions] [--create] [--as annotation|validation] PATH

`--format auto` (the default) guesses the format from the file and prints what it guessed
(docs/formats.md, "Guessing the format").

`--as validation`: the file's clusters are to be validated (docs/validation.md); the project
must use the validation scheme (`--create` makes it so) and every topic must carry clusters.

Exits with status 1, having written nothing, when the import is refused, which includes an
import that would create no topic; a project it created for a refused import is rolled back
with it and never reported."""

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from annotation.errors import ImportRefused
from annotation.models import REASON_PRESETS, Project, preset_reasons
from annotation.services.imports.guessing import AUTO, format_guess
from annotation.services.imports.topics import topics_import
from corefscore.formats import READERS

# The scheme a new project gets from the format it is created for.
SCHEMES = {
    "scico": (True, False),
    "corefi": (True, False),
    "chemu": (False, True),
    "brat": (True, True),
    # CorefUD: entities are clusters, bridges links (outside the five link types: left out).
    "corefud": (True, False),
    # Label Studio: coreference relations are clusters, the others links.
    "label-studio": (True, True),
    # INCEpTION chains are flat clusters; relations become links only in a link project.
    "webanno-tsv": (True, False),
    "webanno-tsv-folders": (True, False),
    "uima-xmi": (True, False),
    "uima-xmi-folders": (True, False),
}


class Command(BaseCommand):
    help = (
        "Import topics (documents, candidate mentions and any gold annotation) into a project. "
        "Every error is listed with file, line and field, and nothing is written while any remains."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "path",
            help="a file, a folder (searched at any depth) or a zip; corefi and brat read "
            "folders of *.json and of *.txt + *.ann",
        )
        parser.add_argument("--project", required=True, help="project name")
        parser.add_argument(
            "--format",
            default="auto",
            choices=[AUTO, *READERS],
            help="auto (the default): guessed from the contents, and said",
        )
        parser.add_argument(
            "--skip-invalid",
            action="store_true",
            help="import the valid records and list the skipped ones instead of refusing",
        )
        parser.add_argument(
            "--raw",
            choices=["text", "mentions"],
            help="leave the file's annotation out (no gold): text = documents only; mentions = "
            "documents and the file's mentions, without clusters, relations or links",
        )
        parser.add_argument(
            "--create",
            action="store_true",
            help="create the project if missing (hierarchy for scico/corefi, anaphora for chemu, "
            "both for brat)",
        )

        parser.add_argument(
            "--as",
            dest="purpose",
            choices=["annotation", "validation"],
            default="annotation",
            help="validation: the file's clusters are for validators to accept or reject",
        )
        parser.add_argument(
            "--reasons",
            choices=sorted(REASON_PRESETS),
            help="with --as validation --create: what the clusters are, for the reasons to "
            "reject (default: concepts for SciCo files, events (WEC's) otherwise)",
        )

    def handle(
        self, *args, path, project, format, skip_invalid, raw, create, purpose, reasons, **options
    ):
        # One transaction with the project's creation, so a refused import leaves no empty project.
        created = None
        guessed = None
        try:
            if format == AUTO:
                guessed = format_guess(path)
                format = guessed.format
            with transaction.atomic():
                target = Project.objects.filter(name=project).first()
                if target is None:
                    if not create:
                        raise CommandError(
                            f"project '{project}' does not exist; create it first or pass --create"
                        )
                    hierarchy, anaphora = SCHEMES[format]
                    if purpose == "validation":
                        hierarchy, anaphora = False, False
                    # SciCo's clusters are scientific concepts: WEC's event wording misfits.
                    kind = reasons or ("concepts" if format == "scico" else "events")
                    target = created = Project.objects.create(
                        name=project,
                        hierarchy=hierarchy,
                        anaphora=anaphora,
                        validation=purpose == "validation",
                        validation_reasons=preset_reasons(kind),
                    )
                if target.validation != (purpose == "validation"):
                    raise CommandError(
                        f"project '{project}' "
                        + ("uses" if target.validation else "does not use")
                        + " the validation scheme; import with --as "
                        + ("validation" if target.validation else "annotation")
                    )
                result = topics_import(
                    project=target, path=path, format=format, skip_invalid=skip_invalid, raw=raw
                )
        except ImportRefused as refused:
            for error in refused.errors:
                self.stderr.write(error)
            raise CommandError(refused.message) from None
        if guessed is not None:
            self.stdout.write(f"format guessed: {guessed}")
        if created is not None:
            self.stdout.write(f"created project '{project}' ({created.scheme})")
        for line in result.lines():
            self.stdout.write(line)
