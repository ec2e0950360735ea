"""Suggestion endpoints: project settings and backends (admins), runs, suggestions mapped onto
my annotation, bulk acceptance."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation.api.refusals import EDIT
from annotation.api.serializers.workspace import Applied
from annotation.errors import AnnotationLocked, Conflict, ServiceUnavailable
from annotation.models import Project
from annotation.selectors.access import visible_topics
from foundation.api.permissions import AdminView
from foundation.api.schema import refuses
from modelserve.acceptance_selectors import acceptance_by_backend
from modelserve.api.serializers import (
    AcceptanceRow,
    AppliedBatch,
    ProjectRunsAnswer,
    RunRequested,
    RunsAnswer,
    SuggestionBackends,
    SuggestionSettings,
    SuggestionsPayload,
    TrainingPayload,
    suggestion_kind,
)
from modelserve.backends import DEFAULT_BACKEND, available_backends
from modelserve.selectors import (
    all_suggestion_settings,
    annotation_suggestions_for,
    latest_trainings,
    project_suggestion_settings,
    run_payload,
    topic_runs,
)
from modelserve.services.decisions import suggestions_accept_above, suggestions_decide
from modelserve.services.runs import project_runs_request, topic_run_request
from modelserve.services.settings import suggestion_settings_set
from modelserve.training.profiles import PROFILES
from modelserve.workers import model_workers


class RunRequest(serializers.Serializer):
    backend = serializers.ChoiceField(choices=available_backends(), required=False)
    params = serializers.DictField(required=False, default=dict)


class SettingsRequest(serializers.Serializer):
    backend = serializers.ChoiceField(choices=available_backends(), required=False)
    params = serializers.DictField(required=False)
    learn = serializers.BooleanField(
        required=False, help_text="learn from this project's work (docs/learning.md)"
    )
    learn_encoder = serializers.CharField(
        required=False,
        allow_blank=True,
        help_text='an encoder folder inside the allowed model folders ("": the packaged MiniLM)',
    )
    learn_profile = serializers.ChoiceField(choices=sorted(PROFILES), required=False)


class AcceptAboveRequest(serializers.Serializer):
    expected_version = serializers.IntegerField(min_value=0)
    threshold = serializers.FloatField(min_value=0.0, max_value=1.0)
    kinds = serializers.ListField(child=suggestion_kind(), default=["membership", "edge", "link"])
    run = serializers.IntegerField(required=False, allow_null=True, default=None)
    client_id = serializers.CharField(required=False, allow_blank=True, max_length=64, default="")


class DecideRequest(serializers.Serializer):
    expected_version = serializers.IntegerField(min_value=0)
    decision = serializers.ChoiceField(choices=["accepted", "rejected"])
    suggestions = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=1,
        help_text="the open suggestions of one kind the annotator was shown the count of",
    )
    run = serializers.IntegerField(required=False, allow_null=True, default=None)
    client_id = serializers.CharField(required=False, allow_blank=True, max_length=64, default="")


class SuggestionsQuery(serializers.Serializer):
    run = serializers.IntegerField(required=False, allow_null=True, default=None)


class SuggestionBackendsView(AdminView):
    """The suggestion backends a project can name (the project form offers them)."""

    @extend_schema(responses=SuggestionBackends)
    def get(self, request):
        backends = {"backends": available_backends(), "default": DEFAULT_BACKEND}
        return Response(SuggestionBackends(backends).data)


class SuggestionSettingsListView(AdminView):
    """Every project's settings (the defaults for a project that never set any)."""

    @extend_schema(responses=SuggestionSettings(many=True))
    def get(self, request):
        return Response(SuggestionSettings(all_suggestion_settings(), many=True).data)


