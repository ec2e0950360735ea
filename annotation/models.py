"""The annotation data model in PostgreSQL.

Integrity lives here too, not only in code: unique and check constraints make the invariants
of `../shared/docs/domain.md` impossible to break even by a buggy writer (one cluster per
mention per annotation, no self-loop or duplicate edge, no duplicate link). Cyclic
hierarchies cannot be expressed as a row constraint; the domain layer refuses them.
"""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Exists, F, OuterRef, Q

from annotation import gates
from corefscore.corpus import LINK_TYPES
from foundation.jobs.models import Job

# The logged operation that hands an annotator a topic's seed, the clusters an imported file
# starts every annotator from (services/seeds.py); it is not the annotator's work.
SEED_OPERATION = "seed"

# WEC's three conditions (seed 001, section 3.3), as the reasons a mention fails them.
WEC_REASONS = [
    {"key": "trigger", "label": "Its boundaries do not contain the trigger phrase"},
    {"key": "context", "label": "Its paragraph does not tell that it belongs to the cluster"},
    {"key": "subevent", "label": "It is a sub-event of the cluster's event"},
]


# The same three conditions for clusters of scientific concepts (SciCo's clusters, our model's
# suggestion runs): a concept has a name rather than a trigger, and its neighbours in the
# hierarchy are broader or narrower concepts rather than sub-events.
CONCEPT_REASONS = [
    {"key": "span", "label": "Its boundaries are not the concept's name (too much or too little)"},
    {"key": "context", "label": "Its paragraph does not tell that it means the cluster's concept"},
    {"key": "level", "label": "It names a broader or narrower concept than the cluster's"},
]

# What a validation project's clusters are -> the reasons its validators reject for.
REASON_PRESETS = {"events": WEC_REASONS, "concepts": CONCEPT_REASONS}


def wec_reasons() -> list[dict[str, str]]:
    return [dict(reason) for reason in WEC_REASONS]


def preset_reasons(kind: str) -> list[dict[str, str]]:
    """A fresh copy of the reasons for clusters of `kind` ("events" or "concepts")."""
    return [dict(reason) for reason in REASON_PRESETS[kind]]


class Project(models.Model):
    name = models.CharField(max_length=200, unique=True)
    hierarchy = models.BooleanField(default=True, help_text="SciCo-style clusters and hierarchy")
    anaphora = models.BooleanField(default=False, help_text="ChEMU-style typed anaphora links")
    guidelines = models.TextField(blank=True)
    allow_add_mentions = models.BooleanField(default=False)
    allow_fix_spans = models.BooleanField(default=False)
    allow_reject_mentions = models.BooleanField(default=False)
    single_parent = models.BooleanField(default=True)
    refuse_duplicate_link_pairs = models.BooleanField(
        default=False,
        help_text="refuse a second link type between the same anaphor and antecedent "
        "(off: allowed with a warning)",
    )
    suggestions = models.BooleanField(
        default=True,
        help_text="annotators may ask the model for suggestions on real topics (off: to "
        "measure raw agreement; practice topics never have them)",
    )
    validation = models.BooleanField(
        default=False,
        help_text="validation: accept or reject each mention of imported clusters (WEC)",
    )
    # Which hierarchy F1 the reports put first; both are always computed and shown
    # (docs/scoring.md, "Two hierarchy counts"). The closure count is SciCo's published one;
    # the raw edges count is not SciCo's and is never a default.
    hierarchy_count = models.CharField(
        max_length=10,
        choices=[
            ("closure", "closure (SciCo's: every relation of the transitive closure)"),
            ("raw", "raw edges (not SciCo's: the drawn relations only)"),
        ],
        default="closure",
        help_text="the primary hierarchy F1 of the agreement reports and the datasheet",
    )
    # Set by migration 0014 on the projects it moved from the raw count (once labelled
    # SciCo's) to the closure count; the agreement page says so until an admin saves the
    # hierarchy count setting again.
    hierarchy_count_migrated = models.BooleanField(
        default=False,
        help_text="the primary hierarchy F1 was moved from the raw edges count to SciCo's "
        "closure count (what eval/hypernym.py counts); cleared when an admin sets it",
    )
    # Off for a project imported from an archive unless the admin chose otherwise at import:
    # its assignments are another instance's campaign, not new work for anyone here.
    in_my_topics = models.BooleanField(
        default=True,
        help_text="annotators see their assignments of this project in My topics (off: "
        "hidden there, as an imported archive's are unless the admin chose otherwise)",
    )
    # [{"key": ..., "label": ...}, ...]: the reasons a validator picks with 1, 2, 3, ...
    validation_reasons = models.JSONField(default=wec_reasons, blank=True)
    # [{"name": "certainty", "values": ["high", "low"]}, ...]: what annotators may set on
    # links and clusters (services/projects.py checks the shape).
    attributes = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["name"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.CheckConstraint(
                condition=Q(hierarchy=True) | Q(anaphora=True) | Q(validation=True),
                name="project_has_a_scheme",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def scheme(self) -> str:
        schemes = (
            ("hierarchy", self.hierarchy),
            ("anaphora", self.anaphora),
            ("validation", self.validation),
        )
        return "+".join(name for name, on in schemes if on)


class Topic(models.Model):
    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="topics")
    external_id = models.CharField(max_length=300)
    source = models.CharField(max_length=300, blank=True)
    metadata = models.JSONField(default=dict, blank=True)
    position = models.PositiveIntegerField(default=0)
    # The dataset split (train, dev, test, ...) the topic belongs to; empty when not split.
    split = models.CharField(max_length=40, blank=True, default="", db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["project", "position", "id"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(
                fields=["project", "external_id"], name="topic_external_id_unique"
            ),
        ]

    def __str__(self) -> str:
        return self.external_id


class Document(models.Model):
    """One SciCo paragraph, CoRefi document, ChEMU snippet or brat text, with its metadata."""

    topic = models.ForeignKey(Topic, on_delete=models.CASCADE, related_name="documents")
    position = models.PositiveIntegerField()
    doc_id = models.CharField(max_length=300, blank=True)
    tokens = models.JSONField(default=list)
    # Kept beside the tokens so that validating spans never loads the tokens themselves.
    token_count = models.PositiveIntegerField(default=0)
    sentences = models.JSONField(default=list, blank=True)
    metadata = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["topic", "position"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["topic", "position"], name="document_position_unique"),
        ]
        # Query by example finds the topic documents that are a corpus document by their id,
        # across every topic of the corpus's projects: without it a seq scan per query.
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["doc_id"], name="document_doc_id")
        ]

    def __str__(self) -> str:
        return f"{self.topic_id}/{self.doc_id or self.pk}"


