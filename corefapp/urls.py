from django.conf import settings
from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts.api.throttles import throttled_admin_login
from corefapp import database_outage
from corefapp.archives.views import ProjectArchiveImportView
from corefapp.metrics.views import metrics
from corefapp.spa import spa
from corefapp.views import healthz
from foundation.api import errors

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("metrics", metrics, name="metrics"),
    # Before the admin's own: the same sign-in throttle as the API's.
    path("admin/login/", throttled_admin_login(admin.site.login)),
    path("admin/", admin.site.urls),
    path("api/", include("accounts.api.urls")),
    path("api/", include("annotation.api.urls")),
    path("api/", include("reporting.api.urls")),
    path("api/", include("adjudication.api.urls")),
    path("api/", include("validation.api.urls")),
    path("api/", include("modelserve.urls")),
    path("api/", include("datasets.api.urls")),
    path("api/", include("onboarding.api.urls")),
    path("api/", include("corpus.api.urls")),
    path("api/project-archives/", ProjectArchiveImportView.as_view(), name="project-archives"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view loads its set-up script as a file: no inline script for the CSP to allow.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    re_path(r"^api/(?P<path>.*)$", errors.api_not_found),
]
# Single sign-on (accounts/oidc.py): /oidc/authenticate/ and /oidc/callback/, when configured.
if settings.OIDC_RP_CLIENT_ID:
    urlpatterns.append(path("oidc/", include("mozilla_django_oidc.urls")))
urlpatterns += [
    # Everything else is a page of the browser application, which routes on the client.
    re_path(r"^(?!api/|admin/|static/|ws/|healthz|oidc/)(?P<path>.*)$", spa, name="spa"),
]

handler400 = errors.bad_request
handler404 = errors.not_found
handler500 = database_outage.server_error