class ProjectSuggestionSettingsView(AdminView):
    """Which backend suggests for the project's topics, with which parameters."""

    @extend_schema(responses=SuggestionSettings)
    def get(self, request, pk: int):
        project = get_object_or_404(Project, pk=pk)
        return Response(SuggestionSettings(project_suggestion_settings(project.pk)).data)

    @extend_schema(request=SettingsRequest, responses=SuggestionSettings)
    def put(self, request, pk: int):
        data = SettingsRequest(data=request.data)
        data.is_valid(raise_exception=True)
        row = suggestion_settings_set(
            project=get_object_or_404(Project, pk=pk), **data.validated_data
        )
        return Response(SuggestionSettings(row).data)


class TopicRunsView(APIView):
    @extend_schema(responses=RunsAnswer)
    def get(self, request, pk: int):
        topic = get_object_or_404(visible_topics(request.user).select_related("project"), pk=pk)
        runs = topic_runs(topic)
        # Workers of the project's backend: another model's workers would never take its runs.
        return Response(RunsAnswer(runs | {"model_workers": model_workers(runs["backend"])}).data)

    # A locked (unqualified) annotator's topic: 423.
    @refuses(Conflict, ServiceUnavailable, AnnotationLocked)
    @extend_schema(request=RunRequest, responses={201: RunRequested})
    def post(self, request, pk: int):
        data = RunRequest(data=request.data)
        data.is_valid(raise_exception=True)
        run = topic_run_request(topic_id=pk, user=request.user, **data.validated_data)
        answer = run_payload(run) | {"model_workers": model_workers(run.backend)}
        return Response(RunRequested(answer).data, status=status.HTTP_201_CREATED)


class ProjectRunsView(AdminView):
    @refuses(Conflict, ServiceUnavailable)
    @extend_schema(request=RunRequest, responses={201: ProjectRunsAnswer})
    def post(self, request, pk: int):
        data = RunRequest(data=request.data)
        data.is_valid(raise_exception=True)
        runs = project_runs_request(
            project=get_object_or_404(Project, pk=pk), user=request.user, **data.validated_data
        )
        backend = runs[0].backend if runs else None
        answer = {"runs": [r.pk for r in runs], "model_workers": model_workers(backend)}
        return Response(ProjectRunsAnswer(answer).data, status=status.HTTP_201_CREATED)


class ProjectAcceptanceView(AdminView):
    @extend_schema(responses=AcceptanceRow(many=True))
    def get(self, request, pk: int):
        rows = acceptance_by_backend(project_id=get_object_or_404(Project, pk=pk).pk)
        return Response(AcceptanceRow(rows, many=True).data)


class ModelTrainingsView(AdminView):
    """The newest training of each model trained after start-up, with its progress."""

    @extend_schema(responses=TrainingPayload(many=True))
    def get(self, request):
        return Response(TrainingPayload(latest_trainings(), many=True).data)


class AnnotationSuggestionsView(APIView):
    @extend_schema(parameters=[SuggestionsQuery], responses=SuggestionsPayload)
    def get(self, request, pk: int):
        query = SuggestionsQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        suggestions = annotation_suggestions_for(
            request.user, pk, run_id=query.validated_data["run"]
        )
        return Response(SuggestionsPayload(suggestions).data)


class AcceptAboveView(APIView):
    @refuses(*EDIT)
    @extend_schema(request=AcceptAboveRequest, responses=AppliedBatch)
    def post(self, request, pk: int):
        data = AcceptAboveRequest(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        batch = suggestions_accept_above(
            annotation_id=pk,
            user=request.user,
            run_id=v["run"],
            threshold=v["threshold"],
            kinds=v["kinds"],
            expected_version=v["expected_version"],
            client_id=v["client_id"],
        )
        return Response(AppliedBatch(batch).data)


class DecideView(APIView):
    """Accept or reject the suggestions named, as ONE operation (one undo step)."""

    @refuses(*EDIT)
    @extend_schema(request=DecideRequest, responses=Applied)
    def post(self, request, pk: int):
        data = DecideRequest(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        applied = suggestions_decide(
            annotation_id=pk,
            user=request.user,
            run_id=v["run"],
            decision=v["decision"],
            suggestions=v["suggestions"],
            expected_version=v["expected_version"],
            client_id=v["client_id"],
        )
        return Response(Applied(applied.as_message()).data)