class Mention(models.Model):
    """A span set in one document. Candidates come with the topic (`added_in` empty); an
    annotator's own mentions belong to their annotation only."""

    topic = models.ForeignKey(Topic, on_delete=models.CASCADE, related_name="mentions")
    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="mentions")
    spans = models.JSONField(help_text="[[start, end], ...] inclusive token offsets")
    position = models.PositiveIntegerField(default=0)
    added_in = models.ForeignKey(
        "Annotation", null=True, blank=True, on_delete=models.CASCADE, related_name="added_mentions"
    )
    metadata = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["topic", "position", "id"]
        indexes: ClassVar[list[models.Index]] = [models.Index(fields=["topic", "position"])]

    def __str__(self) -> str:
        return f"mention {self.pk} (topic {self.topic_id}, spans {self.spans})"


class Assignment(models.Model):
    class Role(models.TextChoices):
        ANNOTATOR = "annotator"
        ADJUDICATOR = "adjudicator"

    class Status(models.TextChoices):
        ASSIGNED = "assigned"
        IN_PROGRESS = "in_progress"
        SUBMITTED = "submitted"
        REOPENED = "reopened"

    topic = models.ForeignKey(Topic, on_delete=models.CASCADE, related_name="assignments")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="assignments"
    )
    role = models.CharField(max_length=20, choices=Role.choices, default=Role.ANNOTATOR)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.ASSIGNED)
    created_at = models.DateTimeField(auto_now_add=True)
    submitted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["topic", "user"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["topic", "user"], name="assignment_topic_user_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.role} on topic {self.topic_id} ({self.status})"


class AnnotationQuerySet(models.QuerySet["Annotation"]):
    """The filters every report, export and trainer composes ("the submitted annotator
    annotations of this project, practice left out"), written once so that a reader cannot
    get one of them subtly wrong."""

    def submitted(self) -> AnnotationQuerySet:
        """Work its annotator (or adjudicator) has submitted; gold has no assignment, so never."""
        return self.filter(assignment__status=Assignment.Status.SUBMITTED)

    def annotator_work(self) -> AnnotationQuerySet:
        """The annotators' own annotations: not adjudications, not imported gold."""
        return self.filter(kind=Annotation.Kind.ANNOTATOR)

    def adjudications(self) -> AnnotationQuerySet:
        return self.filter(kind=Annotation.Kind.ADJUDICATION)

    def of_project(self, project: Project) -> AnnotationQuerySet:
        return self.filter(topic__project=project)

    def without_practice(self, project: Project) -> AnnotationQuerySet:
        """Leave out the project's practice topics (the gate every report reads)."""
        return self.exclude(topic_id__in=gates.practice_topic_ids(project.pk))

    def latest_submitted_first(self) -> AnnotationQuerySet:
        """The most recent submission first (a topic's gold is its latest adjudication)."""
        return self.order_by("-assignment__submitted_at", "-id")

    def worked(self) -> AnnotationQuerySet:
        """Annotations someone changed: a logged operation beyond the topic's seed (an
        annotation that holds only the seed it was handed is still untouched work)."""
        seed_only = Operation.objects.filter(
            annotation=OuterRef("pk"), version=1, name=SEED_OPERATION
        )
        return self.filter(version__gt=0).exclude(Q(version=1) & Exists(seed_only))


class Annotation(models.Model):
    """One annotator's (or the gold / adjudicated) clusters, edges and links for a topic."""

    class Kind(models.TextChoices):
        ANNOTATOR = "annotator"
        ADJUDICATION = "adjudication"
        GOLD = "gold"

    topic = models.ForeignKey(Topic, on_delete=models.CASCADE, related_name="annotations")
    assignment = models.OneToOneField(
        Assignment, null=True, blank=True, on_delete=models.CASCADE, related_name="annotation"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.ANNOTATOR)
    version = models.PositiveIntegerField(default=0)
    # Where the annotator was (the current mention), so a reload resumes there.
    cursor = models.BigIntegerField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = AnnotationQuerySet.as_manager()

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(
                fields=["topic"], condition=Q(kind="gold"), name="one_gold_per_topic"
            ),
            models.CheckConstraint(
                condition=Q(kind="gold", assignment__isnull=True)
                | (~Q(kind="gold") & Q(assignment__isnull=False)),
                name="gold_has_no_assignment_others_have_one",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} annotation {self.pk} of topic {self.topic_id}"

    @property
    def has_work(self) -> bool:
        """Whether someone changed it (`AnnotationQuerySet.worked`)."""
        if self.version == 0:
            return False
        if self.version > 1:
            return True
        return not self.operations.filter(version=1, name=SEED_OPERATION).exists()

    @property
    def assignment_of_work(self) -> Assignment:
        """The assignment behind an annotator's or adjudicator's work.

        The check constraint gives every annotation but gold an assignment, so only a caller
        that handed in gold gets the error."""
        if self.assignment is None:
            raise ValueError(f"annotation {self.pk} is gold: it has no assignment")
        return self.assignment


class Cluster(models.Model):
    """Its id is the stable server id the interface and the log refer to."""

    annotation = models.ForeignKey(Annotation, on_delete=models.CASCADE, related_name="clusters")
    label = models.TextField(blank=True)
    note = models.TextField(blank=True)
    # {attribute name: value}, among the project's attributes.
    attributes = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return self.label or f"cluster {self.pk}"


class ClusterMember(models.Model):
    annotation = models.ForeignKey(Annotation, on_delete=models.CASCADE, related_name="members")
    mention = models.ForeignKey(Mention, on_delete=models.CASCADE, related_name="+")
    cluster = models.ForeignKey(Cluster, on_delete=models.CASCADE, related_name="members")

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(
                fields=["annotation", "mention"], name="one_cluster_per_mention"
            ),
        ]

    def __str__(self) -> str:
        return f"mention {self.mention_id} in cluster {self.cluster_id}"


