"""What the annotator's pages read: my assignments, a topic, my annotation, the applied
changes (annotation/selectors/workspace.py, annotation/services/operations.py)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from annotation.api.serializers.effects import EFFECT, decision, link_type
from annotation.api.serializers.fields import EnumField, Shaped, span_list
from annotation.models import Annotation, Assignment, Operation
from corefscore.corpus import LINK_TYPES

ASSIGNMENT_STATUSES = tuple(Assignment.Status.values)


def assignment_status(**kwargs) -> EnumField:
    return EnumField("AssignmentStatus", ASSIGNMENT_STATUSES, **kwargs)


def assignment_role(**kwargs) -> EnumField:
    return EnumField("AssignmentRole", Assignment.Role.values, **kwargs)


def operation_kind(**kwargs) -> EnumField:
    return EnumField("OperationKind", Operation.Kind.values, **kwargs)


class AttributeDefinition(serializers.Serializer):
    """One attribute annotators may set on links and clusters, with its allowed values."""

    name = serializers.CharField()
    values = serializers.ListField(child=serializers.CharField())


class ProjectInfo(serializers.Serializer):
    """A project's schemes and rules, as the workspace applies them."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    hierarchy = serializers.BooleanField()
    anaphora = serializers.BooleanField()
    single_parent = serializers.BooleanField()
    allow_add_mentions = serializers.BooleanField()
    allow_fix_spans = serializers.BooleanField()
    allow_reject_mentions = serializers.BooleanField()
    refuse_duplicate_link_pairs = serializers.BooleanField(
        help_text="a second link type between the same anaphor and antecedent is refused "
        "(off: added with a warning)"
    )
    guidelines = serializers.CharField()
    validation = serializers.BooleanField(
        required=False, help_text="a validation project (docs/validation.md)"
    )
    suggestions = serializers.BooleanField(
        required=False, help_text="annotators may ask for model suggestions on real topics"
    )
    attributes = AttributeDefinition(
        many=True,
        required=False,
        help_text="the attributes annotators may set on links and clusters",
    )


class DocumentPayload(serializers.Serializer):
    id = serializers.IntegerField()
    position = serializers.IntegerField()
    doc_id = serializers.CharField()
    tokens = serializers.ListField(child=serializers.CharField())
    sentences = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        help_text="half-open [start, end) token ranges",
    )
    metadata = serializers.DictField()


class CandidateMention(serializers.Serializer):
    id = serializers.IntegerField()
    document = serializers.IntegerField()
    spans = span_list()


class TopicPayload(serializers.Serializer):
    id = serializers.IntegerField()
    external_id = serializers.CharField()
    source = serializers.CharField()
    metadata = serializers.DictField()
    project = ProjectInfo()
    suggestions_off = serializers.CharField(
        allow_null=True,
        required=False,
        help_text="why the model may not be asked on this topic (a practice topic, or the "
        "project's setting); null: it may",
    )
    documents = DocumentPayload(many=True)
    mentions = CandidateMention(many=True)


class ClusterPayload(serializers.Serializer):
    id = serializers.IntegerField()
    label = serializers.CharField()
    note = serializers.CharField()
    members = serializers.ListField(child=serializers.IntegerField())
    attributes = serializers.DictField(
        child=serializers.CharField(), required=False, help_text="attribute name -> value"
    )


class MentionPayload(serializers.Serializer):
    id = serializers.IntegerField()
    document = serializers.IntegerField()
    spans = span_list()
    added = serializers.BooleanField()
    rejected = serializers.BooleanField()


@extend_schema_field({"oneOf": [{"type": "string", "enum": list(LINK_TYPES)}, {"type": "integer"}]})
class LinkPart(serializers.JSONField):
    """One part of a `[type, anaphor, antecedent]` link triple (OpenAPI 3.0 has no tuples of
    mixed types, so each part is described as either)."""


class LinkDetails(serializers.Serializer):
    """What an annotator wrote on one link: its note and attribute values."""

    type = link_type()
    anaphor = serializers.IntegerField()
    antecedent = serializers.IntegerField()
    note = serializers.CharField(allow_blank=True)
    attributes = serializers.DictField(
        child=serializers.CharField(), help_text="attribute name -> value"
    )


