"""In the browser, as an annotator goes through the onboarding demo: a locked
topic is refused through the API as when opened; undo in the guided tutorial leaves the
tutorial's own starting cluster; the guided topic's attempt reads "Done", not "Scored"; the
next topic follows the onboarding order (the tutorial, then the scored test, then the
project's real topics, before another project's); passing says "You qualified" and what
opened. And an admin sees how much of each topic its gold covers before making it practice.
Screenshots in test-artifacts/walk-order-*.png."""

from __future__ import annotations

from playwright.sync_api import expect

from annotation.models import Annotation, Assignment, ClusterMember, Mention, Project
from fixtures.demo.practice import DEMO_DIR, ONBOARDING_DEMO, TUTORIAL, _onboarding_demo
from onboarding.models import PracticeTopic
from tests.e2e.test_onboarding import annotate, submit
from tests.e2e.workspace import open_workspace, press, wait_saved
from tests.factories import AdminFactory, UserFactory, assign, make_topic
from tests.onboarding.conftest import mentions_by_text


def test_the_onboarding_goes_tutorial_test_then_real_work_and_says_what_opened(new_page, artifacts):
    user = UserFactory(username="newcomer")
    # Another project whose name comes first, with open work: not the next topic after practice.
    other = Project.objects.create(name="Aardvark corpus", hierarchy=True)
    assign(make_topic(other, external_id="aardvark-1"), user)
    _onboarding_demo(DEMO_DIR / TUTORIAL, [user])
    project = Project.objects.get(name=ONBOARDING_DEMO)
    mine = Assignment.objects.filter(user=user, topic__project=project)
    guided = mine.get(topic__practice__mode=PracticeTopic.Mode.GUIDED)
    scored = mine.get(topic__practice__mode=PracticeTopic.Mode.SCORED)
    real = mine.filter(topic__practice__isnull=True).order_by("topic__position").first()
    page = new_page(user)

    # Locked: the topic and the annotation are refused through the API, as opening them is.
    page.goto("/")
    for path in (f"/api/topics/{real.topic_id}/", f"/api/annotations/{real.annotation.pk}/"):
        answer = page.request.get(path)
        assert answer.status == 423, (path, answer.status)
        assert "Locked until you qualify for Onboarding demo" in answer.json()["message"]

    # The tutorial: undo cannot take away the cluster the tutorial placed itself.
    open_workspace(page, guided.pk)
    expect(page.get_by_test_id("guidelines")).to_be_visible()
    press(page, "I")
    page.get_by_test_id("tour").locator(".tour-skip").click()
    bank = page.locator(".bank-row")
    expect(bank).to_have_count(1)
    press(page, "Control+z")
    expect(page.locator(".notice-alert").last).to_contain_text("The tutorial placed this mention")
    expect(bank).to_have_count(1)
    page.screenshot(path=str(artifacts / "walk-order-1-undo-keeps-start.png"))
    m = mentions_by_text(guided.topic)
    press(page, "Control+Space")  # Text Classification: a new cluster
    wait_saved(page)
    page.locator(f".m[data-mention='{m['CNN']}']").first.click()
    press(page, "Space")  # convolutional neural network joins CNN
    press(page, "Control+Space")  # sentiment analysis
    wait_saved(page)
    submit(page)
    results = page.get_by_test_id("practice-results")
    expect(results.locator("h2")).to_have_text("Attempt 1: Done")
    banner = page.get_by_test_id("submitted-banner")
    expect(banner).to_contain_text(f"Next topic to do: {scored.topic.external_id} (Onboarding")
    page.screenshot(path=str(artifacts / "walk-order-2-guided-done-next-scored.png"))

    # The test, opened with Enter from the banner; passing it qualifies and says what opened.
    results.get_by_role("button", name="Close").click()
    page.get_by_test_id("next-topic").click()
    page.wait_for_url(f"**/annotate/{scored.pk}")
    page.wait_for_selector("html[data-workspace-ready='true']")
    annotate(page, mentions_by_text(scored.topic), right=True)
    submit(page)
    results = page.get_by_test_id("practice-results")
    expect(results.locator("h2")).to_have_text("Attempt 1: Passed")
    qualified = results.get_by_test_id("qualified")
    expect(qualified).to_contain_text("You qualified for Onboarding demo.")
    real_ids = list(
        mine.filter(topic__practice__isnull=True)
        .order_by("topic__position")
        .values_list("topic__external_id", flat=True)
    )
    expect(qualified).to_contain_text(f"Unlocked: {len(real_ids)} topics ({', '.join(real_ids)})")
    expect(banner).to_contain_text(f"Next topic to do: {real.topic.external_id} (Onboarding")
    page.screenshot(path=str(artifacts / "walk-order-3-qualified-next-real.png"))
    assert page.request.get(f"/api/topics/{real.topic_id}/").status == 200
    assert page.errors == []


def test_an_admin_sees_how_much_of_each_topic_its_gold_covers(new_page, artifacts):
    _onboarding_demo(DEMO_DIR / TUTORIAL, [])
    project = Project.objects.get(name=ONBOARDING_DEMO)
    # Gold that leaves one of 9001's mentions out: the tab shows the gap.
    gold = Annotation.objects.get(topic__project=project, topic__external_id="9001", kind="gold")
    ClusterMember.objects.filter(annotation=gold).first().delete()
    mentions = Mention.objects.filter(topic=gold.topic, added_in__isnull=True).count()
    page = new_page(AdminFactory())
    page.goto(f"/manage/projects/{project.pk}/onboarding")
    tutorial = page.locator("tr[data-topic='scientific_onboarding_tutorial']")
    expect(tutorial.get_by_test_id("gold-coverage")).to_have_text("4 of 4 mentions (100%)")
    partial = page.locator("tr[data-topic='9001'] [data-testid=gold-coverage]")
    expect(partial).to_have_text(f"{mentions - 1} of {mentions} mentions (98%)")
    rows = page.locator("tr[data-topic] [data-testid=gold-coverage]")
    expect(rows).to_have_count(project.topics.count())
    page.screenshot(path=str(artifacts / "walk-order-4-gold-coverage.png"), full_page=True)
    assert page.errors == []