class HierarchyEdge(models.Model):
    annotation = models.ForeignKey(Annotation, on_delete=models.CASCADE, related_name="edges")
    parent = models.ForeignKey(Cluster, on_delete=models.CASCADE, related_name="child_edges")
    child = models.ForeignKey(Cluster, on_delete=models.CASCADE, related_name="parent_edges")

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["annotation", "parent", "child"], name="edge_unique"),
            models.CheckConstraint(condition=~Q(parent=F("child")), name="edge_no_self_loop"),
        ]

    def __str__(self) -> str:
        return f"cluster {self.parent_id} -> cluster {self.child_id}"


class RelationLink(models.Model):
    annotation = models.ForeignKey(Annotation, on_delete=models.CASCADE, related_name="links")
    # The five types are the domain's (corefscore.corpus.LINK_TYPES), here as a check.
    type = models.CharField(
        max_length=30, choices=[(t, t.replace("_", " ").title()) for t in LINK_TYPES]
    )
    anaphor = models.ForeignKey(Mention, on_delete=models.CASCADE, related_name="+")
    antecedent = models.ForeignKey(Mention, on_delete=models.CASCADE, related_name="+")
    note = models.TextField(blank=True)
    # {attribute name: value}, among the project's attributes.
    attributes = models.JSONField(default=dict, blank=True)

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(
                fields=["annotation", "type", "anaphor", "antecedent"], name="link_unique"
            ),
            models.CheckConstraint(
                condition=~Q(anaphor=F("antecedent")), name="link_no_self_reference"
            ),
            models.CheckConstraint(
                condition=Q(type__in=LINK_TYPES),
                name="link_type_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.type}: mention {self.anaphor_id} -> mention {self.antecedent_id}"


class MentionEdit(models.Model):
    """An annotation's own view of a candidate mention: fixed spans, or rejected."""

    annotation = models.ForeignKey(
        Annotation, on_delete=models.CASCADE, related_name="mention_edits"
    )
    mention = models.ForeignKey(Mention, on_delete=models.CASCADE, related_name="+")
    spans = models.JSONField(null=True, blank=True)
    rejected = models.BooleanField(default=False)

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["annotation", "mention"], name="mention_edit_unique"),
        ]

    def __str__(self) -> str:
        return f"edit of mention {self.mention_id} in annotation {self.annotation_id}"


