"""Small SciCo-style topics built in code for the suggestion-backend tests."""

from __future__ import annotations

from corefscore.corpus import ClusterData, DocumentData, MentionData, TopicData

# (sentence, [(mention words, cluster)]) per document; mentions are found by their words.
MT_DOCUMENTS = [
    (
        "We train a neural machine translation model with attention on WMT data .",
        [("neural machine translation", "nmt")],
    ),
    (
        (
            "NMT systems now outperform phrase-based statistical machine translation by a wide "
            "margin ."
        ),
        [("NMT", "nmt"), ("statistical machine translation", "smt")],
    ),
    (
        "Machine translation quality is usually measured with the BLEU metric .",
        [("Machine translation", "mt"), ("BLEU", "bleu")],
    ),
    (
        "Early machine translation systems relied on hand-written rules .",
        [("machine translation", "mt")],
    ),
    ("We report BLEU scores for every translation direction .", [("BLEU", "bleu")]),
    (
        "A CRF tagger is a strong baseline for sequence tagging tasks such as NER .",
        [("CRF tagger", "crf"), ("sequence tagging", "tagging")],
    ),
    (
        "Conditional random fields remain popular for sequence labeling .",
        [("sequence labeling", "tagging")],
    ),
    (
        "Autoregressive neural machine translation decodes one token at a time .",
        [("Autoregressive neural machine translation", "ar-nmt")],
    ),
]
MT_RELATIONS = [("mt", "nmt"), ("mt", "smt"), ("nmt", "ar-nmt"), ("tagging", "crf")]


def build_topic(
    documents=MT_DOCUMENTS, relations=MT_RELATIONS, external_id: str = "mt"
) -> TopicData:
    docs, mentions = [], []
    for index, (sentence, marked) in enumerate(documents):
        tokens = sentence.split()
        docs.append(
            DocumentData(
                doc_id=f"{external_id}-{index}", tokens=tokens, sentences=[(0, len(tokens))]
            )
        )
        used: set[int] = set()
        for words, cluster in marked:
            start = _find(tokens, words.split(), used)
            end = start + len(words.split()) - 1
            used.update(range(start, end + 1))
            mentions.append(MentionData(document=index, spans=((start, end),), cluster=cluster))
    keys = list(dict.fromkeys(m.cluster for m in mentions))
    return TopicData(external_id, docs, mentions, [ClusterData(k) for k in keys], list(relations))


def _find(tokens: list[str], words: list[str], used: set[int]) -> int:
    for start in range(len(tokens) - len(words) + 1):
        if tokens[start : start + len(words)] == words and not used & set(
            range(start, start + len(words))
        ):
            return start
    raise ValueError(f"{words} not in {tokens}")


SENTIMENT_DOCUMENTS = [
    (
        "Sentiment analysis of product reviews is a classic text classification task .",
        [("Sentiment analysis", "sa"), ("text classification", "tc")],
    ),
    (
        "Aspect-based sentiment analysis predicts a polarity for every aspect of a product .",
        [("Aspect-based sentiment analysis", "absa")],
    ),
    ("ABSA models attend to the aspect term inside the sentence .", [("ABSA", "absa")]),
    (
        "We cast sentiment analysis as sequence classification with BERT .",
        [("sentiment analysis", "sa"), ("BERT", "bert")],
    ),
    (
        "Multimodal sentiment analysis combines text , audio and video .",
        [("Multimodal sentiment analysis", "msa")],
    ),
    (
        "BERT is fine-tuned for document classification .",
        [("BERT", "bert"), ("document classification", "tc")],
    ),
]
SENTIMENT_RELATIONS = [("sa", "absa"), ("sa", "msa"), ("tc", "sa")]
