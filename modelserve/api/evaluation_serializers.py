"""What the Models page's endpoints read and answer (modelserve/evaluation_selectors.py,
modelserve/services/evaluations.py)."""

from __future__ import annotations

from rest_framework import serializers

from annotation.api.serializers.fields import EnumField, Number
from modelserve.models import ModelEvaluation


class EvaluationRequest(serializers.Serializer):
    backend = serializers.CharField(max_length=50)
    gold_source = EnumField(
        "EvaluationGold", ModelEvaluation.Gold.values, default=ModelEvaluation.Gold.GOLD
    )
    model_version = serializers.CharField(
        max_length=500,
        required=False,
        allow_blank=True,
        default="",
        help_text="a model folder (relative to the models folder); empty: the backend's own",
    )
    params = serializers.DictField(required=False, default=dict)


class CompareQuery(serializers.Serializer):
    runs = serializers.RegexField(
        r"^\d+(,\d+)?$", help_text="one evaluation id, or two separated by a comma"
    )


class BackendChoice(serializers.Serializer):
    name = serializers.CharField()
    takes_model = serializers.BooleanField(help_text="has a model folder to choose")
    model_versions = serializers.ListField(child=serializers.CharField())


class GoldChoice(serializers.Serializer):
    gold_source = EnumField("EvaluationGold", ModelEvaluation.Gold.values)
    description = serializers.CharField()
    topics = serializers.IntegerField(help_text="topics that have this gold")


class EvaluationChoices(serializers.Serializer):
    backends = BackendChoice(many=True)
    gold_sources = GoldChoice(many=True)


class ScoreWithInterval(serializers.Serializer):
    score = Number(allow_null=True)
    ci = serializers.ListField(
        child=Number(), allow_null=True, help_text="95% bootstrap interval over topics"
    )


class EvaluationTopic(serializers.Serializer):
    topic = serializers.CharField()
    model = serializers.DictField(child=Number(allow_null=True))
    annotators = serializers.DictField(
        child=Number(allow_null=True), allow_null=True, help_text="AVG; null: nobody submitted"
    )
    annotator_count = serializers.IntegerField()


class EvaluationOverall(serializers.Serializer):
    topics = serializers.IntegerField()
    model = serializers.DictField(child=ScoreWithInterval())


class EvaluationShared(EvaluationOverall):
    """The model and the annotators' AVG on the topics some annotator submitted."""

    annotators = serializers.ListField(child=serializers.CharField())
    annotators_avg = serializers.DictField(child=ScoreWithInterval())


class EvaluationResult(serializers.Serializer):
    scheme = serializers.CharField()
    metrics = serializers.ListField(child=serializers.CharField())
    topics = EvaluationTopic(many=True)
    overall = EvaluationOverall()
    shared = EvaluationShared()
    seconds_per_topic = Number()


class EvaluationRow(serializers.Serializer):
    id = serializers.IntegerField()
    project = serializers.IntegerField(source="project_id")
    backend = serializers.CharField()
    model_version = serializers.CharField()
    gold_source = EnumField("EvaluationGold", ModelEvaluation.Gold.values)
    status = EnumField("EvaluationStatus", ModelEvaluation.Status.values)
    progress = Number(help_text="0..1")
    message = serializers.CharField()
    device = serializers.CharField()
    requested_by = serializers.CharField(source="requested_by.username", allow_null=True)
    created_at = serializers.DateTimeField(format=None)
    started_at = serializers.DateTimeField(format=None, allow_null=True)
    finished_at = serializers.DateTimeField(format=None, allow_null=True)


class EvaluationDetail(EvaluationRow):
    params = serializers.DictField()
    error = serializers.CharField()
    result = EvaluationResult(allow_null=True, source="result_or_none")
