"""Train the `trained` suggestion backend on a project's gold or adjudicated topics."""

from __future__ import annotations

import re

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from annotation.models import Annotation, Project
from annotation.selectors.gold import gold_annotations
from annotation.selectors.topic_data import annotations_topic_data
from modelserve.model_store import model_upload
from modelserve.services.settings import suggestion_settings_set
from modelserve.trained_texts import trained_texts_write


class Command(BaseCommand):
    help = (
        "Train SciCo's 4-class mention-pair model on the project's adjudicated (else gold) "
        "topics, tune its two thresholds on held-out topics, store it under "
        "var/models/trained/, print held-out scores."
    )

    def add_arguments(self, parser):
        parser.add_argument("--project", required=True)
        parser.add_argument(
            "--holdout", type=float, default=0.2, help="fraction of topics held out (default 0.2)"
        )
        parser.add_argument(
            "--encoder", default=None, help="local Hugging Face encoder path (default: MiniLM)"
        )
        parser.add_argument("--epochs", type=int, default=20)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--activate",
            action="store_true",
            help="make the trained model the project's suggestion backend",
        )

    def handle(
        self,
        *args,
        project: str,
        holdout: float,
        encoder,
        epochs: int,
        seed: int,
        activate: bool,
        **options,
    ):
        from modelserve.training.registry import train_topics

        try:
            project_row = Project.objects.get(name=project)
        except Project.DoesNotExist:
            raise CommandError(f"There is no project named {project!r}.") from None
        annotations = _training_annotations(project_row)
        if not annotations:
            raise CommandError(
                f"Project {project!r} has no gold or submitted adjudicated topics to train on."
            )
        topics = list(annotations_topic_data(annotations).values())
        out_dir = settings.MODELS_DIR / "trained" / _slug(project_row.name)
        self.stdout.write(f"training on {len(topics)} topics of {project!r} into {out_dir}")
        result = train_topics(
            "trained",
            topics,
            out_dir,
            encoder=encoder,
            seed=seed,
            holdout=holdout,
            epochs=epochs,
            log=self.stdout.write,
        )
        # what it saw (its threshold-tuning share too), so the Models page never scores it
        # there as if unseen (modelserve/trained_texts.py)
        trained_texts_write(
            out_dir,
            model=f"the trained folder trained/{_slug(project_row.name)}",
            source=f"project {project_row.name}",
            documents=[document for topic in topics for document in topic.documents],
        )
        model_upload(f"trained/{_slug(project_row.name)}")  # with STORAGE_URL: the bucket
        if result is None or result["holdout_scores"] is None:
            self.stdout.write("no topic held out (too few gold topics): no held-out scores")
        if activate:
            suggestion_settings_set(
                project=project_row, backend="trained", params={"model_dir": str(out_dir)}
            )
            self.stdout.write(f"project {project!r} now suggests with the trained model")


def _training_annotations(project: Project) -> list[Annotation]:
    """Per topic its gold (`selectors.gold`: the latest submitted adjudication, else the
    imported gold), in the project's topic order."""
    chosen = gold_annotations(project)
    return sorted(chosen.values(), key=lambda a: (a.topic.position, a.topic_id))


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "project"
