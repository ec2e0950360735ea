from django.urls import path

from corpus.api import views

urlpatterns = [
    path("corpora/", views.CorporaView.as_view(), name="api-corpora"),
    path("corpora/<int:pk>/", views.CorpusView.as_view(), name="api-corpus"),
    path("corpora/<int:pk>/imports/", views.CorpusImportView.as_view(), name="api-corpus-import"),
    path("corpus-imports/<int:pk>/", views.CorpusImportJobView.as_view(), name="api-corpus-job"),
]
