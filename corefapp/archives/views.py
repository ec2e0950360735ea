"""The admin's import of a project archive by upload: POST /api/project-archives/ (the same
import as `manage.py import_project`, docs/operations.md)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from annotation.api.parsers import FormParser, MultiPartParser
from annotation.errors import UploadTooLarge
from corefapp.archives.importer import project_archive_upload_import
from foundation.api.permissions import AdminView
from foundation.api.schema import refuses


class ArchiveImportRequest(serializers.Serializer):
    file = serializers.FileField(
        help_text="a project archive (.zip) written by export_project",
        error_messages={
            "empty": "The file is empty: there is nothing to import.",
            "required": "Choose a project archive to import.",
            "invalid": "No file was received: choose a project archive to import.",
        },
    )
    name = serializers.CharField(
        max_length=200,
        required=False,
        allow_blank=True,
        default="",
        help_text="import under this name (blank: the archive's)",
    )
    in_my_topics = serializers.BooleanField(
        default=False,
        help_text="list the imported assignments in their annotators' My topics (default: "
        "not; the project's settings can list them later)",
    )


class ArchiveImported(serializers.Serializer):
    """What an archive import wrote (corefapp.archives.importer.Imported)."""

    project = serializers.CharField(help_text="the new project's name")
    project_id = serializers.IntegerField()
    rows = serializers.DictField(child=serializers.IntegerField(), help_text="rows per table")
    users_created = serializers.ListField(
        child=serializers.CharField(), help_text="accounts created, without a password"
    )
    users_matched = serializers.ListField(child=serializers.CharField())
    staff_in_source = serializers.ListField(
        child=serializers.CharField(),
        help_text="created users who were staff where exported (not here)",
    )
    in_my_topics = serializers.BooleanField(
        help_text="its assignments are listed in the annotators' My topics"
    )


class ProjectArchiveImportView(AdminView):
    parser_classes = (MultiPartParser, FormParser)

    @extend_schema(
        request={"multipart/form-data": ArchiveImportRequest}, responses={201: ArchiveImported}
    )
    @refuses(UploadTooLarge, rules=False)
    def post(self, request):
        data = ArchiveImportRequest(data=request.data)
        data.is_valid(raise_exception=True)
        imported = project_archive_upload_import(
            upload=data.validated_data["file"],
            name=data.validated_data["name"].strip(),
            in_my_topics=data.validated_data["in_my_topics"],
        )
        return Response(ArchiveImported(imported).data, status=status.HTTP_201_CREATED)
