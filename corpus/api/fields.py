"""A format's name: a string the service checks, which the schema lists as an enum."""

from __future__ import annotations

from collections.abc import Iterable

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


def format_name(names: Iterable[str]) -> serializers.CharField:
    """A CharField whose schema is an enum of `names`, so the generated types (and the admin
    page's list) follow the registry; a string, not a choice, because the service refuses an
    unknown name in the admin's words (import_refused), not with DRF's "not a valid choice"."""

    @extend_schema_field({"type": "string", "enum": sorted(names)})
    class FormatName(serializers.CharField):
        pass

    return FormatName()
