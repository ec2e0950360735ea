"""The admin pages' adjudication: the assignments page assigns seeded adjudications of the
topics two annotators submitted, the matrix shows them, and after one is submitted the
agreement report scores each annotator against it. Screenshot:
test-artifacts/admin-adjudicate-vs-gold.png."""

from playwright.sync_api import expect

from annotation.models import Assignment, Operation
from annotation.services.assignments import assignment_submit
from tests.e2e.test_admin_layout import submitted_by
from tests.factories import AdminFactory, UserFactory, demo_project


def test_an_admin_assigns_consensus_adjudications_and_the_report_scores_annotators_against_them(
    new_page, artifacts
):
    project = submitted_by(demo_project("Adjudicate", hierarchy=True), ("ann-a", "bob"))
    judge = UserFactory(username="judge")
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/assignments")
    form = page.get_by_test_id("adjudicate-form")
    expect(form).to_contain_text("Every topic with two submitted annotations")

    form.locator("select[name=adjudicator]").select_option(label="judge")
    form.get_by_role("button", name="Assign adjudication").click()

    expect(form.get_by_role("status")).to_have_text("6 adjudications assigned to judge.")
    adjudications = Assignment.objects.filter(user=judge, role=Assignment.Role.ADJUDICATOR)
    assert adjudications.count() == 6
    assert set(
        Operation.objects.filter(annotation__assignment__in=adjudications).values_list(
            "name", flat=True
        )
    ) == {"adjudication_seed"}
    expect(page.locator(".cell[data-status='assigned']")).to_have_count(6)  # the matrix reloads

    first = adjudications.order_by("topic__position").first()
    assignment_submit(assignment_id=first.pk, user=judge)
    page.goto(f"/manage/projects/{project.pk}/agreement")
    table = page.get_by_test_id("vs-gold")
    expect(table).to_contain_text("gold of 6 topics (1 adjudicated, 5 imported)")
    expect(table.locator("thead th")).to_have_text(["Metric", "ann-a (6 topics)", "bob (6 topics)"])
    expect(table.locator("tr[data-metric='muc'] td")).to_have_count(2)
    table.screenshot(path=str(artifacts / "admin-adjudicate-vs-gold.png"))
    assert page.errors == []
