"""What the onboarding endpoints take and answer (typed for the schema and the frontend)."""

from __future__ import annotations

from rest_framework import serializers

MODES = ["guided", "scored"]


class MetricScores(serializers.DictField):
    child = serializers.FloatField(allow_null=True)


class PracticeDiffCluster(serializers.Serializer):
    """One of the annotator's clusters that gold does not have as it is (no gold members)."""

    cluster = serializers.IntegerField(help_text="your cluster's id")
    label = serializers.CharField(help_text="your cluster's label")
    size = serializers.IntegerField(help_text="its mentions")
    mixed = serializers.BooleanField(help_text="it holds mentions gold keeps apart")
    split = serializers.BooleanField(
        help_text="gold puts some of its mentions with mentions outside it"
    )
    mention = serializers.IntegerField(help_text="your first mention in it")


class PracticeDiffEdge(serializers.Serializer):
    """One of the annotator's hierarchy edges that gold lacks, by their clusters' labels."""

    parent = serializers.CharField()
    child = serializers.CharField()
    cluster = serializers.IntegerField(allow_null=True)
    mention = serializers.IntegerField(allow_null=True)


class PracticeDiffLink(serializers.Serializer):
    type = serializers.CharField()
    anaphor = serializers.CharField()
    antecedent = serializers.CharField()
    mention = serializers.IntegerField(allow_null=True)


class PracticeDiff(serializers.Serializer):
    """What was wrong, without gold's answer: what gold has and the annotator lacks is only
    counted (docs/onboarding.md)."""

    mentions_wrong = serializers.IntegerField(help_text="mentions clustered differently")
    unclustered = serializers.IntegerField(help_text="mentions gold clusters that you did not")
    clusters = PracticeDiffCluster(many=True)
    missing_edges = serializers.IntegerField(help_text="gold's hierarchy edges you lack")
    extra_edges = PracticeDiffEdge(many=True)
    missing_links = serializers.IntegerField(help_text="gold's links you lack")
    extra_links = PracticeDiffLink(many=True)


class PracticeAttemptRow(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    topic = serializers.CharField()
    scores = MetricScores()
    diff = PracticeDiff()
    passed = serializers.BooleanField(allow_null=True)
    annotation = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()


class PracticeTourStep(serializers.Serializer):
    target = serializers.CharField()
    header = serializers.DictField(child=serializers.CharField(), required=False)
    content = serializers.CharField()
    params = serializers.DictField(child=serializers.CharField(), required=False)


class MyQualification(serializers.Serializer):
    required = serializers.BooleanField(help_text="the project requires qualification")
    qualified = serializers.BooleanField()
    unlocked = serializers.ListField(
        child=serializers.CharField(),
        help_text="once qualified: my real topics of the project still to do (topic ids)",
    )


class AttemptAllowance(serializers.Serializer):
    allowed = serializers.IntegerField(
        allow_null=True, help_text="scored attempts the project allows (null: no limit)"
    )
    used = serializers.IntegerField(help_text="my scored attempts in the project")
    left = serializers.IntegerField(
        allow_null=True, help_text="null: no limit applies (none set, or qualified)"
    )


class MyPractice(serializers.Serializer):
    assignment = serializers.IntegerField()
    topic = serializers.CharField()
    mode = serializers.ChoiceField(choices=MODES)
    tour_steps = PracticeTourStep(many=True)
    settings = serializers.DictField(child=serializers.JSONField())
    thresholds = MetricScores()
    attempts = PracticeAttemptRow(many=True)
    allowance = AttemptAllowance()
    qualification = MyQualification()


class PracticeReset(serializers.Serializer):
    assignment = serializers.IntegerField(help_text="the assignment of the next attempt")
    topic = serializers.CharField(
        help_text="its topic: after a failure, another practice topic where there is one"
    )


class GuidedStarted(serializers.Serializer):
    placed = serializers.IntegerField(help_text="mentions the file does not ask about, placed")


class PracticeRequest(serializers.Serializer):
    mode = serializers.ChoiceField(choices=MODES)


class PracticeRow(serializers.Serializer):
    id = serializers.IntegerField()
    topic = serializers.IntegerField()
    external_id = serializers.CharField()
    mode = serializers.ChoiceField(choices=MODES)


class PracticeImportRequest(serializers.Serializer):
    file = serializers.FileField(help_text="a CoRefi JSON file (or a .zip of several)")
    mode = serializers.ChoiceField(
        choices=MODES, required=False, help_text="default: guided for CoRefi onboarding files"
    )


class RuleRequest(serializers.Serializer):
    practice_topics = serializers.ListField(
        child=serializers.IntegerField(), help_text="practice topic ids; none: not required"
    )
    thresholds = MetricScores()
    attempts_allowed = serializers.IntegerField(
        min_value=1,
        allow_null=True,
        required=False,
        default=3,
        help_text="scored attempts per annotator; null: no limit",
    )


class QualificationRuleRow(serializers.Serializer):
    practice_topics = serializers.ListField(child=serializers.IntegerField())
    thresholds = MetricScores()
    attempts_allowed = serializers.IntegerField(allow_null=True)
    text = serializers.CharField()


class QualificationLogEntry(serializers.Serializer):
    qualified = serializers.BooleanField()
    source = serializers.CharField()
    actor = serializers.CharField(allow_null=True)
    note = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()


class AnnotatorQualification(serializers.Serializer):
    user = serializers.IntegerField()
    username = serializers.CharField()
    qualified = serializers.BooleanField()
    source = serializers.CharField(allow_null=True)
    updated_at = serializers.DateTimeField(allow_null=True)
    attempts = PracticeAttemptRow(many=True)
    log = QualificationLogEntry(many=True)


class GoldCoverage(serializers.Serializer):
    topic = serializers.IntegerField()
    covered = serializers.IntegerField(help_text="candidate mentions gold places in a cluster")
    mentions = serializers.IntegerField(help_text="the topic's candidate mentions")


class ProjectOnboarding(serializers.Serializer):
    required = serializers.BooleanField()
    rule = QualificationRuleRow()
    practice_topics = PracticeRow(many=True)
    gold_coverage = GoldCoverage(many=True, help_text="topics with gold only")
    annotators = AnnotatorQualification(many=True)


class QualifyRequest(serializers.Serializer):
    qualified = serializers.BooleanField()
    note = serializers.CharField(allow_blank=True, default="", max_length=2000)


class UserQualification(serializers.Serializer):
    user = serializers.IntegerField()
    project = serializers.IntegerField()
    project_name = serializers.CharField()
    qualified = serializers.BooleanField()
    source = serializers.CharField(allow_null=True)
    updated_at = serializers.DateTimeField(allow_null=True)
    attempts = serializers.IntegerField()
    passed_attempt = serializers.BooleanField()


class CorefiFile(serializers.Serializer):
    """A CoRefi file: its tokens and mentions, and every other field the imported file held
    (mode, tourSteps, goldMentions, selectedCluster, snackbarTimeout, ...)."""

    tokens = serializers.ListField(child=serializers.DictField())
    mentions = serializers.ListField(child=serializers.DictField())
