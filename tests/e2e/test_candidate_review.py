"""The candidate review page in a real browser: an admin sees each candidate's scores, the
concept that retrieved each mention in its sentence and the overlap; drops a mention, splits
a candidate by concept, and makes a candidate a topic of a project."""

from playwright.sync_api import expect

from annotation.models import Mention, Topic
from corpus.models import TopicRetrieval
from tests.corpus.build import reviewed_run
from tests.factories import AdminFactory, ProjectFactory


def test_an_admin_reviews_candidates_and_makes_one_a_topic(new_page, artifacts, tmp_path):
    run = reviewed_run(tmp_path)
    project = ProjectFactory(name="SciCo 2", hierarchy=True)
    page = new_page(AdminFactory())
    page.goto(f"/manage/candidate-runs/{run.pk}")

    methods = page.get_by_role("article", name="Candidate methods", exact=True)
    expect(methods).to_contain_text("4 mentions in 4 documents · similarity 0.700–0.900")
    expect(methods.locator("[data-overlap]")).to_contain_text("tasks (1)")
    rows = methods.get_by_role("table", name="Mentions of methods").locator("tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.first).to_contain_text("We use BERT for")
    expect(rows.first.locator("td").nth(2)).to_have_text("BERT")  # the concept
    expect(rows.first.locator("td").nth(3)).to_have_text("0.900")
    page.screenshot(path=str(artifacts / "candidate-review.png"), full_page=True)

    lstm = rows.filter(has_text="an LSTM").first
    lstm.get_by_role("checkbox").check()
    with page.expect_response(lambda r: "/drop/" in r.url and r.status == 200):
        methods.get_by_role("button", name="Drop the checked mentions").click()
    expect(rows).to_have_count(3)

    methods.get_by_role("checkbox", name="Split off LSTM").check()
    with page.expect_response(lambda r: "/split/" in r.url and r.status == 200):
        methods.get_by_role("button", name="Split off the checked concepts").click()
    part = page.get_by_role("article", name="Candidate methods / LSTM")
    expect(part).to_contain_text("1 mentions in 1 documents")
    expect(rows).to_have_count(2)

    page.get_by_label("Project for the new topics").select_option(label="SciCo 2")
    methods.get_by_role("checkbox", name="Make methods a topic").check()
    with page.expect_response(lambda r: r.url.endswith("/topics/") and r.status == 201):
        page.get_by_role("button", name="Create 1 topic(s)").click()
    expect(page.get_by_role("status")).to_have_text("1 topic(s) created: methods.")
    expect(methods.locator("[data-created]")).to_have_text("topic in SciCo 2")
    page.screenshot(path=str(artifacts / "candidate-review-created.png"), full_page=True)

    topic = Topic.objects.get(project=project, external_id="methods")
    assert Mention.objects.filter(topic=topic).count() == 2
    assert TopicRetrieval.objects.get(topic=topic).concepts == ["BERT"]
    assert not page.errors