class Operation(models.Model):
    """The log: every change with its effects (whose inverse undoes it), user, time, version."""

    class Kind(models.TextChoices):
        DO = "do"
        UNDO = "undo"
        REDO = "redo"

    annotation = models.ForeignKey(Annotation, on_delete=models.CASCADE, related_name="operations")
    version = models.PositiveIntegerField(help_text="the annotation's version after this operation")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.DO)
    target = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        # RESTRICT, not PROTECT: an operation alone is never deleted while an undo names it,
        # but deleting the whole annotation (a practice reset, a topic) takes both at once.
        on_delete=models.RESTRICT,
        related_name="+",
        help_text="for undo/redo: the operation undone or redone",
    )
    name = models.CharField(max_length=40)
    payload = models.JSONField(default=dict)
    effects = models.JSONField(default=list)
    warnings = models.JSONField(default=list, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    client_id = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["annotation", "version"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(
                fields=["annotation", "version"], name="operation_version_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.name} on annotation {self.annotation_id}"


class SuggestionDecision(models.Model):
    """An annotator's decision on a proposal, by the proposal's id alone: proposals belong to
    the app that makes them, which this core never names (annotation/proposals.py says why)."""

    annotation = models.ForeignKey(Annotation, on_delete=models.CASCADE, related_name="decisions")
    suggestion = models.BigIntegerField(db_column="suggestion_id", db_index=True)
    decision = models.CharField(
        max_length=10, choices=[("accepted", "accepted"), ("rejected", "rejected")]
    )

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["annotation", "suggestion"], name="decision_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.decision} suggestion {self.suggestion}"


class ValidationDecision(models.Model):
    """A validator's (or the consolidating adjudicator's) decision on one mention of a
    validation topic; written only through `validation_set` effects, so it is logged."""

    class Decision(models.TextChoices):
        ACCEPTED = "accepted"
        REJECTED = "rejected"

    annotation = models.ForeignKey(Annotation, on_delete=models.CASCADE, related_name="validations")
    mention = models.ForeignKey(Mention, on_delete=models.CASCADE, related_name="+")
    decision = models.CharField(max_length=10, choices=Decision.choices)
    reason = models.CharField(max_length=40, blank=True)
    note = models.TextField(blank=True)

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(
                fields=["annotation", "mention"], name="validation_decision_unique"
            ),
            models.CheckConstraint(
                condition=Q(decision="accepted", reason="")
                | (Q(decision="rejected") & ~Q(reason="")),
                name="validation_rejection_has_a_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.decision} mention {self.mention_id}"


class ImportJob(Job):
    """A large upload imported by the general Celery worker, not in the web request: the
    upload waits in a file under var/imports until the job has run (services/imports/jobs.py)."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="import_jobs")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    file_name = models.CharField(max_length=300)
    format = models.CharField(max_length=20)
    skip_invalid = models.BooleanField(default=False)
    # "" imports the file's annotation; "text" or "mentions" leave it out (a raw import)
    raw = models.CharField(max_length=10, blank=True, default="")
    path = models.CharField(max_length=1000, help_text="the stored upload, removed once run")
    result = models.JSONField(null=True, blank=True, help_text="the import's summary")
    # a refusal's every error, in the annotator's words (the import page lists them)
    errors = models.JSONField(default=list, blank=True)

    def __str__(self) -> str:
        return f"import of {self.file_name} ({self.status})"
