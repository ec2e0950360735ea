"""Query by example: which corpora a user may query, the corpus mention behind a topic's
mention, and the nearest mentions of a query vector, each in its sentence and with how the
concept was treated in the topics the user may see (docs/corpus.md, "Query by example").

A corpus document and a topic's document are the same text when the corpus holds the topic
document's id (a topic made from the corpus keeps the corpus document's id) or
`<topic>/<position>` (the id a topic format's import gives it), and their words are equal;
a mention is the same where its spans are. No column links them, so a corpus imported before
or after its topics links the same way."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from django.db.models import Count, Q, QuerySet

from annotation.domain.errors import NotFound
from annotation.models import (
    Annotation,
    Assignment,
    Cluster,
    ClusterMember,
    Document,
    HierarchyEdge,
    Mention,
    Project,
    Topic,
)
from corpus.models import Corpus, CorpusDocument, CorpusMention
from corpus.selectors import Neighbour, mention_vector, nearest_mentions
from foundation.roles import is_admin

# The words shown each side of a hit inside its sentence (a run-on sentence is cut).
CONTEXT_WORDS = 30
# The HNSW candidate list of a panel query: recall@10 1.000 at 100,000 generated mentions at
# this width, 0.97 at 40 (bench/corpus.py; docs/corpus.md, "Speed"). Wider costs little.
QUERY_EF_SEARCH = 80
TOPIC_DOCUMENT_ID = re.compile(r"^(?P<topic>.+)/(?P<position>\d+)$")

Spans = list[list[int]]


def user_projects(user) -> QuerySet[Project]:
    """The projects a user works in: admins all; an annotator those with a topic assigned
    to them (the membership the rest of the product reads, annotation/selectors/access.py)."""
    if is_admin(user):
        return Project.objects.all()
    return Project.objects.filter(topics__assignments__user=user).distinct()


def queryable_corpora(user) -> QuerySet[Corpus]:
    """The corpora a user may query: those of their own projects."""
    if is_admin(user):
        return Corpus.objects.all()
    return Corpus.objects.filter(projects__in=user_projects(user)).distinct()


def query_corpus(user, project: Project, corpus_id: int | None = None) -> Corpus:
    """The corpus a query in `project`'s workspace reads: `corpus_id` if the user may query
    it, else the project's first corpus with an index. NotFound (404) for another project's
    corpus, whose existence is nobody else's business."""
    corpora = queryable_corpora(user).select_related("active_encoding")
    if corpus_id is not None:
        corpus = corpora.filter(pk=corpus_id).first()
        if corpus is None:
            raise NotFound("corpus", corpus_id, f"There is no corpus #{corpus_id} of yours.")
        return corpus
    corpus = (
        corpora.filter(projects=project, active_encoding__isnull=False).order_by("name").first()
    )
    if corpus is None:
        raise NotFound(
            "corpus", None, f"The project {project.name} has no indexed corpus to query."
        )
    return corpus


def linked_corpus_mention(corpus: Corpus, document: Document, spans: Spans) -> CorpusMention | None:
    """The corpus's mention that is this topic mention (same text, same spans), if any."""
    keys = [f"{document.topic.external_id}/{document.position}"]
    if document.doc_id:
        keys.append(document.doc_id)
    for candidate in CorpusDocument.objects.filter(corpus=corpus, doc_id__in=keys):
        if candidate.tokens != document.tokens:
            continue
        for mention in candidate.mentions.filter(start=spans[0][0], end=spans[-1][1]):
            if _spans(mention) == spans:
                return mention
    return None


def linked_vector(corpus: Corpus, document: Document, spans: Spans):
    """The active encoding's vector of the corpus mention that is this topic mention (no
    model needed), with that mention; (None, None) if the corpus does not hold it."""
    mention = linked_corpus_mention(corpus, document, spans)
    if mention is None:
        return None, None
    vector = mention_vector(mention, corpus.active_encoding)
    return (None, None) if vector is None else (vector, mention)


def similar_mentions(
    user,
    corpus: Corpus,
    vector: Sequence[float],
    *,
    k: int = 10,
    leave_out: int | None = None,
    topic: Topic | None = None,
    ef_search: int | None = None,
) -> list[dict[str, Any]]:
    """The k corpus mentions nearest `vector`, best first, each in its sentence, with the
    clusters and parents it has in the topics the user may see (`topic`, where the query was
    made, left out: another annotator's decisions on it are theirs). `leave_out`: the query's
    own corpus mention."""
    neighbours = [
        n
        for n in nearest_mentions(
            corpus, vector, k=k + (leave_out is not None), ef_search=ef_search or QUERY_EF_SEARCH
        )
        if n.mention.pk != leave_out
    ][:k]
    treated = treatments(user, corpus, [n.mention for n in neighbours], leave_out_topic=topic)
    return [_hit(n, treated.get(n.mention.pk, [])) for n in neighbours]


def _hit(neighbour: Neighbour, treated: list[dict]) -> dict[str, Any]:
    mention = neighbour.mention
    document = mention.document
    return {
        "mention": mention.pk,
        "text": mention.text,
        "category": mention.label,
        "similarity": round(neighbour.similarity, 4),
        "document": document.doc_id,
        **context_of(document, mention),
        "treatments": treated,
    }


def context_of(document: CorpusDocument, mention: CorpusMention) -> dict[str, Any]:
    """The sentence around the mention (cut to CONTEXT_WORDS each side), and where in it the
    mention's words are: `marked` holds [start, end] pairs, both ends included."""
    start, end = mention.start, mention.end
    first, last = 0, len(document.tokens)
    for s, e in document.sentences or []:
        if s <= start < e:
            first, last = s, max(e, end + 1)
            break
    first = max(first, start - CONTEXT_WORDS)
    last = min(last, end + 1 + CONTEXT_WORDS)
    return {
        "words": document.tokens[first:last],
        "marked": [[s - first, e - first] for s, e in _spans(mention) if first <= s and e < last],
        "cut_before": first > 0 and not _sentence_starts(document, first),
        "cut_after": last < len(document.tokens) and not _sentence_starts(document, last),
    }


