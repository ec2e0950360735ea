"""python manage.py agreement --project NAME [--csv OUT] [--zip OUT] [--json]"""

import json

from django.core.management.base import BaseCommand, CommandError

from annotation.models import Project
from corefscore.scoring import tables
from reporting.selectors.agreement import agreement_csv, project_agreement
from reporting.selectors.agreement_files import agreement_zip


class Command(BaseCommand):
    help = (
        "Inter-annotator agreement over the submitted annotations of a project's topics (AVG, std, "
        "MAX-micro, MAX-macro per metric). --csv also writes the pairs' table the API serves as "
        "CSV, --zip every table of the report (the page's download)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--project", required=True)
        parser.add_argument(
            "--csv", metavar="OUT", help="write the CSV report to OUT ('-' for standard output)"
        )
        parser.add_argument(
            "--zip",
            metavar="OUT",
            dest="zip_out",
            help="write every table of the report (pairs, vs gold, validation, left out) "
            "to the zip OUT",
        )
        parser.add_argument(
            "--json", action="store_true", dest="as_json", help="print JSON instead of a table"
        )

    def handle(self, *args, project, csv, zip_out, as_json: bool, **options):
        target = Project.objects.filter(name=project).first()
        if target is None:
            raise CommandError(f"project '{project}' does not exist")
        result = project_agreement(target)
        if csv == "-":
            self.stdout.write(agreement_csv(result), ending="")
            return
        if csv:
            try:
                with open(csv, "w", newline="", encoding="utf-8") as stream:
                    stream.write(agreement_csv(result))
            except OSError as error:
                raise CommandError(f"cannot write {csv}: {error.strerror}") from None
        if zip_out:
            try:
                with open(zip_out, "wb") as stream:
                    stream.write(agreement_zip(result))
            except OSError as error:
                raise CommandError(f"cannot write {zip_out}: {error.strerror}") from None
        if as_json:
            self.stdout.write(json.dumps(result, indent=2))
            return
        names = ", ".join(result["annotators"]) or "none"
        self.stdout.write(
            f"project '{target.name}' ({target.scheme}); annotators with submissions: {names}"
        )
        self.stdout.write(tables.render("iaa", "", result), ending="")
        for written in (csv, zip_out):
            if written:
                self.stdout.write(f"wrote {written}")
