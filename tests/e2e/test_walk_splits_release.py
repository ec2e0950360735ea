"""Splits and releases from the Datasets page, with no manage.py: the split
dialog (shares, balance, seed, the balance figures; replacing a split asks first and a
cancelled confirmation changes nothing) and the per-topic split box that says what it saved.
The release, built by the worker, is in test_walk_release_admin.py (one worker there)."""

from __future__ import annotations

from playwright.sync_api import expect

from annotation.models import Topic
from datasets.models import SplitRecord
from tests.factories import AdminFactory, demo_project


def splits(project) -> dict[str, str]:
    return dict(Topic.objects.filter(project=project).values_list("external_id", "split"))


def test_a_manager_splits_a_project_and_is_asked_before_a_split_is_replaced(new_page, artifacts):
    project = demo_project("Split e2e", hierarchy=True)
    page = new_page(AdminFactory())
    page.goto("/manage/datasets")
    row = page.locator(f"tr[data-project='{project.pk}']")
    expect(row.locator("[data-splits]")).to_contain_text("not split")
    assert "manage.py" not in page.locator("main").inner_text()

    row.get_by_role("button", name="Split…").click()
    dialog = page.get_by_test_id("split-dialog")
    dialog.get_by_label("Balance by").select_option("mentions")
    dialog.get_by_label("Seed").fill("5")
    dialog.get_by_label("Share of part 1").fill("0.7")
    dialog.get_by_role("button", name="Split", exact=True).click()
    expect(dialog.get_by_role("alert")).to_have_text("The shares add up to 1.1, not 1.")
    assert set(splits(project).values()) == {""}
    dialog.get_by_label("Share of part 1").fill("0.6")
    dialog.get_by_role("button", name="Split", exact=True).click()

    figures = dialog.get_by_role("table", name="Balance of the split")
    expect(figures).to_contain_text("mentions")
    record = SplitRecord.objects.get(project=project)
    assert (record.seed, record.balance, record.names) == (5, "mentions", ["train", "dev", "test"])
    for name in ("train", "dev", "test"):
        n = sum(1 for split in splits(project).values() if split == name)
        expect(figures.locator("tr", has_text=name)).to_contain_text(str(n))
    page.screenshot(path=str(artifacts / "walk-split-figures.png"))
    dialog.get_by_role("button", name="Done").click()
    expect(row.locator("[data-splits] .chip")).to_have_count(3)
    made = splits(project)

    # Again, in two parts: the dialog asks first, and Cancel changes nothing.
    row.get_by_role("button", name="Split…").click()
    dialog.locator("tbody tr").nth(1).get_by_role("button", name="Remove").click()
    dialog.get_by_label("Share of part 1").fill("0.75")
    dialog.get_by_role("button", name="Split", exact=True).click()
    expect(dialog.get_by_role("alert")).to_contain_text("already split")
    page.screenshot(path=str(artifacts / "walk-split-confirm.png"))
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    assert splits(project) == made
    assert SplitRecord.objects.filter(project=project).count() == 1

    # Confirmed: replaced.
    row.get_by_role("button", name="Split…").click()
    dialog.locator("tbody tr").nth(1).get_by_role("button", name="Remove").click()
    dialog.get_by_label("Share of part 1").fill("0.75")
    dialog.get_by_role("button", name="Split", exact=True).click()
    dialog.get_by_role("button", name="Replace the split").click()
    expect(dialog.get_by_role("table", name="Balance of the split")).to_be_visible()
    assert set(splits(project).values()) == {"train", "test"}
    dialog.get_by_role("button", name="Done").click()
    expect(row.locator("[data-splits] .chip")).to_have_count(2)
    assert page.errors == []


def test_the_per_topic_split_box_says_what_it_saved(new_page, artifacts):
    project = demo_project("Topic split e2e", hierarchy=True)
    topic = Topic.objects.filter(project=project).order_by("position", "id").first()
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/topics")
    box = page.get_by_label(f"Split of topic {topic.external_id}")
    box.fill("dev")
    box.press("Enter")
    expect(page.get_by_role("status").filter(has_text="Saved")).to_have_text(
        f"Saved: topic {topic.external_id} is now in dev."
    )
    page.screenshot(path=str(artifacts / "walk-topic-split-saved.png"))
    topic.refresh_from_db()
    assert topic.split == "dev"

    # A refused save says why: a name longer than the server takes (the box's own limit
    # lifted, as an older page or another client would send it).
    box.evaluate("input => input.removeAttribute('maxlength')")
    box.fill("x" * 41)
    box.press("Enter")
    expect(page.get_by_role("alert")).to_contain_text(f"Topic {topic.external_id} was not moved")
    expect(page.get_by_role("alert")).to_contain_text("40 characters")
    expect(box).to_have_value("dev")
    page.screenshot(path=str(artifacts / "walk-topic-split-refused.png"))