class ImportMark(serializers.Serializer):
    field = serializers.CharField(help_text="where in the file, e.g. Transformed[1]")
    message = serializers.CharField()


class AnnotationPayload(serializers.Serializer):
    id = serializers.IntegerField()
    topic = serializers.IntegerField()
    kind = EnumField("AnnotationKind", Annotation.Kind.values)
    version = serializers.IntegerField()
    assignment = serializers.IntegerField(allow_null=True)
    annotator = serializers.CharField(
        allow_null=True, help_text="the username of the assignment's annotator (null: gold)"
    )
    status = EnumField(
        "AnnotationStatus", (*ASSIGNMENT_STATUSES, "gold"), help_text="gold: no assignment"
    )
    cursor = serializers.IntegerField(allow_null=True, help_text="the mention to resume at")
    clusters = ClusterPayload(many=True)
    edges = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        help_text="[parent, child] cluster pairs",
    )
    links = serializers.ListField(
        child=serializers.ListField(child=LinkPart(), min_length=3, max_length=3),
        help_text="[type, anaphor, antecedent] triples",
    )
    link_details = LinkDetails(
        many=True,
        required=False,
        help_text="the links that carry a note or attributes, with them",
    )
    mentions = MentionPayload(many=True)
    decisions = serializers.DictField(child=decision(), help_text="suggestion id -> decision")
    can_undo = serializers.BooleanField()
    can_redo = serializers.BooleanField()
    import_marks = ImportMark(
        many=True,
        help_text="what the imported file holds that the workspace would refuse, kept as "
        "released and flagged (ChEMU-Ref: a link breaking a rule, an empty side, a repeat)",
    )


class AssignmentTopic(serializers.Serializer):
    id = serializers.IntegerField()
    external_id = serializers.CharField()
    title = serializers.CharField(
        required=False,
        allow_blank=True,
        help_text="its paper's or first document's title, else its first words (My topics)",
    )


class AssignmentProject(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    hierarchy = serializers.BooleanField()
    anaphora = serializers.BooleanField()
    validation = serializers.BooleanField(
        required=False, help_text="open it in the validation workspace"
    )


class AssignmentProgress(serializers.Serializer):
    assigned = serializers.IntegerField(help_text="mentions in a cluster")
    total = serializers.IntegerField(help_text="mentions not rejected")


class AssignmentRow(serializers.Serializer):
    id = serializers.IntegerField()
    role = assignment_role()
    status = assignment_status()
    user = serializers.IntegerField()
    topic = AssignmentTopic()
    project = AssignmentProject()
    annotation = serializers.IntegerField()
    version = serializers.IntegerField()
    progress = AssignmentProgress()
    last_edited = serializers.DateTimeField(format=None, allow_null=True)
    submitted_at = serializers.DateTimeField(format=None, allow_null=True)
    locked = serializers.CharField(
        allow_null=True, required=False, help_text="why the topic cannot be opened yet (My topics)"
    )
    practice = serializers.CharField(
        allow_null=True, required=False, help_text="a practice topic's mode (guided, scored)"
    )


class Applied(serializers.Serializer):
    """An applied change (operations, undo, redo); the websocket broadcasts the same."""

    operation_id = serializers.IntegerField()
    version = serializers.IntegerField()
    name = serializers.CharField()
    kind = operation_kind()
    effects = serializers.ListField(child=Shaped(EFFECT))
    warnings = serializers.ListField(child=serializers.CharField())
    created = serializers.DictField(
        child=serializers.IntegerField(), help_text="kind -> id of what the change created"
    )
    client_id = serializers.CharField()


class LogEntry(serializers.Serializer):
    id = serializers.IntegerField()
    version = serializers.IntegerField()
    kind = operation_kind()
    name = serializers.CharField()
    payload = serializers.DictField(help_text="the operation as sent (undo/redo: its target)")
    warnings = serializers.ListField(child=serializers.CharField())
    user__username = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField(format=None)


class AssignmentSubmitted(serializers.Serializer):
    id = serializers.IntegerField()
    status = assignment_status()
    submitted_at = serializers.DateTimeField(format=None)
