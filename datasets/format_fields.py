"""What a reader of a release needs to know about each file format: its fields, and what
the format cannot carry (the full mapping is docs/formats.md). Written into DATASHEET.md."""

from __future__ import annotations

FORMAT_FIELDS: dict[str, tuple[str, list[str]]] = {
    "scico": (
        "SciCo jsonl: one topic per line (Cattan et al., 2021).",
        [
            "`id`: the topic id",
            "`tokens`: one list of tokens per paragraph (a paragraph is a document here)",
            "`doc_ids`, `metadata`: the document each paragraph comes from, and its metadata",
            "`sentences`: per paragraph, `[start, end]` token ranges",
            (
                "`mentions`: `[paragraph, start, end, cluster_id]`, token offsets, both ends "
                "inclusive; every mention is in a cluster (a singleton is a cluster)"
            ),
            "`relations`: `[parent_cluster, child_cluster]` hierarchy edges, as annotated",
            (
                "not carried: discontinuous mentions (written as their covering span), cluster "
                "labels and notes, typed links"
            ),
        ],
    ),
    "chemu": (
        "ChEMU-Ref jsonlines: one reaction snippet per line (Fang et al., 2021).",
        [
            "`doc_key`: the snippet id",
            "`sentences`: lists of tokens; offsets count over the concatenated tokens",
            (
                "`Coreference`, `Transformed`, `Reaction-associated`, `Work-up`, `Contained`: "
                "lists of `[anaphor, antecedent]`; a mention is a list of `[start, end]` spans "
                "(inclusive; more than one span: a discontinuous mention)"
            ),
            "not carried: clusters and hierarchy (write coreference as links)",
        ],
    ),
    "brat": (
        "brat standoff: one `.txt` and one `.ann` per topic (a folder per split).",
        [
            "`.txt`: the tokens joined by single spaces, one sentence per line",
            ("`T` lines: mentions, one character range per fragment (`0 5;10 15`: discontinuous)"),
            "`R` lines: typed links, `Arg1` the anaphor, `Arg2` the antecedent",
            "`*` lines: `Coreference` sets, the clusters of two or more mentions",
            "not carried: singleton clusters, hierarchy edges",
        ],
    ),
    "corefi": (
        "CoRefi JSON: one file per topic (a folder per split), the input of the CoRefi tool.",
        [
            "`tokens`: `{i, document, paragraph, doc_name, text}`, `i` the global index",
            "`mentions`: `{start, end, clustId}`, global token offsets, `end` inclusive",
            "`clustersDesc`: `{clustId, text}`, the cluster labels",
            "not carried: discontinuous mentions (covering span), hierarchy edges, links",
        ],
    ),
    "conll": (
        "CoNLL-2012: for the coreference scorers (coval, the reference scorer); export only.",
        [
            (
                "one `#begin document (<topic>); part 000` per topic, one block of lines per "
                "document of the topic"
            ),
            (
                "columns: document, part, word number, word, seven `-` columns, then the "
                "coreference column (`(5`, `5)`, `(5)`, joined by `|`)"
            ),
            (
                "singletons are written; for topics without clusters (ChEMU-Ref) the chains are "
                "the connected components of the COREFERENCE links"
            ),
            "not carried: discontinuous mentions (covering span), hierarchy, link types",
        ],
    ),
}
