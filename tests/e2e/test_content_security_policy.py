"""The Content-Security-Policy allows everything the app and the API docs need: their pages load
in Chromium under the policy the server sends without a single violation (the browser reports
each one as a `securitypolicyviolation` event and a console error)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from annotation.models import Project
from tests.factories import AdminFactory, UserFactory, assign, make_topic

RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} `
    + `(${e.sourceFile}:${e.lineNumber})`);
});
"""


def watched(page):
    """The page, recording policy violations and console errors from its next navigation."""
    page.add_init_script(RECORD_VIOLATIONS)
    page.console_errors = []
    page.on(
        "console",
        lambda message: message.type == "error" and page.console_errors.append(message.text),
    )
    return page


def violations(page) -> list[str]:
    csp_console = [text for text in page.console_errors if "Content Security Policy" in text]
    return page.evaluate("window.__cspViolations") + csp_console + page.errors


def visit(page, path: str, settings) -> None:
    response = page.goto(path)
    assert response.headers["content-security-policy"] == settings.CONTENT_SECURITY_POLICY


@pytest.fixture
def world():
    annotator = UserFactory(username="ann")
    project = Project.objects.create(name="CSP project")
    assignment, _ = assign(make_topic(project, external_id="topic-csp"), annotator)
    return annotator, project, assignment


def test_the_annotators_pages_load_without_a_policy_violation(new_page, world, settings):
    annotator, _, assignment = world
    page = watched(new_page(annotator))

    visit(page, "/", settings)
    expect(page.get_by_role("heading", name="My topics")).to_be_visible()
    visit(page, f"/annotate/{assignment.pk}", settings)
    page.wait_for_selector("html[data-workspace-ready='true']")
    page.keyboard.press("?")  # the key help: a modal with styles of its own
    page.keyboard.press("Escape")

    assert violations(page) == []


@pytest.mark.parametrize(
    "path", ["/manage", "/manage/users", "progress", "assignments", "topics", "agreement"]
)
def test_the_admin_pages_load_without_a_policy_violation(new_page, world, settings, path):
    _, project, _ = world
    page = watched(new_page(AdminFactory()))

    visit(page, path if path.startswith("/") else f"/manage/projects/{project.pk}/{path}", settings)
    page.wait_for_load_state("networkidle")
    expect(page.locator("h1, h2").first).to_be_visible()

    assert violations(page) == []


def test_the_sign_in_page_loads_without_a_policy_violation(new_page, settings):
    page = watched(new_page())

    visit(page, "/login", settings)
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()

    assert violations(page) == []


def test_the_api_docs_load_without_a_policy_violation(new_page, settings):
    page = watched(new_page(UserFactory()))

    visit(page, "/api/docs/", settings)
    # Swagger UI built the page from the schema: its script ran, its styles applied.
    expect(page.locator(".swagger-ui .information-container .title")).to_contain_text(
        "corefapp API"
    )
    expect(page.locator(".opblock").first).to_be_visible()
    assert violations(page) == []
    assert re.match(
        r"rgb\(250, 250, 250\)", page.evaluate("getComputedStyle(document.body).backgroundColor")
    )
