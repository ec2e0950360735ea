"""Onboarding endpoints: an annotator's practice (feedback, attempts, reset); admins'
practice topics, qualification rule, per-annotator state and manual overrides."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.http import content_disposition_header
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation.api.parsers import FormParser, MultiPartParser
from annotation.models import Project, Topic
from foundation.api.permissions import AdminView
from foundation.api.schema import refuses
from onboarding.api import serializers as s
from onboarding.errors import AttemptsUsedUp
from onboarding.selectors.attempts_csv import attempts_csv
from onboarding.selectors.export import practice_corefi
from onboarding.selectors.my_practice import my_practice
from onboarding.selectors.qualification import project_qualifications, user_qualifications
from onboarding.services import attempts, practice, qualification


class MyPracticeView(APIView):
    @extend_schema(responses=s.MyPractice)
    def get(self, request, pk: int):
        return Response(s.MyPractice(my_practice(request.user, pk)).data)


class ResetView(APIView):
    @refuses(AttemptsUsedUp)
    @extend_schema(request=None, responses={201: s.PracticeReset})
    def post(self, request, pk: int):
        assignment = attempts.practice_reset(assignment_id=pk, user=request.user)
        answer = {"assignment": assignment.pk, "topic": assignment.topic.external_id}
        return Response(s.PracticeReset(answer).data, status=status.HTTP_201_CREATED)


class GuidedStartView(APIView):
    @extend_schema(request=None, responses=s.GuidedStarted)
    def post(self, request, pk: int):
        placed = practice.guided_start(assignment_id=pk, user=request.user)
        return Response({"placed": placed})


class ProjectOnboardingView(AdminView):
    @extend_schema(responses=s.ProjectOnboarding)
    def get(self, request, pk: int):
        project = get_object_or_404(Project, pk=pk)
        return Response(s.ProjectOnboarding(project_qualifications(project)).data)


class AttemptsCsvView(AdminView):
    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request, pk: int):
        """Every practice attempt of the project, one row each (onboarding/selectors/
        attempts_csv.py)."""
        project = get_object_or_404(Project, pk=pk)
        response = HttpResponse(attempts_csv(project), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = content_disposition_header(
            as_attachment=True, filename=f"{project.name}-onboarding-attempts.csv"
        )
        return response


class RuleView(AdminView):
    @extend_schema(request=s.RuleRequest, responses=s.ProjectOnboarding)
    def put(self, request, pk: int):
        project = get_object_or_404(Project, pk=pk)
        data = s.RuleRequest(data=request.data)
        data.is_valid(raise_exception=True)
        qualification.qualification_rule_set(
            project=project,
            practice_topic_ids=data.validated_data["practice_topics"],
            thresholds=data.validated_data["thresholds"],
            attempts_allowed=data.validated_data["attempts_allowed"],
        )
        return Response(s.ProjectOnboarding(project_qualifications(project)).data)


class PracticeTopicView(AdminView):
    @extend_schema(request=s.PracticeRequest, responses=s.PracticeRow)
    def put(self, request, pk: int):
        topic = get_object_or_404(Topic, pk=pk)
        data = s.PracticeRequest(data=request.data)
        data.is_valid(raise_exception=True)
        row = practice.practice_mark(topic=topic, mode=data.validated_data["mode"])
        return Response(
            {"id": row.pk, "topic": topic.pk, "external_id": topic.external_id, "mode": row.mode}
        )

    @extend_schema(responses={204: None})
    def delete(self, request, pk: int):
        practice.practice_unmark(topic=get_object_or_404(Topic, pk=pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class PracticeExportView(AdminView):
    @extend_schema(responses=s.CorefiFile)
    def get(self, request, pk: int):
        """The practice topic as a CoRefi file (its gold, tour and messages)."""
        # As built: the file's own fields, in its own order (the export equals the input).
        return Response(practice_corefi(get_object_or_404(Topic, pk=pk)))


class PracticeImportView(AdminView):
    parser_classes = (MultiPartParser, FormParser)

    @extend_schema(
        request={"multipart/form-data": s.PracticeImportRequest},
        responses={201: s.PracticeRow(many=True)},
    )
    def post(self, request, pk: int):
        project = get_object_or_404(Project, pk=pk)
        data = s.PracticeImportRequest(data=request.data)
        data.is_valid(raise_exception=True)
        upload = data.validated_data["file"]
        rows = practice.practice_import(
            project=project,
            path=upload,
            mode=data.validated_data.get("mode"),
            user=request.user,
            name=upload.name,
        )
        return Response(
            [
                {
                    "id": r.pk,
                    "topic": r.topic_id,
                    "external_id": r.topic.external_id,
                    "mode": r.mode,
                }
                for r in rows
            ],
            status=status.HTTP_201_CREATED,
        )


class QualifyView(AdminView):
    @extend_schema(request=s.QualifyRequest, responses=s.ProjectOnboarding)
    def post(self, request, pk: int, user: int):
        project = get_object_or_404(Project, pk=pk)
        annotator = get_object_or_404(get_user_model(), pk=user)
        data = s.QualifyRequest(data=request.data)
        data.is_valid(raise_exception=True)
        qualification.qualification_set(
            project=project,
            user=annotator,
            qualified=data.validated_data["qualified"],
            actor=request.user,
            note=data.validated_data["note"],
        )
        return Response(s.ProjectOnboarding(project_qualifications(project)).data)


class UserQualificationsView(AdminView):
    @extend_schema(responses=s.UserQualification(many=True))
    def get(self, request):
        return Response(s.UserQualification(user_qualifications(), many=True).data)
