from django.urls import path

from corpus.api import candidate_views as candidates
from corpus.api import views

urlpatterns = [
    path("corpora/", views.CorporaView.as_view(), name="api-corpora"),
    path("corpora/<int:pk>/", views.CorpusView.as_view(), name="api-corpus"),
    path("corpora/<int:pk>/imports/", views.CorpusImportView.as_view(), name="api-corpus-import"),
    path("corpus-imports/<int:pk>/", views.CorpusImportJobView.as_view(), name="api-corpus-job"),
    path(
        "corpora/<int:pk>/concept-groups/",
        candidates.ConceptGroupsView.as_view(),
        name="api-concept-groups",
    ),
    path(
        "candidate-runs/<int:pk>/", candidates.CandidateRunView.as_view(), name="api-candidate-run"
    ),
    path(
        "candidate-runs/<int:pk>/topics/",
        candidates.CandidateTopicsView.as_view(),
        name="api-candidate-topics",
    ),
    path("candidates/<int:pk>/", candidates.CandidateView.as_view(), name="api-candidate"),
    path(
        "candidates/<int:pk>/drop/",
        candidates.CandidateDropView.as_view(),
        name="api-candidate-drop",
    ),
    path(
        "candidates/<int:pk>/merge/",
        candidates.CandidateMergeView.as_view(),
        name="api-candidate-merge",
    ),
    path(
        "candidates/<int:pk>/split/",
        candidates.CandidateSplitView.as_view(),
        name="api-candidate-split",
    ),
]
