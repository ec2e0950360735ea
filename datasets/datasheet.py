"""DATASHEET.md of a release, written from the facts the database holds (datasets.facts) and
the statistics. Plain text in, text out: the same facts give the same bytes.

Its sections follow what a dataset paper's readers look for: composition (the statistics
table), the annotation process, agreement, annotator vs gold, adjudication and validation,
the splits, and the files with their fields.
"""

from __future__ import annotations

from corefscore.corpus import LINK_TYPES
from datasets.format_fields import FORMAT_FIELDS

# Metric names of the agreement report as a reader of a paper knows them.
METRIC_NAMES = {
    "conll_f1": "CoNLL F1",
    "muc_f1": "MUC F1",
    "bcub_f1": "B3 F1",
    "ceafe_f1": "CEAF-e F1",
    "lea_f1": "LEA F1",
    "hierarchy_f1": "Hierarchy F1 (SciCo, closure)",
    "hierarchy_50_f1": "Hierarchy F1-50%",
    "path_ratio": "Path ratio",
    "relation_exact_f1": "Relations F1 (exact)",
    "relation_relaxed_f1": "Relations F1 (relaxed)",
    "alpha_relations": "Krippendorff's alpha, relations",
    "alpha_mentions": "Krippendorff's alpha, mentions",
    "alpha_mentions_coreference": "Krippendorff's alpha, coreference mentions",
    "alpha_mentions_transformed": "Krippendorff's alpha, transformed mentions",
    "alpha_mentions_reaction_associated": "Krippendorff's alpha, reaction-associated mentions",
    "alpha_mentions_work_up": "Krippendorff's alpha, work-up mentions",
    "alpha_mentions_contained": "Krippendorff's alpha, contained mentions",
    "hierarchy_f1_raw": "Hierarchy F1, raw edges (not SciCo's)",
    "mention_f1": "Mention F1 (exact, singletons included)",
    "mention_relaxed_f1": "Mention F1 (overlap)",
    "anaphor_f1": "Anaphor F1 (exact)",
    "anaphor_relaxed_f1": "Anaphor F1 (relaxed)",
}
COMMON_ROWS = (
    ("topics", "Topics"),
    ("documents", "Documents"),
    ("tokens", "Tokens"),
    ("sentences", "Sentences"),
    ("tokens_per_sentence", "Tokens per sentence"),
    ("mentions", "Mentions"),
    ("discontinuous_mentions", "Discontinuous mentions"),
)
HIERARCHY_ROWS = (
    ("clusters", "Clusters (singletons included)"),
    ("singletons", "Singletons"),
    ("relations", "Hierarchy relations (as drawn)"),
    ("mean_components", "Components per topic (mean)"),
    ("mean_max_depth", "Depth of the largest component (mean)"),
    ("ambiguity", "Ambiguity (clusters per head lemma, WEC)"),
    ("diversity", "Diversity (head lemmas per non-singleton cluster, WEC)"),
)
ANAPHORA_ROWS = (
    *((f"links.{t}", f"{t} links") for t in LINK_TYPES),
    ("anaphors", "Anaphors"),
)


def datasheet(
    *,
    project: dict,
    statistics: dict,
    process: dict,
    agreement: dict,
    versus_gold: dict,
    adjudication: dict,
    validation: dict | None,
    splits: dict,
    files: list[tuple[str, str]],
    formats: list[str],
    retrieval: dict | None = None,
) -> str:
    parts = [
        _head(project, statistics),
        _composition(project, statistics),
        *([_retrieval(retrieval)] if retrieval else []),
        _process(project, process),
        _agreement(agreement),
        _versus_gold(versus_gold),
        _adjudication(adjudication, validation),
        _splits(splits),
        _files(files, formats),
    ]
    return "\n\n".join(part.rstrip() for part in parts) + "\n"


def _head(project: dict, statistics: dict) -> str:
    total = statistics["total"]
    return (
        f"# {project['name']}: datasheet\n\n"
        f"Scheme: {_scheme(project)}. {total['topics']:,} topics, {total['documents']:,} "
        f"documents, {total['mentions']:,} mentions, annotated with corefapp. The figures "
        "are counted over each topic's gold: its latest submitted adjudication, else the "
        "gold it was imported with. Definitions: docs/datasets.md."
    )


def _scheme(project: dict) -> str:
    schemes = []
    if project["hierarchy"]:
        schemes.append("clusters and a hierarchy of clusters (SciCo-style)")
    if project["anaphora"]:
        schemes.append("typed anaphora links (ChEMU-Ref-style)")
    if project.get("validation"):
        schemes.append("validation of given clusters (WEC-style)")
    return " and ".join(schemes) or "none"


