"""What the suggestion endpoints answer (modelserve/selectors.py, modelserve/services)."""

from __future__ import annotations

from rest_framework import serializers

from annotation.api.serializers.effects import decision
from annotation.api.serializers.fields import EnumField, Number, Shaped, span_list
from annotation.api.serializers.operations import EDIT_OPERATION
from annotation.api.serializers.workspace import Applied
from modelserve.models import ModelTraining, SuggestionRun

SUGGESTION_KINDS = ("membership", "edge", "link", "mention")


def suggestion_kind(**kwargs) -> EnumField:
    return EnumField("SuggestionKind", SUGGESTION_KINDS, **kwargs)


class SuggestionBackends(serializers.Serializer):
    backends = serializers.ListField(child=serializers.CharField())
    default = serializers.CharField()


class SuggestionSettings(serializers.Serializer):
    """A project's settings (modelserve.models.SuggestionSettings, saved or the defaults)."""

    project = serializers.IntegerField(source="project_id")
    backend = serializers.CharField()
    params = serializers.DictField()
    learn = serializers.BooleanField(help_text="submitted work retrains the suggester")
    learn_encoder = serializers.CharField(
        help_text='the encoder folder learning fine-tunes from ("": the packaged MiniLM)'
    )
    learn_profile = serializers.CharField(
        help_text="the cross-encoder's training profile: default or scico-b2 (docs/models.md)"
    )


class RunPayload(serializers.Serializer):
    """A suggestion run of a topic (modelserve/selectors.py `run_payload`); the websocket
    sends the same with `"type": "run"`."""

    run = serializers.IntegerField()
    topic = serializers.IntegerField()
    backend = serializers.CharField()
    status = EnumField("RunStatus", SuggestionRun.Status.values)
    progress = Number(help_text="0..1")
    message = serializers.CharField()
    error = serializers.CharField(help_text='the first paragraph of a failed run\'s error ("")')
    attempts = serializers.IntegerField()
    created_at = serializers.DateTimeField(format=None, allow_null=True)
    finished_at = serializers.DateTimeField(format=None, allow_null=True)
    timings = serializers.DictField(child=Number(), help_text="seconds per stage, and counts")


class RunsAnswer(serializers.Serializer):
    """A topic's 20 newest runs, the backend its project suggests with, the live workers."""

    runs = RunPayload(many=True)
    backend = serializers.CharField()
    model_workers = serializers.ListField(
        child=serializers.CharField(), help_text="none: a queued run waits"
    )


class RunRequested(RunPayload):
    model_workers = serializers.ListField(
        child=serializers.CharField(), help_text="none: the run waits"
    )


class ProjectRunsAnswer(serializers.Serializer):
    runs = serializers.ListField(child=serializers.IntegerField(), help_text="one per topic")
    model_workers = serializers.ListField(child=serializers.CharField())


class AcceptanceRow(serializers.Serializer):
    """Decisions on one backend's suggestions of one kind (modelserve/acceptance_selectors.py)."""

    backend = serializers.CharField()
    kind = serializers.CharField()
    accepted = serializers.IntegerField()
    rejected = serializers.IntegerField()
    acceptance_rate = Number()


class SuggestionItem(serializers.Serializer):
    suggestion = serializers.IntegerField()
    score = Number()
    uncertainty = Number(
        help_text="how unsure the model is, 0-1: the question mode asks the highest first "
        "(docs/questions.md)"
    )
    operation = Shaped(EDIT_OPERATION)  # what accepting applies now, on my clusters
    decision = decision(allow_null=True)
    valid = serializers.BooleanField(help_text="false: the rules refuse `operation` now")
    reason = serializers.CharField(help_text="why the rules refuse it")


class MembershipItem(SuggestionItem):
    mention = serializers.IntegerField()
    suggested_members = serializers.ListField(
        child=serializers.IntegerField(), help_text="every mention of the suggested cluster"
    )


class MentionItem(SuggestionItem):
    """A proposed new mention; accepting adds it (`add_mention`)."""

    document = serializers.IntegerField()
    spans = span_list()


class SuggestionsPayload(serializers.Serializer):
    """Suggestions mapped onto my annotation (modelserve/selectors.py)."""

    run = RunPayload(allow_null=True, help_text="the finished run the items come from")
    memberships = MembershipItem(many=True)
    edges = SuggestionItem(many=True)
    links = SuggestionItem(many=True)
    mentions = MentionItem(many=True, help_text="proposed mentions the annotation lacks")
    version = serializers.IntegerField(help_text="the annotation version the items fit")
    newest_run = RunPayload(allow_null=True, help_text="the topic's newest run in any state")


class SkippedSuggestion(serializers.Serializer):
    suggestion = serializers.IntegerField()
    reason = serializers.CharField()


class AppliedBatch(serializers.Serializer):
    """Accepted suggestions, each its own applied change."""

    applied = Applied(many=True)
    skipped = SkippedSuggestion(many=True)
    version = serializers.IntegerField()


class TrainingPayload(serializers.Serializer):
    """A model trained in the model worker after start-up (modelserve/services/trainings.py)."""

    name = serializers.CharField()
    status = EnumField("TrainingStatus", ModelTraining.Status.values)
    progress = Number(help_text="0..1")
    message = serializers.CharField()
    created_at = serializers.DateTimeField(format=None)
    started_at = serializers.DateTimeField(format=None, allow_null=True)
    finished_at = serializers.DateTimeField(format=None, allow_null=True)
