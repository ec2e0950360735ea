from django.urls import path

from modelserve.api import candidate_runs, corpus_encodings, corpus_queries, versions
from modelserve.api import evaluation_views as evaluations
from modelserve.api import views as api

urlpatterns = [
    path(
        "corpora/<int:pk>/encodings/",
        corpus_encodings.CorpusEncodingView.as_view(),
        name="api-corpus-encodings",
    ),
    path(
        "corpora/<int:pk>/candidate-runs/",
        candidate_runs.CandidateRunsView.as_view(),
        name="api-candidate-runs",
    ),
    path(
        "annotations/<int:pk>/corpus-query/",
        corpus_queries.CorpusQueryView.as_view(),
        name="api-corpus-query",
    ),
    path(
        "suggestion-backends/", api.SuggestionBackendsView.as_view(), name="api-suggestion-backends"
    ),
    path(
        "suggestion-settings/",
        api.SuggestionSettingsListView.as_view(),
        name="api-suggestion-settings-list",
    ),
    path(
        "projects/<int:pk>/suggestion-settings/",
        api.ProjectSuggestionSettingsView.as_view(),
        name="api-suggestion-settings",
    ),
    path(
        "projects/<int:pk>/model-versions/",
        versions.ProjectModelVersionsView.as_view(),
        name="api-model-versions",
    ),
    path(
        "projects/<int:pk>/model-versions/pinned/",
        versions.ProjectModelVersionPinView.as_view(),
        name="api-model-version-pin",
    ),
    path("model-trainings/", api.ModelTrainingsView.as_view(), name="api-model-trainings"),
    path("topics/<int:pk>/suggestion-runs/", api.TopicRunsView.as_view(), name="api-topic-runs"),
    path(
        "projects/<int:pk>/suggestion-runs/", api.ProjectRunsView.as_view(), name="api-project-runs"
    ),
    path(
        "projects/<int:pk>/suggestion-acceptance/",
        api.ProjectAcceptanceView.as_view(),
        name="api-acceptance",
    ),
    path(
        "annotations/<int:pk>/suggestions/",
        api.AnnotationSuggestionsView.as_view(),
        name="api-suggestions",
    ),
    path(
        "annotations/<int:pk>/suggestions/accept-above/",
        api.AcceptAboveView.as_view(),
        name="api-accept-above",
    ),
    path(
        "annotations/<int:pk>/suggestions/decide/",
        api.DecideView.as_view(),
        name="api-decide-suggestions",
    ),
    path(
        "projects/<int:pk>/model-evaluation-choices/",
        evaluations.EvaluationChoicesView.as_view(),
        name="api-model-evaluation-choices",
    ),
    path(
        "projects/<int:pk>/model-evaluations/",
        evaluations.ProjectEvaluationsView.as_view(),
        name="api-model-evaluations",
    ),
    path(
        "model-evaluations/csv/",
        evaluations.EvaluationsCsvView.as_view(),
        name="api-model-evaluations-csv",
    ),
    path(
        "model-evaluations/<int:pk>/",
        evaluations.EvaluationView.as_view(),
        name="api-model-evaluation",
    ),
]
