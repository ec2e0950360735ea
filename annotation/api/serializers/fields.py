"""Serializer fields for payloads the selectors and the domain already build as JSON.

Output serializers describe those dicts for the schema and pass them through: a value that is
already JSON keeps its exact form (an int stays an int, a datetime is written by the renderer
as before), so describing a payload never changes it.
"""

from __future__ import annotations

from types import FunctionType

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from rest_framework import serializers


class EnumField(serializers.ChoiceField):
    """A choice whose values are one named schema component (`AssignmentStatus`), so that
    every payload naming an assignment's status shares one TypeScript union."""

    def __init__(self, name: str, choices, **kwargs) -> None:
        self.enum_name = name
        super().__init__(choices=choices, **kwargs)


class EnumFieldExtension(OpenApiSerializerFieldExtension):
    target_class = EnumField
    match_subclasses = True

    def get_name(self) -> str:
        return self.target.enum_name

    def map_serializer_field(self, auto_schema, direction) -> dict:
        return {"type": "string", "enum": list(self.target.choices)}


class Number(serializers.FloatField):
    """A number as computed (a count of 3 stays 3, a score of 0.5 stays 0.5)."""

    def to_representation(self, value):
        return value


class Shaped(serializers.JSONField):
    """JSON the domain builds (an effect, an operation), described by `shape`: a serializer
    or a `PolymorphicProxySerializer` whose component the schema refers to, or a function
    returning one (for a shape that contains itself).

    It takes no help_text: a described reference must stay a bare `$ref`, since generators
    read `allOf: [$ref]` (where the description goes) as a subtype and drop its discriminator."""

    def __init__(self, shape, **kwargs) -> None:
        self.shape = shape
        super().__init__(**kwargs)


class ShapedDict(serializers.DictField):
    """A dict accepted as it is (the domain validates it, naming the faulty field), described
    by `shape` like `Shaped` (and, like it, without help_text)."""

    def __init__(self, shape, **kwargs) -> None:
        self.shape = shape
        super().__init__(**kwargs)


class ShapedExtension(OpenApiSerializerFieldExtension):
    target_class: type = Shaped
    match_subclasses = True

    def map_serializer_field(self, auto_schema, direction) -> dict:
        shape = self.target.shape
        if isinstance(shape, FunctionType):
            shape = shape()
        # One component for both directions: the shape has no read- or write-only parts.
        return auto_schema.resolve_serializer(shape, "response").ref


class ShapedDictExtension(ShapedExtension):
    target_class = ShapedDict


def span_list(**kwargs) -> serializers.ListField:
    """Inclusive [start, end] token offsets, one pair per span."""
    pair = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)
    return serializers.ListField(child=pair, **kwargs)