def _composition(project: dict, statistics: dict) -> str:
    scopes = [("Total", statistics["total"])]
    scopes += [(name, stats) for name, stats in statistics["splits"].items()]
    # A scheme the project does not use has only zeros: statistics.json keeps them.
    rows = list(COMMON_ROWS)
    if project["hierarchy"] or statistics["total"]["clusters"]:
        rows += HIERARCHY_ROWS
    if project["anaphora"] or statistics["total"]["anaphors"]:
        rows += ANAPHORA_ROWS
    lines = ["## Composition", ""]
    lines.append("| | " + " | ".join(name for name, _ in scopes) + " |")
    lines.append("| --- |" + " ---: |" * len(scopes))
    for key, label in rows:
        cells = [_number(_get(stats, key)) for _, stats in scopes]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    notes = ["Mentions exclude rejected ones."]
    if project["hierarchy"]:
        notes.append(
            "A cluster of one mention counts as a cluster and as a singleton. Relations are the "
            "hierarchy edges as drawn. Components: clusters joined by hierarchy edges taken as "
            "undirected; the depth counts the levels of each topic's largest component (a lone "
            "cluster is 1)."
        )
    if project["anaphora"]:
        notes.append(
            "Links are the distinct links as drawn: coreference chains are not closed under "
            "transitivity. Anaphors are the distinct mentions that are the anaphor of a link."
        )
    lines += ["", " ".join(notes)]
    return "\n".join(lines)