def _sentence_starts(document: CorpusDocument, index: int) -> bool:
    return any(s == index for s, _ in document.sentences or [])


def _spans(mention: CorpusMention) -> Spans:
    return [list(span) for span in (mention.spans or [[mention.start, mention.end]])]


def treatments(
    user, corpus: Corpus, mentions: Iterable[CorpusMention], *, leave_out_topic: Topic | None
) -> dict[int, list[dict[str, Any]]]:
    """Per corpus mention: its cluster (label, size) and the cluster's parents in each
    annotation of its topics that the user may read as settled work: the topic's gold, its
    submitted adjudications, and the user's own annotations. Other annotators' work is not
    shown (independent annotation is what makes agreement meaningful). Topics of the corpus's
    projects that the user works in only."""
    mentions = list(mentions)
    projects = corpus.projects.all()
    if not is_admin(user):
        projects = projects.filter(pk__in=user_projects(user).values("pk"))
    keys = Q()
    for mention in mentions:
        keys |= _document_key(mention.document)
    if not mentions:
        return {}
    documents = Document.objects.filter(keys, topic__project__in=projects).select_related("topic")
    if leave_out_topic is not None:
        documents = documents.exclude(topic=leave_out_topic)
    # corpus document -> the topic documents holding the same words
    same: dict[int, list[Document]] = defaultdict(list)
    for document in documents:
        for mention in mentions:
            if _same_text(mention.document, document):
                same[mention.document_id].append(document)
    if not same:
        return {}
    topic_docs = {d.pk: d for docs in same.values() for d in docs}
    # (topic document, spans) -> topic mention ids
    at: dict[tuple[int, str], list[int]] = defaultdict(list)
    for row in Mention.objects.filter(document_id__in=topic_docs).values(
        "id", "document_id", "spans"
    ):
        at[(row["document_id"], repr(row["spans"]))].append(row["id"])
    wanted: dict[int, int] = {}  # topic mention -> corpus mention
    for mention in mentions:
        for document in same.get(mention.document_id, []):
            for topic_mention in at.get((document.pk, repr(_spans(mention))), []):
                wanted[topic_mention] = mention.pk
    annotations = Annotation.objects.filter(topic_id__in={d.topic_id for d in topic_docs.values()})
    annotations = annotations.filter(
        Q(kind=Annotation.Kind.GOLD)
        | Q(kind=Annotation.Kind.ADJUDICATION, assignment__status=Assignment.Status.SUBMITTED)
        | Q(assignment__user=user)
    )
    members = list(
        ClusterMember.objects.filter(annotation__in=annotations, mention_id__in=wanted)
        .select_related("annotation__topic__project", "annotation__assignment", "cluster")
        .order_by("annotation__topic__external_id", "annotation_id")
    )
    clusters = {m.cluster_id for m in members}
    parents: dict[int, list[int]] = defaultdict(list)
    for edge in HierarchyEdge.objects.filter(child_id__in=clusters).values("child_id", "parent_id"):
        parents[edge["child_id"]].append(edge["parent_id"])
    labels = cluster_labels(clusters | {p for ps in parents.values() for p in ps})
    sizes = dict(
        Cluster.objects.filter(pk__in=clusters).annotate(n=Count("members")).values_list("pk", "n")
    )
    out: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for member in members:
        annotation = member.annotation
        out[wanted[member.mention_id]].append(
            {
                "project": annotation.topic.project.name,
                "topic": annotation.topic.external_id,
                "annotation": _whose(annotation, user),
                "cluster": labels.get(member.cluster_id, ""),
                "size": sizes.get(member.cluster_id, 1),
                "parents": sorted(labels.get(p, "") for p in parents.get(member.cluster_id, [])),
            }
        )
    return dict(out)


def _document_key(document: CorpusDocument) -> Q:
    key = Q(doc_id=document.doc_id)
    match = TOPIC_DOCUMENT_ID.match(document.doc_id)
    if match:
        key |= Q(topic__external_id=match["topic"], position=int(match["position"]))
    return key


def _same_text(corpus_document: CorpusDocument, document: Document) -> bool:
    keys = {document.doc_id, f"{document.topic.external_id}/{document.position}"}
    return corpus_document.doc_id in keys and corpus_document.tokens == document.tokens


def _whose(annotation: Annotation, user) -> str:
    if annotation.kind == Annotation.Kind.GOLD:
        return "gold"
    if annotation.kind == Annotation.Kind.ADJUDICATION:
        return "adjudicated"
    return "yours"


def cluster_labels(cluster_ids: Iterable[int]) -> dict[int, str]:
    """Each cluster's label, or (none given) its first member's words, as the workspace
    names a cluster."""
    ids = list(cluster_ids)
    labels = dict(Cluster.objects.filter(pk__in=ids).values_list("pk", "label"))
    unnamed = [pk for pk, label in labels.items() if not label.strip()]
    if unnamed:
        firsts = (
            ClusterMember.objects.filter(cluster_id__in=unnamed)
            .order_by("cluster_id", "mention__position", "mention_id")
            .distinct("cluster_id")
            .select_related("mention__document")
        )
        for member in firsts:
            tokens = member.mention.document.tokens
            words = [w for s, e in member.mention.spans for w in tokens[s : e + 1]]
            labels[member.cluster_id] = " ".join(words)
    return labels
