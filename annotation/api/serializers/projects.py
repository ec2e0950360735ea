"""What the admin pages read about projects: rows, topics, the progress matrix."""

from __future__ import annotations

from rest_framework import serializers

from annotation.api.serializers.fields import Number
from annotation.api.serializers.workspace import ProjectInfo, assignment_role, assignment_status


# One of a validation project's reasons for a rejection, as the project stores it (the
# validation workspace and the agreement report's validation section show them too).
class ValidationReason(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()


class ValidationReasonInput(serializers.Serializer):
    """One reason a validator may give for a rejection (picked with 1, 2, 3)."""

    key = serializers.RegexField(
        r"^[a-z][a-z0-9_-]*$",
        max_length=40,
        error_messages={
            "invalid": "A reason's key is one word: lower-case letters, digits, - or _ "
            "(exports and the report's CSV name the reason by it)."
        },
    )
    label = serializers.CharField(max_length=200)


_WORD = r"^[A-Za-z][A-Za-z0-9_-]*$"
_WORD_MESSAGE = (
    "An attribute's name and each of its values are one word: letters, digits, - or _ "
    "(brat's attribute lines and the report's CSV name them so)."
)


class AttributeDefinitionInput(serializers.Serializer):
    """An attribute annotators may set on links and clusters, e.g. certainty: high, low."""

    name = serializers.RegexField(_WORD, max_length=40, error_messages={"invalid": _WORD_MESSAGE})
    values = serializers.ListField(
        child=serializers.RegexField(
            _WORD, max_length=40, error_messages={"invalid": _WORD_MESSAGE}
        ),
        help_text="its allowed values (1-9, each its own; the workspace picks them by digit)",
    )


class Project(ProjectInfo):
    """A project row of the admin pages (its suggestion settings are the suggestions app's)."""

    topics = serializers.IntegerField(help_text="how many topics it has")
    hierarchy_count = serializers.ChoiceField(
        choices=["closure", "raw"],
        help_text="the primary hierarchy F1 of its reports: closure (SciCo's) or raw (raw "
        "edges, not SciCo's)",
    )
    validation_reasons = ValidationReason(
        many=True, help_text="the reasons validators give for a rejection, in key order 1-3"
    )
    in_my_topics = serializers.BooleanField(
        help_text="annotators see their assignments of it in My topics (off: hidden there)"
    )


class TopicRow(serializers.Serializer):
    id = serializers.IntegerField()
    external_id = serializers.CharField()
    source = serializers.CharField()
    position = serializers.IntegerField()
    documents = serializers.IntegerField(source="documents_count")
    mentions = serializers.IntegerField(
        source="mentions_count", help_text="candidate mentions (not those annotators added)"
    )
    annotators = serializers.IntegerField(
        source="annotators_count", help_text="users assigned as annotators (not adjudicators)"
    )
    gold = serializers.IntegerField(
        source="gold_id",
        allow_null=True,
        help_text="the topic's gold annotation (its adjudication, else its imported gold)",
    )
    work = serializers.IntegerField(
        source="work_count",
        help_text="annotations someone changed (annotators', adjudicators'): delete is refused",
    )


class ProgressTopic(serializers.Serializer):
    id = serializers.IntegerField()
    external_id = serializers.CharField()


class ProgressAnnotator(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()


class ProgressCell(serializers.Serializer):
    assignment = serializers.IntegerField()
    topic = serializers.IntegerField()
    user = serializers.IntegerField()
    status = assignment_status()
    role = assignment_role()
    annotation = serializers.IntegerField()
    version = serializers.IntegerField()
    start_version = serializers.IntegerField(
        help_text="the version the annotator was handed: 1 when it starts from the topic's "
        "seed, else 0; the annotator's own work is the versions above it"
    )
    mentions_done = serializers.IntegerField()
    mentions_total = serializers.IntegerField()
    links = serializers.IntegerField()
    seconds_spent = Number()


class ProgressPayload(serializers.Serializer):
    """The progress matrix (annotation/selectors/progress.py): topics x annotators."""

    project = serializers.IntegerField()
    topics = ProgressTopic(many=True)
    annotators = ProgressAnnotator(many=True)
    cells = ProgressCell(many=True)