def _retrieval(facts: dict) -> str:
    """Where topics made from a corpus's candidate topics came from (SciCo section 3.2): the
    seed groups, the encoder, K, the floor and the similarities of what was kept."""
    lines = ["## Topic retrieval", ""]
    lines.append(
        f"{_plural(facts['topics'], 'topic')} were made from candidate topics: each the union "
        "of the corpus mentions most similar to the concepts of its seed groups (cosine "
        "similarity of the encoder's vectors, the top K per concept at or above the floor), "
        "reviewed by an admin (mentions dropped, candidates merged or split) before it "
        "became a topic."
    )
    lines += [
        "",
        (
            "| Corpus | Encoder | K | Floor | Most mentions | Topics | Groups | Concepts | "
            "Mentions | Similarity (min / mean / max) |"
        ),
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for run in facts["runs"]:
        similarity = run["similarity"]
        spread = (
            " / ".join(f"{similarity[key]:.3f}" for key in ("min", "mean", "max"))
            if similarity["mean"] is not None
            else UNDEFINED
        )
        lines.append(
            f"| {run['corpus']} | {run['encoder']} | {run['k']} | {run['floor']:g} | "
            f"{run['max_mentions']} | {run['topics']:,} | {len(run['groups']):,} | "
            f"{run['concepts']:,} | {run['mentions']:,} | {spread} |"
        )
    groups = [g for run in facts["runs"] for g in run["groups"]]
    shown = ", ".join(groups[:30]) + (
        f", and {len(groups) - 30:,} more" if len(groups) > 30 else ""
    )
    lines += ["", f"Seed groups: {shown}."]
    return "\n".join(lines)


def _process(project: dict, process: dict) -> str:
    lines = ["## Annotation process", ""]
    lines.append(f"- Annotators: {process['annotators']}; adjudicators: {process['adjudicators']}.")
    lines.append(
        f"- Annotator assignments: {process['assignments']:,}; submitted: {process['submitted']:,}."
    )
    if process["annotated_by"]:
        spread = "; ".join(
            f"{_plural(topics, 'topic')} by {_plural(k, 'annotator')}"
            for k, topics in process["annotated_by"].items()
        )
        lines.append(f"- Submitted annotations per topic: {spread}.")
    for role, names in process.get("names", {}).items():
        lines.append(f"- {role.title()}s: {', '.join(names)}.")
    settings = [
        ("annotators could add mentions", project["allow_add_mentions"]),
        ("fix their spans", project["allow_fix_spans"]),
        ("reject them", project["allow_reject_mentions"]),
    ]
    allowed = [text for text, on in settings if on]
    if not allowed:
        changes = "annotators could not change them"
    else:
        changes = ", ".join(allowed[:-1]) + (" and " if len(allowed) > 1 else "") + allowed[-1]
    lines.append(f"- Mentions: candidate mentions came with the topics; {changes}.")
    if project["hierarchy"]:
        parents = "one parent" if project["single_parent"] else "several parents"
        lines.append(f"- Hierarchy: each cluster has at most {parents}.")
    guidelines = project["guidelines"].strip()
    lines += ["", "### Guidelines", ""]
    if guidelines:
        lines += ["> " + line if line else ">" for line in guidelines.splitlines()]
    else:
        lines.append("No guidelines were recorded in the project.")
    return "\n".join(lines)


def _agreement(report: dict) -> str:
    lines = ["## Inter-annotator agreement", ""]
    overall = report.get("overall", {})
    scored = len(report.get("topics", {}))
    if not overall or not scored:
        lines.append(
            "Not measured: no topic has two submitted annotations "
            f"({len(report.get('unscored_topics', []))} topics unscored)."
        )
        return "\n".join(lines)
    pairs = len(report.get("annotators", [])) > 2
    spread = " (standard deviation in brackets)" if pairs else ""
    one_pair = "" if pairs else " With two annotators there is one pair: AVG is its score."
    lines.append(
        f"Every pair of annotators on each of the {scored} topics with two or more submitted "
        "annotations, scored one against the other (SciCo section 3.4). AVG: the mean of the "
        f"pairs' micro scores{spread}; MAX-micro: the best pair's micro score; MAX-macro: the "
        "mean over topics of each topic's best pair. Coreference scores leave singletons out; "
        f"F1 and path ratio in percent.{one_pair}"
    )
    if "hierarchy_f1" in overall:
        lines += ["", _hierarchy_counts(report.get("hierarchy_count", "closure"))]
    lines += ["", "| Metric | AVG | MAX-micro | MAX-macro |", "| --- | ---: | ---: | ---: |"]
    for metric, scores in overall.items():
        # Alpha is a coefficient in [-1, 1], not a fraction: it is not written as a percentage.
        show = _coefficient if metric.startswith("alpha") else _percent
        avg = show(scores.get("avg"))
        if pairs and scores.get("std") is not None and scores.get("avg") is not None:
            avg += f" (±{show(scores['std'])})"
        lines.append(
            f"| {METRIC_NAMES.get(metric, metric)} | {avg} | {show(scores.get('max_micro'))}"
            f" | {show(scores.get('max_macro'))} |"
        )
    unscored = report.get("unscored_topics", [])
    if unscored:
        lines += ["", f"{_plural(len(unscored), 'topic')} had fewer than two annotations."]
    lines += _left_out(report)
    return "\n".join(lines)


# The annotator-vs-gold columns a datasheet shows (F1 of each; the CSV has P, R and F1 of all).
GOLD_COLUMNS = (
    ("conll", "CoNLL F1"),
    ("hierarchy", "Hierarchy F1 (SciCo, closure)"),
    ("hierarchy_raw", "Hierarchy F1, raw edges (not SciCo's)"),
    ("mentions", "Mentions F1"),
    ("relation_exact", "Relations F1 exact"),
    ("relation_relaxed", "Relations F1 relaxed"),
    ("anaphor_exact", "Anaphors F1 exact"),
)


def _hierarchy_counts(primary: str) -> str:
    """Which of the two hierarchy F1 counts the project reports first (a project setting)."""
    closure = METRIC_NAMES["hierarchy_f1"]
    raw = METRIC_NAMES["hierarchy_f1_raw"]
    first, second = (raw, closure) if primary == "raw" else (closure, raw)
    return (
        f"Hierarchy agreement is counted two ways; this project reports {first} as its "
        f"primary figure, with {second} beside it. The closure count scores every relation of "
        "each side's transitive closure, as SciCo's released scorer (eval/hypernym.py) does: "
        "it is the one to set beside SciCo's published numbers. The raw edges count scores "
        "the drawn relations only, each matched against the other side's closure (SciCo's "
        "pre-release code); it is not SciCo's figure."
    )


def _versus_gold(section: dict) -> str:
    lines = ["## Annotators against the gold", ""]
    rows = section.get("annotators", [])
    if not rows:
        lines.append("No submitted annotation of a topic with a gold: nothing to compare.")
        return "\n".join(lines)
    columns = [(key, label) for key, label in GOLD_COLUMNS if key in section["metrics"]]
    adjudicated = section.get("adjudicated_topics", 0)
    imported = section.get("gold_topics", 0) - adjudicated
    lines.append(
        "Each annotator's submitted annotations scored against each topic's gold ("
        + _gold_kinds(adjudicated, imported)
        + "); micro averages over the topics both have, in percent. "
        "Coreference leaves singletons out; mentions are exact-span detection. All metrics, "
        "with precision and recall, are in agreement_vs_gold.csv."
    )
    coverage = section.get("gold_coverage")
    if coverage:  # a gold that clusters only some mentions scores everyone low
        lines += [
            "",
            (
                f"The gold covers {coverage['covered']:,} of {coverage['mentions']:,} mentions "
                f"(topics with mentions outside every cluster: {coverage['partial_topics']:,} of "
                f"{coverage['topics']:,}), so these scores are low by construction."
            ),
        ]
    lines += [
        "",
        "| Annotator | Topics | " + " | ".join(label for _, label in columns) + " |",
        "| --- | ---: |" + " ---: |" * len(columns),
    ]
    for row in rows:
        cells = [_percent(row["scores"][key]["f1"]) for key, _ in columns]
        lines.append(f"| {row['annotator']} | {row['topics']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _gold_kinds(adjudicated: int, imported: int) -> str:
    if not adjudicated:
        return f"the imported gold on all {_plural(imported, 'topic')}"
    if not imported:
        return f"the adjudication on all {_plural(adjudicated, 'topic')}"
    return (
        f"the adjudication on {_plural(adjudicated, 'topic')}, the imported gold on "
        f"{_plural(imported, 'topic')}"
    )


def _adjudication(facts: dict, validation: dict | None) -> str:
    lines = ["## Adjudication and validation", ""]
    lines.append(
        f"- Topics whose gold is a submitted adjudication: {facts['adjudicated_topics']}; "
        f"adjudications not yet submitted: {facts['adjudications_in_progress']}."
    )
    lines.append(
        f"- Topics whose gold is the annotation they were imported with: "
        f"{facts['imported_gold_topics']}; topics without a gold (not in the files): "
        f"{facts['topics_without_gold']}."
    )
    if validation is None:
        lines.append("- Validation decisions: none.")
    else:
        reasons = ", ".join(f"{reason} {n}" for reason, n in validation["reasons"].items())
        lines.append(
            f"- Validation decisions: {validation['decisions']:,} on "
            f"{_plural(validation['topics'], 'topic')}: {validation['accepted']:,} accepted, "
            f"{validation['rejected']:,} rejected" + (f" ({reasons})" if reasons else "") + "; "
            f"{validation['by_adjudicators']:,} of them by adjudicators."
        )
    return "\n".join(lines)


def _splits(facts: dict) -> str:
    lines = ["## Splits", ""]
    record = facts["record"]
    if not facts["sizes"]:
        lines.append("The project has no splits: the release holds all topics as `all`.")
        return "\n".join(lines)
    sizes = ", ".join(f"{name} {_plural(n, 'topic')}" for name, n in facts["sizes"].items())
    lines.append(
        f"- Topics per split: {sizes} (every topic of the project; the composition counts "
        "those with a gold)."
    )
    if record is None:
        lines.append("- Method: assigned by hand (no `dataset_split` run is recorded).")
        return "\n".join(lines)
    pairs = zip(record["names"], record["ratios"], strict=True)
    ratios = ", ".join(f"{name} {ratio:g}" for name, ratio in pairs)
    lines += [
        f"- Method: `dataset_split`, {record['method']}, on {record['date']}.",
        f"- Seed: {record['seed']}; ratios: {ratios}.",
        f"- Balanced quantity: {record['balance']} of the gold"
        + (" (each of the five link types)" if record["balance"] == "links" else "")
        + f"; the largest gap between a split's share of it and its share of the topics: "
        f"{record['deviation'] * 100:.2f} points.",
    ]
    if facts["moved_by_hand"]:
        lines.append(f"- Moved by hand since: {_plural(facts['moved_by_hand'], 'topic')}.")
    return "\n".join(lines)


def _files(files: list[tuple[str, str]], formats: list[str]) -> str:
    lines = ["## Files", ""]
    lines += [f"- `{path}`: {description}" for path, description in files]
    for name in formats:
        title, fields = FORMAT_FIELDS[name]
        lines += ["", f"### {name}", "", title, ""]
        lines += [f"- {field}" for field in fields]
    return "\n".join(lines)


def _get(stats: dict, key: str):
    if key.startswith("links."):
        return stats["links"][key.split(".", 1)[1]]
    return stats[key]


def _number(value) -> str:
    if isinstance(value, float):
        return f"{value:.2f}"
    return f"{value:,}"


# A score with nothing to score on either side is undefined, never 0 (docs/scoring.md).
UNDEFINED = "undefined"


def _percent(value: float | None) -> str:
    return UNDEFINED if value is None else f"{value * 100:.1f}"


def _coefficient(value: float | None) -> str:
    return UNDEFINED if value is None else f"{value:.2f}"


def _left_out(report: dict) -> list[str]:
    """What the agreement figures leave out, and why (reporting.domain.agreement_coverage)."""
    left_out = report.get("left_out", {})
    lines = []
    practice = left_out.get("practice", {}).get("topics", [])
    if practice:
        lines.append(
            f"{_plural(len(practice), 'practice topic')} left out: "
            f"{left_out['practice']['reason']}."
        )
    for metric, part in left_out.get("undefined", {}).items():
        lines.append(
            f"{METRIC_NAMES.get(metric, metric)} is undefined on "
            f"{_plural(len(part['topics']), 'topic')} ({part['reason']}), left out of its "
            "averages."
        )
    return ["", *(f"- {line}" for line in lines)] if lines else []


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")
