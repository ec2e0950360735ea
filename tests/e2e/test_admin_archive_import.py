"""The admin imports a project archive from the Manage page: by default its assignments stay
out of the annotators' My topics; ticked at import, or later in the project's settings, they
are listed as work to do. Screenshots: test-artifacts/archive-import-*.png."""

from django.core.management import call_command
from playwright.sync_api import expect

from annotation.models import Project
from tests.factories import AdminFactory, UserFactory, assign, make_topic

MY_TOPICS_ROWS = "table.topics tbody tr[data-assignment]"


def import_archive(page, archive, name: str, *, in_my_topics: bool):
    page.goto("/manage")
    page.get_by_role("link", name="Import project archive").click()
    page.get_by_label("Archive").set_input_files(str(archive))
    page.get_by_label("Name").fill(name)
    box = page.get_by_test_id("archive-in-my-topics")
    expect(box).not_to_be_checked()  # off unless the admin chooses
    if in_my_topics:
        box.check()
    with page.expect_response(
        lambda r: r.url.endswith("/api/project-archives/") and r.request.method == "POST"
    ) as answer:
        page.get_by_role("button", name="Import archive").click()
    assert answer.value.status == 201, answer.value.text()
    expect(page.get_by_role("status").filter(has_text=f"Imported project {name}")).to_be_visible()


def my_projects(page, expected: list[str]) -> None:
    """My topics, freshly loaded, lists one assignment of each of these projects, in order."""
    with page.expect_response(lambda r: "/api/assignments/mine/" in r.url):
        page.goto("/")
    cells = page.locator(MY_TOPICS_ROWS).locator("td:nth-child(2)")
    expect(cells).to_have_count(len(expected))
    for cell, name in zip(cells.all(), expected, strict=True):
        expect(cell).to_contain_text(name)


def test_an_imported_archives_assignments_reach_my_topics_only_when_the_admin_chooses(
    new_page, artifacts, tmp_path
):
    ann = UserFactory(username="ann")
    pilot = Project.objects.create(name="pilot")
    assign(make_topic(pilot, external_id="t-1"), ann)
    archive = tmp_path / "pilot.zip"
    call_command("export_project", "pilot", str(archive))
    admin = new_page(AdminFactory())
    annotator = new_page(ann)

    import_archive(admin, archive, "pilot copy", in_my_topics=False)
    expect(admin.get_by_test_id("archive-imported")).to_contain_text(
        "not in the annotators' My topics"
    )
    admin.screenshot(path=str(artifacts / "archive-import-done.png"), full_page=True)
    assert not Project.objects.get(name="pilot copy").in_my_topics
    my_projects(annotator, ["pilot"])

    import_archive(admin, archive, "pilot listed", in_my_topics=True)
    my_projects(annotator, ["pilot", "pilot listed"])

    # The first copy's assignments are listed later from its settings.
    copy = Project.objects.get(name="pilot copy")
    admin.goto(f"/manage/projects/{copy.pk}/settings")
    admin.get_by_test_id("in-my-topics").check()
    admin.get_by_role("button", name="Save changes").click()
    expect(admin.get_by_role("status").filter(has_text="Saved.")).to_be_visible()
    admin.screenshot(path=str(artifacts / "archive-import-settings.png"), full_page=True)
    my_projects(annotator, ["pilot", "pilot copy", "pilot listed"])
    annotator.screenshot(path=str(artifacts / "archive-import-my-topics.png"), full_page=True)
    assert admin.errors == annotator.errors == []
