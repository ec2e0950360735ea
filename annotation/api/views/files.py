"""Admin endpoints that move files: import by upload, export as a download."""

from __future__ import annotations

import json

from django.http import FileResponse, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.http import content_disposition_header
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from annotation.api.parsers import FormParser, MultiPartParser
from annotation.api.serializers.files import ImportSummary
from annotation.api.serializers.import_jobs import ImportJobPayload
from annotation.models import ImportJob, Project
from annotation.services.downloads import annotations_download
from annotation.services.imports.guessing import AUTO
from annotation.services.imports.jobs import import_job_create, is_large
from annotation.services.imports.upload import topics_upload_import
from corefscore.formats import READERS, WRITERS
from corefscore.formats.raw import LEVELS as RAW_LEVELS
from foundation.api.permissions import AdminView


class ImportRequest(serializers.Serializer):
    file = serializers.FileField(
        help_text="the file; for brat (or a folder of CoRefi files) a .zip of the folder",
        # In the admin's words: the page shows these, not "Invalid input.".
        error_messages={
            "empty": "The file is empty: there is nothing to import.",
            "required": "Choose a file to import.",
            "invalid": "No file was received: choose a file to import.",
        },
    )
    format = serializers.ChoiceField(
        choices=[AUTO, *sorted(READERS)],
        help_text="auto: guessed from the file, and said in the warnings",
    )
    skip_invalid = serializers.BooleanField(default=False)
    raw = serializers.ChoiceField(
        choices=["", *RAW_LEVELS],
        default="",
        help_text="leave the file's annotation out (no gold, no seed): text = documents only; "
        "mentions = documents and the file's mentions, without clusters, relations or links",
    )


class ImportView(AdminView):
    parser_classes = (MultiPartParser, FormParser)

    @extend_schema(
        request={"multipart/form-data": ImportRequest},
        responses={201: ImportSummary, 202: ImportJobPayload},
    )
    def post(self, request, pk: int):
        project = get_object_or_404(Project, pk=pk)
        data = ImportRequest(data=request.data)
        data.is_valid(raise_exception=True)
        if is_large(data.validated_data["file"]):  # to the worker: poll the job
            job = import_job_create(
                project=project,
                upload=data.validated_data["file"],
                format=data.validated_data["format"],
                skip_invalid=data.validated_data["skip_invalid"],
                raw=data.validated_data["raw"] or None,
                user=request.user,
            )
            return Response(ImportJobPayload(job).data, status=status.HTTP_202_ACCEPTED)
        result = topics_upload_import(
            project=project,
            upload=data.validated_data["file"],
            format=data.validated_data["format"],
            skip_invalid=data.validated_data["skip_invalid"],
            raw=data.validated_data["raw"] or None,
            user=request.user,
        )
        return Response(ImportSummary(result).data, status=status.HTTP_201_CREATED)


class ImportJobView(AdminView):
    @extend_schema(responses=ImportJobPayload)
    def get(self, request, pk: int):
        return Response(ImportJobPayload(get_object_or_404(ImportJob, pk=pk)).data)


# In a header so the download stays a plain file; capped so the header stays small.
WARNINGS_HEADER = "X-Export-Warnings"
WARNINGS_SHOWN = 20


class ExportQuery(serializers.Serializer):
    # The export service checks both and says what it accepts.
    format = serializers.CharField(allow_blank=True, default="scico")
    source = serializers.CharField(allow_blank=True, default="")


class ExportView(AdminView):
    @extend_schema(
        parameters=[
            OpenApiParameter("format", str, enum=sorted(WRITERS)),
            OpenApiParameter(
                "source", str, description="gold | adjudicated | submitted | all | a username"
            ),
        ],
        responses={(200, "application/octet-stream"): OpenApiTypes.BINARY},
        description=(
            f"The writer's warnings (what the format cannot hold, with counts) come in the "
            f"`{WARNINGS_HEADER}` header: a JSON list of strings, at most "
            f"{WARNINGS_SHOWN} and then how many more."
        ),
    )
    def get(self, request, pk: int):
        query = ExportQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        download = annotations_download(
            project=get_object_or_404(Project, pk=pk),
            format=query.validated_data["format"],
            source=query.validated_data["source"] or None,
        )
        if not download.zipped:
            response = FileResponse(download.file, as_attachment=True, filename=download.filename)
        else:
            response = HttpResponse(download.file.read(), content_type="application/zip")
            response["Content-Disposition"] = content_disposition_header(
                as_attachment=True, filename=download.filename
            )
        if download.warnings:
            response[WARNINGS_HEADER] = _warnings_header(download.warnings)
        return response


def _warnings_header(warnings: tuple[str, ...]) -> str:
    shown = list(warnings[:WARNINGS_SHOWN])
    if len(warnings) > WARNINGS_SHOWN:
        shown.append(f"and {len(warnings) - WARNINGS_SHOWN} more warning(s)")
    # ASCII escapes: header values must be Latin-1, mention texts are not.
    return json.dumps(shown, ensure_ascii=True)
