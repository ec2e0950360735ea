"""A project's learnt model versions (docs/learning.md): the list with held-out scores and
the running training, and the admin's rollback (a pinned version) or return to automatic."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from annotation.api.serializers.fields import Number
from annotation.models import Project
from foundation.api.permissions import AdminView
from modelserve.api.evaluation_serializers import SeenTopicId
from modelserve.api.serializers import TrainingPayload
from modelserve.services.versions import model_version_pin
from modelserve.version_selectors import project_model_versions


class ModelVersionPayload(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    backend = serializers.CharField()
    path = serializers.CharField()
    topics_used = serializers.IntegerField(help_text="topics trained on")
    holdout_topics = serializers.IntegerField()
    scores = serializers.DictField(
        child=Number(), allow_null=True, help_text="held-out figures; null: none held out"
    )
    score = Number(allow_null=True, help_text="the backend's primary held-out figure")
    previous_score = Number(
        allow_null=True, help_text="the version serving before it, on the same held-out topics"
    )
    not_worse = serializers.BooleanField(help_text="not below what served, on the same topics")
    compared_with = serializers.CharField(help_text="what served when it was trained")
    degenerate = serializers.CharField(help_text="why its held-out suggestions are degenerate")
    eligible = serializers.BooleanField(help_text="may serve without an admin choosing it")
    eligibility = serializers.CharField(help_text="why it is (not) eligible, in words")
    trained_topics = serializers.ListField(
        child=serializers.IntegerField(), help_text="ids of the topics it was trained on"
    )
    created_at = serializers.DateTimeField(format=None)


class ProjectTrainingPayload(TrainingPayload):
    error = serializers.CharField(help_text="a failed training's traceback")


class ModelVersions(serializers.Serializer):
    learn = serializers.BooleanField()
    pinned = serializers.IntegerField(allow_null=True, help_text="an admin's choice; null: auto")
    base_backend = serializers.CharField(help_text="the base model: the backend as set")
    base_chosen = serializers.BooleanField(help_text="an admin chose the base model")
    serving = serializers.IntegerField(
        allow_null=True, help_text="the version runs use; null: the base model"
    )
    metrics = serializers.DictField(
        child=serializers.CharField(), help_text="backend -> its primary held-out figure"
    )
    versions = ModelVersionPayload(many=True)
    training = ProjectTrainingPayload(allow_null=True, help_text="the newest retraining")
    default_trained_texts = SeenTopicId(
        many=True, help_text="topics whose text a default model was trained on"
    )


class VersionPin(serializers.Serializer):
    version = serializers.IntegerField(
        allow_null=True, help_text="a version's id; null: the newest eligible one"
    )
    base = serializers.BooleanField(
        required=False, default=False, help_text="serve the base model (the backend as set)"
    )


class ProjectModelVersionsView(AdminView):
    @extend_schema(responses=ModelVersions)
    def get(self, request, pk: int):
        project = get_object_or_404(Project, pk=pk)
        return Response(ModelVersions(project_model_versions(project.pk)).data)


class ProjectModelVersionPinView(AdminView):
    @extend_schema(request=VersionPin, responses=ModelVersions)
    def put(self, request, pk: int):
        data = VersionPin(data=request.data)
        data.is_valid(raise_exception=True)
        project = get_object_or_404(Project, pk=pk)
        model_version_pin(
            project=project,
            version_id=data.validated_data["version"],
            base=data.validated_data["base"],
        )
        return Response(ModelVersions(project_model_versions(project.pk)).data)
