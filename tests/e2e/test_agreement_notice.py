"""The agreement page tells a project's admins that migration 0014 moved the project's primary
hierarchy F1 from the raw edges count (once labelled SciCo's) to SciCo's closure count, and
stops once an admin has chosen the count again."""

import importlib

from django.apps import apps
from playwright.sync_api import expect

from annotation.models import Project
from annotation.services.projects import project_update
from reporting.selectors.agreement_notices import HIERARCHY_COUNT_MOVED
from tests.factories import AdminFactory

MIGRATION = importlib.import_module("annotation.migrations.0014_hierarchy_count_scico")


def test_admins_of_a_migrated_project_see_the_notice_on_the_agreement_page(new_page):
    project = Project.objects.create(name="Raw primary", hierarchy=True, hierarchy_count="raw")
    MIGRATION.to_closure(apps, None)
    page = new_page(AdminFactory())

    with page.expect_response(lambda r: r.url.endswith(f"/api/projects/{project.pk}/agreement/")):
        page.goto(f"/manage/projects/{project.pk}/agreement")

    notice = page.get_by_test_id("agreement-notice")
    expect(notice).to_have_count(1)
    expect(notice).to_have_text(HIERARCHY_COUNT_MOVED)

    project.refresh_from_db()
    project_update(project=project, hierarchy_count="closure")
    with page.expect_response(lambda r: r.url.endswith(f"/api/projects/{project.pk}/agreement/")):
        page.reload()
    expect(page.get_by_text("No topic has two submitted annotations yet")).to_be_visible()
    expect(page.get_by_test_id("agreement-notice")).to_have_count(0)
