"""What the Models page's endpoints read and answer (modelserve/evaluation_selectors.py,
modelserve/services/evaluations.py)."""

from __future__ import annotations

from rest_framework import serializers

from annotation.api.serializers.fields import EnumField, Number
from annotation.api.serializers.gold import gold_coverage_field
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
    version = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        max_value=2**63 - 1,  # an id: the database's bigint
        help_text="one of the project's learnt model versions (its id), instead of a folder",
    )
    params = serializers.DictField(required=False, default=dict)
    include_trained = serializers.BooleanField(
        required=False,
        default=False,
        help_text="score the topics a compared model was trained on too (marked); by default "
        "they are left out",
    )


class CompareQuery(serializers.Serializer):
    runs = serializers.RegexField(
        r"^\d+(,\d+)?$", help_text="one evaluation id, or two separated by a comma"
    )


class LearntVersionChoice(serializers.Serializer):
    """A version learnt from the project's work (docs/learning.md)."""

    id = serializers.IntegerField()
    number = serializers.IntegerField()
    backend = serializers.CharField()
    created_at = serializers.DateTimeField(format=None)
    topics_used = serializers.IntegerField(help_text="topics trained on")
    holdout_topics = serializers.IntegerField()
    score = Number(allow_null=True, help_text="its primary held-out figure; null: none")
    metric = serializers.CharField(help_text="the name of that figure")
    not_worse = serializers.BooleanField()
    eligible = serializers.BooleanField(help_text="may serve without an admin choosing it")
    eligibility = serializers.CharField(help_text="why it is (not) eligible, in words")
    serving = serializers.BooleanField(help_text="the project's runs use it now")
    pinned = serializers.BooleanField(help_text="an admin chose it")


class ModelChoice(serializers.Serializer):
    model_version = serializers.CharField(
        help_text="the model folder (relative to the models folder where inside it)"
    )
    version = LearntVersionChoice(
        allow_null=True, help_text="a learnt version (send its id); null: a trained folder"
    )


class BackendChoice(serializers.Serializer):
    name = serializers.CharField()
    takes_model = serializers.BooleanField(help_text="has a model folder to choose")
    model_versions = ModelChoice(
        many=True, help_text="the project's learnt versions, newest first, then other folders"
    )


class GoldChoice(serializers.Serializer):
    gold_source = EnumField("EvaluationGold", ModelEvaluation.Gold.values)
    description = serializers.CharField()
    topics = serializers.IntegerField(help_text="topics that have this gold")
    gold_coverage = gold_coverage_field()


class SeenTopic(serializers.Serializer):
    """A topic some model was trained on (modelserve/evaluation_seen.py)."""

    topic = serializers.CharField(help_text="its name (external id)")
    seen_by = serializers.ListField(
        child=serializers.CharField(), help_text='"version 2", "the default ChEMU model"'
    )


class SeenTopicId(SeenTopic):
    topic_id = serializers.IntegerField()


class EvaluationChoices(serializers.Serializer):
    backends = BackendChoice(many=True)
    gold_sources = GoldChoice(many=True)
    seen = SeenTopicId(
        many=True, help_text="topics a model here was trained on: left out by default"
    )


class ScoreWithInterval(serializers.Serializer):
    score = Number(allow_null=True, help_text="null: undefined (undefined_reasons says why)")
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
    seen_by = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="models trained on this topic (scored only when asked: marked red)",
    )


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
    left_out = SeenTopic(
        many=True, required=False, help_text="gold topics left out: a compared model saw them"
    )
    trained_on_scored = serializers.IntegerField(
        required=False, help_text="scored topics some compared model was trained on"
    )
    undefined_reasons = serializers.DictField(
        child=serializers.CharField(),
        required=False,
        help_text="metric -> why its score is null where it is (nothing to score in the gold "
        "or the response); absent from evaluations run before it was recorded",
    )


class EvaluationVersion(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()


class EvaluationRow(serializers.Serializer):
    id = serializers.IntegerField()
    project = serializers.IntegerField(source="project_id")
    backend = serializers.CharField()
    model_version = serializers.CharField()
    version = EvaluationVersion(
        allow_null=True, help_text="the learnt version scored; null: a folder or the default"
    )
    gold_source = EnumField("EvaluationGold", ModelEvaluation.Gold.values)
    include_trained = serializers.BooleanField(help_text="topics a model saw were scored too")
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
