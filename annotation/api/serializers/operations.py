"""Operations as clients send them (annotation/domain/operations/dispatch.py) as schema
components, discriminated by `op`: one serializer per name of the one list
(annotation/domain/operations/names.py), in its order.

The domain planner validates an operation and names the faulty field, so these serializers
only describe: `EditOperation` is what a suggestion proposes (and what accepting one wraps),
`Operation` is any operation a client may send."""

from __future__ import annotations

from typing import TypeAlias

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from annotation.api.serializers.effects import link_type
from annotation.api.serializers.fields import Shaped, span_list
from annotation.domain.operations.names import (
    BULK_OPERATIONS,
    DECISION_OPERATIONS,
    EDIT_OPERATIONS,
    BulkName,
    DecisionName,
    EditName,
)


class AssignOperation(serializers.Serializer):
    op = serializers.CharField()
    mention = serializers.IntegerField()
    cluster = serializers.IntegerField(allow_null=True, help_text="null: a new cluster")


class MergeOperation(serializers.Serializer):
    op = serializers.CharField()
    source = serializers.IntegerField()
    target = serializers.IntegerField()


class SplitOperation(serializers.Serializer):
    op = serializers.CharField()
    mentions = serializers.ListField(child=serializers.IntegerField())


class RenameOperation(serializers.Serializer):
    op = serializers.CharField()
    cluster = serializers.IntegerField()
    label = serializers.CharField()


class SetNoteOperation(serializers.Serializer):
    op = serializers.CharField()
    cluster = serializers.IntegerField()
    note = serializers.CharField(allow_blank=True)


class SetParentOperation(serializers.Serializer):
    op = serializers.CharField()
    child = serializers.IntegerField()
    parent = serializers.IntegerField(allow_null=True, help_text="null: a root")


class EdgeOperation(serializers.Serializer):
    op = serializers.CharField()
    parent = serializers.IntegerField()
    child = serializers.IntegerField()


class AddMentionOperation(serializers.Serializer):
    op = serializers.CharField()
    document = serializers.IntegerField()
    spans = span_list()


class FixSpanOperation(serializers.Serializer):
    op = serializers.CharField()
    mention = serializers.IntegerField()
    spans = span_list()


class RejectMentionOperation(serializers.Serializer):
    op = serializers.CharField()
    mention = serializers.IntegerField()


class LinkOperation(serializers.Serializer):
    op = serializers.CharField()
    type = link_type()
    anaphor = serializers.IntegerField()
    antecedent = serializers.IntegerField()


class SetLinkNoteOperation(LinkOperation):
    note = serializers.CharField(allow_blank=True, help_text="empty: no note")


class SetLinkAttributeOperation(LinkOperation):
    name = serializers.CharField(help_text="one of the project's attributes")
    value = serializers.CharField(allow_null=True, help_text="one of its values; null clears it")


class SetClusterAttributeOperation(serializers.Serializer):
    op = serializers.CharField()
    cluster = serializers.IntegerField()
    name = serializers.CharField(help_text="one of the project's attributes")
    value = serializers.CharField(allow_null=True, help_text="one of its values; null clears it")


class LinkRef(serializers.Serializer):
    type = link_type()
    anaphor = serializers.IntegerField()
    antecedent = serializers.IntegerField()


class RetypeLinksOperation(serializers.Serializer):
    """Give every link of `links` the type `type` (one operation, one undo)."""

    op = serializers.CharField()
    links = LinkRef(many=True)
    type = link_type()


_EDIT_SERIALIZERS: dict[EditName, type[serializers.Serializer]] = {
    "assign": AssignOperation,
    "merge": MergeOperation,
    "split": SplitOperation,
    "rename": RenameOperation,
    "set_note": SetNoteOperation,
    "set_parent": SetParentOperation,
    "add_edge": EdgeOperation,
    "remove_edge": EdgeOperation,
    "add_mention": AddMentionOperation,
    "fix_span": FixSpanOperation,
    "reject_mention": RejectMentionOperation,
    "add_link": LinkOperation,
    "remove_link": LinkOperation,
    "set_link_note": SetLinkNoteOperation,
    "set_link_attribute": SetLinkAttributeOperation,
    "set_cluster_attribute": SetClusterAttributeOperation,
    "retype_links": RetypeLinksOperation,
}
# In the one list's order; a name without a serializer fails here, on import.
# The PolymorphicProxySerializer's own value type (a class or an instance).
Shape: TypeAlias = serializers.Serializer | type[serializers.Serializer]

EDIT_SHAPES: dict[str, Shape] = {name: _EDIT_SERIALIZERS[name] for name in EDIT_OPERATIONS}

EDIT_OPERATION = PolymorphicProxySerializer(
    component_name="EditOperation", serializers=EDIT_SHAPES, resource_type_field_name="op"
)


class MentionPlace(serializers.Serializer):
    document = serializers.IntegerField()
    spans = span_list()


class AddMentionsOperation(serializers.Serializer):
    """A mention at each place, as one operation (one undo step); refused whole if one is."""

    op = serializers.CharField()
    mentions = MentionPlace(many=True)


class RejectMentionsOperation(serializers.Serializer):
    """Reject each mention, as one operation (one undo step); refused whole if one is."""

    op = serializers.CharField()
    mentions = serializers.ListField(child=serializers.IntegerField())


_BULK_SERIALIZERS: dict[BulkName, type[serializers.Serializer]] = {
    "add_mentions": AddMentionsOperation,
    "reject_mentions": RejectMentionsOperation,
}


class AcceptSuggestionOperation(serializers.Serializer):
    op = serializers.CharField()
    suggestion = serializers.IntegerField()
    # What accepting applies. The planner refuses a decision here; the schema says Operation
    # (not EditOperation) because the workspace builds acceptances from any Operation.
    operation = Shaped(lambda: OPERATION)


class RejectSuggestionOperation(serializers.Serializer):
    op = serializers.CharField()
    suggestion = serializers.IntegerField()


class ValidateOperation(serializers.Serializer):
    """A validator's decision on a mention (docs/validation.md)."""

    op = serializers.CharField()
    mention = serializers.IntegerField()
    decision = serializers.ChoiceField(choices=["accepted", "rejected"])
    reason = serializers.CharField(allow_null=True, required=False, help_text="rejections only")
    note = serializers.CharField(allow_blank=True, required=False)


_DECISION_SERIALIZERS: dict[DecisionName, type[serializers.Serializer]] = {
    "accept_suggestion": AcceptSuggestionOperation,
    "reject_suggestion": RejectSuggestionOperation,
    "validate": ValidateOperation,
}
SHAPES: dict[str, Shape] = (
    EDIT_SHAPES
    | {name: _BULK_SERIALIZERS[name] for name in BULK_OPERATIONS}
    | {name: _DECISION_SERIALIZERS[name] for name in DECISION_OPERATIONS}
)

OPERATION: PolymorphicProxySerializer = PolymorphicProxySerializer(
    component_name="Operation", serializers=SHAPES, resource_type_field_name="op"
)
