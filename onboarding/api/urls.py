from django.urls import path

from onboarding.api import views

urlpatterns = [
    path("onboarding/assignments/<int:pk>/", views.MyPracticeView.as_view()),
    path("onboarding/assignments/<int:pk>/reset/", views.ResetView.as_view()),
    path("onboarding/assignments/<int:pk>/start/", views.GuidedStartView.as_view()),
    path("onboarding/projects/<int:pk>/", views.ProjectOnboardingView.as_view()),
    path("onboarding/projects/<int:pk>/rule/", views.RuleView.as_view()),
    path("onboarding/projects/<int:pk>/attempts/csv/", views.AttemptsCsvView.as_view()),
    path("onboarding/projects/<int:pk>/import/", views.PracticeImportView.as_view()),
    path("onboarding/projects/<int:pk>/users/<int:user>/", views.QualifyView.as_view()),
    path("onboarding/topics/<int:pk>/practice/", views.PracticeTopicView.as_view()),
    path("onboarding/topics/<int:pk>/corefi/", views.PracticeExportView.as_view()),
    path("onboarding/users/", views.UserQualificationsView.as_view()),
]
