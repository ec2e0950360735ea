"""Admin pages: create and edit a project, import by upload (a bad file's errors, then a good
file), manage users, export a download. Screenshots go to test-artifacts/admin-*.png."""

import json
from pathlib import Path

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from playwright.sync_api import expect

from annotation.models import Project, Topic
from annotation.services.imports.topics import topics_import
from tests.factories import AdminFactory, UserFactory
from tests.paths import DEMO


def bad_scico_file() -> bytes:
    lines = (DEMO / "scico_demo.jsonl").read_text().splitlines()
    missing_tokens = json.loads(lines[1])
    del missing_tokens["tokens"]
    return "\n".join([lines[0], "{not json", json.dumps(missing_tokens)]).encode() + b"\n"


def test_an_admin_creates_a_project_sees_a_bad_files_errors_then_imports_a_good_file(
    new_page, artifacts
):
    page = new_page(AdminFactory())
    page.goto("/manage")
    page.get_by_role("link", name="New project").click()
    page.get_by_label("Name").fill("Concepts 2024")
    page.get_by_label("fix mention spans").check()
    page.get_by_label("several (a DAG)").check()
    page.get_by_label("Guidelines").fill("Cluster every mention; attach children to parents.")
    page.screenshot(path=str(artifacts / "admin-project-form.png"), full_page=True)
    page.get_by_role("button", name="Create project").click()

    expect(page.get_by_role("heading", name="Concepts 2024")).to_be_visible()
    project = Project.objects.get(name="Concepts 2024")
    flags = (project.hierarchy, project.anaphora, project.allow_fix_spans, project.single_parent)
    assert flags == (True, False, True, False)

    form = page.locator("form.import-form")
    broken = {"name": "broken.jsonl", "mimeType": "application/json", "buffer": bad_scico_file()}
    form.get_by_label("File", exact=True).set_input_files(files=[broken])
    form.get_by_role("button", name="Import").click()
    problems = page.get_by_role("table", name="Problems found in the file").locator("tbody tr")
    expect(problems).to_have_count(2)
    expect(problems.nth(0)).to_contain_text("broken.jsonl")
    expect(problems.nth(0)).to_contain_text("line 2")
    expect(problems.nth(1)).to_contain_text("line 3")
    expect(problems.nth(1)).to_contain_text("tokens")
    expect(page.get_by_role("alert")).to_contain_text("nothing was imported")
    page.screenshot(path=str(artifacts / "admin-import-errors.png"), full_page=True)
    assert not Topic.objects.filter(project=project).exists()

    form.get_by_label("File", exact=True).set_input_files(str(DEMO / "scico_demo.jsonl"))
    form.get_by_role("button", name="Import").click()
    expect(page.get_by_role("status").filter(has_text="Imported 6 topics")).to_be_visible()
    expect(page.locator(".topics-list .grid-row")).to_have_count(6)
    expect(page.locator(".project-head")).to_contain_text("6 topics")
    assert Topic.objects.filter(project=project).count() == 6
    page.screenshot(path=str(artifacts / "admin-topics.png"), full_page=True)

    page.get_by_role("link", name="Settings").click()
    page.get_by_label("Guidelines").fill("Changed guidelines.")
    page.get_by_role("button", name="Save changes").click()
    expect(page.get_by_role("status").filter(has_text="Saved.")).to_be_visible()
    assert Project.objects.get(pk=project.pk).guidelines == "Changed guidelines."

    page.get_by_role("link", name="Projects").click()
    row = page.locator("tr[data-project]", has_text="Concepts 2024")
    expect(row).to_contain_text("6")
    expect(row).to_contain_text("fix")
    page.screenshot(path=str(artifacts / "admin-projects.png"), full_page=True)
    assert page.errors == []


