"""The effects vocabulary (annotation/domain/effects.py) as schema components.

Effects are built by the domain's constructors and sent as they are (the operations answer,
undo/redo, the websocket); these serializers only describe them: one component per effect
name, discriminated by `e`, on the shapes the names share."""

from __future__ import annotations

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from annotation.api.serializers.fields import EnumField, span_list
from annotation.domain.state import DECISIONS
from corefscore.corpus import LINK_TYPES


def link_type(**kwargs) -> EnumField:
    return EnumField("LinkType", LINK_TYPES, **kwargs)


def decision(**kwargs) -> EnumField:
    return EnumField("Decision", DECISIONS, **kwargs)


class ClusterShape(serializers.Serializer):
    e = serializers.CharField()
    cluster = serializers.IntegerField()
    label = serializers.CharField()
    note = serializers.CharField()


class MemberSetShape(serializers.Serializer):
    e = serializers.CharField()
    mention = serializers.IntegerField()
    old = serializers.IntegerField(allow_null=True, help_text="the cluster it left")
    new = serializers.IntegerField(allow_null=True, help_text="the cluster it joined")


class EdgeShape(serializers.Serializer):
    e = serializers.CharField()
    parent = serializers.IntegerField()
    child = serializers.IntegerField()


class TextSetShape(serializers.Serializer):
    e = serializers.CharField()
    cluster = serializers.IntegerField()
    old = serializers.CharField()
    new = serializers.CharField()


class LinkShape(serializers.Serializer):
    e = serializers.CharField()
    type = link_type()
    anaphor = serializers.IntegerField()
    antecedent = serializers.IntegerField()


class LinkNoteSetShape(LinkShape):
    old = serializers.CharField(allow_blank=True)
    new = serializers.CharField(allow_blank=True)


class LinkAttributeSetShape(LinkShape):
    name = serializers.CharField()
    old = serializers.CharField(allow_null=True)
    new = serializers.CharField(allow_null=True)


class ClusterAttributeSetShape(serializers.Serializer):
    e = serializers.CharField()
    cluster = serializers.IntegerField()
    name = serializers.CharField()
    old = serializers.CharField(allow_null=True)
    new = serializers.CharField(allow_null=True)


class MentionShape(serializers.Serializer):
    e = serializers.CharField()
    mention = serializers.IntegerField()
    document = serializers.IntegerField()
    spans = span_list()


class SpansSetShape(serializers.Serializer):
    e = serializers.CharField()
    mention = serializers.IntegerField()
    old = span_list()
    new = span_list()


class RejectedSetShape(serializers.Serializer):
    e = serializers.CharField()
    mention = serializers.IntegerField()
    old = serializers.BooleanField()
    new = serializers.BooleanField()


class SuggestionDecidedShape(serializers.Serializer):
    e = serializers.CharField()
    suggestion = serializers.IntegerField()
    old = decision(allow_null=True)
    new = decision(allow_null=True)


class ValidationValue(serializers.Serializer):
    decision = decision()
    reason = serializers.CharField(allow_null=True)
    note = serializers.CharField(allow_blank=True)


class ValidationSetShape(serializers.Serializer):
    e = serializers.CharField()
    mention = serializers.IntegerField()
    old = ValidationValue(allow_null=True)
    new = ValidationValue(allow_null=True)


def _each(shape: type[serializers.Serializer], *names: str) -> dict[str, type]:
    """One component per effect name (`ClusterCreatedEffect`, ...): clients narrow an effect
    by its name, so two names never share a component even where they share a shape."""
    return {
        name: type(
            "".join(part.title() for part in name.split("_")) + "Effect",
            (shape,),
            {"__module__": __name__, "__doc__": shape.__doc__},
        )
        for name in names
    }


SHAPES: dict[str, serializers.Serializer | type[serializers.Serializer]] = {
    **_each(ClusterShape, "cluster_created", "cluster_deleted"),
    **_each(MemberSetShape, "member_set"),
    **_each(EdgeShape, "edge_added", "edge_removed"),
    **_each(TextSetShape, "label_set", "note_set"),
    **_each(LinkShape, "link_added", "link_removed"),
    **_each(MentionShape, "mention_added", "mention_removed"),
    **_each(SpansSetShape, "spans_set"),
    **_each(RejectedSetShape, "rejected_set"),
    **_each(SuggestionDecidedShape, "suggestion_decided"),
    **_each(ValidationSetShape, "validation_set"),
    **_each(LinkNoteSetShape, "link_note_set"),
    **_each(LinkAttributeSetShape, "link_attribute_set"),
    **_each(ClusterAttributeSetShape, "cluster_attribute_set"),
}

EFFECT = PolymorphicProxySerializer(
    component_name="Effect", serializers=SHAPES, resource_type_field_name="e"
)