def test_a_project_form_refuses_a_project_without_a_scheme(new_page):
    page = new_page(AdminFactory())
    page.goto("/manage/projects/new")
    page.get_by_label("Name").fill("No scheme")
    page.get_by_label("Hierarchy: clusters").uncheck()
    page.get_by_role("button", name="Create project").click()

    expect(page.get_by_text("Choose at least one scheme")).to_be_visible()
    assert not Project.objects.filter(name="No scheme").exists()


def test_an_admin_creates_a_user_makes_them_admin_deactivates_them_and_resets_their_password(
    new_page, artifacts
):
    UserFactory(username="annotator1")
    page = new_page(AdminFactory(username="boss"))
    page.goto("/manage/users")
    page.get_by_label("Username").fill("newbie")
    page.get_by_label("Password").fill("kettle-orbit-41")
    page.get_by_role("button", name="Create user").click()
    row = page.locator("tr[data-user='newbie']")
    role, state = row.locator("td").nth(0), row.locator("td").nth(1)
    expect(role).to_have_text("annotator")

    row.get_by_role("button", name="Make admin").click()
    expect(role).to_have_text("admin")
    row.get_by_role("button", name="Deactivate").click()
    expect(state).to_have_text("deactivated")
    row.get_by_role("button", name="Reset password…").click()
    page.get_by_role("dialog").get_by_label("New password").fill("lantern-moss-72")
    page.get_by_role("dialog").get_by_role("button", name="Set password").click()
    expect(
        page.get_by_role("status").filter(has_text="New password set for newbie")
    ).to_be_visible()
    expect(
        page.locator("tr[data-user='boss']").get_by_role("button", name="Deactivate")
    ).to_be_disabled()
    page.screenshot(path=str(artifacts / "admin-users.png"), full_page=True)

    user = get_user_model().objects.get(username="newbie")
    assert (user.is_staff, user.is_active) == (True, False)
    # The server hashes with the production hasher (the tests' settings know only a fast one).
    assert PBKDF2PasswordHasher().verify("lantern-moss-72", user.password)


def test_an_admin_exports_the_gold_annotations_as_a_download(new_page, artifacts):
    project = Project.objects.create(name="Exported")
    topics_import(project=project, path=DEMO / "scico_demo.jsonl", format="scico")
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/export")
    page.get_by_label("Format").select_option("scico")
    page.get_by_label("Source").select_option("gold")

    with page.expect_download() as download:
        page.get_by_role("button", name="Download").click()

    assert download.value.suggested_filename == "Exported.jsonl"
    lines = Path(download.value.path()).read_text().splitlines()
    expected = [t.external_id for t in project.topics.order_by("position")]
    assert [str(json.loads(line)["id"]) for line in lines] == expected
    page.screenshot(path=str(artifacts / "admin-export.png"))


def test_an_export_without_annotations_says_why(new_page):
    project = Project.objects.create(name="Empty export")
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/export")
    page.get_by_label("Source").select_option("submitted")
    page.get_by_role("button", name="Download").click()

    expect(page.get_by_role("alert")).to_contain_text("no submitted annotations")


def test_the_export_page_lists_what_its_format_left_out(new_page, artifacts, tmp_path):
    from tests.corefscore.formats.test_formats_chemu import chemu_line

    project = Project.objects.create(name="Noted export", anaphora=True, hierarchy=False)
    noted = [{"relation": "Coreference", "pair": [[[7, 8]], [[0, 1], [4, 5]]], "note": "same"}]
    (tmp_path / "noted.jsonlines").write_text(chemu_line(relation_notes=noted) + "\n")
    topics_import(project=project, path=tmp_path / "noted.jsonlines", format="chemu")
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/export")
    page.get_by_label("Format").select_option("conll")
    page.get_by_label("Source").select_option("gold")

    with page.expect_download() as download:
        page.get_by_role("button", name="Download").click()

    assert download.value.suggested_filename == "Noted export.conll"
    left_out = page.get_by_test_id("export-warnings")
    expect(left_out).to_contain_text("CoNLL-2012 cannot hold link notes: 1 left out")
    page.screenshot(path=str(artifacts / "admin-export-left-out.png"))
