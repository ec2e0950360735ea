"""Straightforward ports of the reference scorers' loops, slow but obviously faithful.

The fast implementations in ``corefscore.metrics`` are compared with these on random
inputs. Sources (read from the public repositories):

- ns-moosavi/coval ``coval/eval/evaluator.py`` (``mentions``, ``b_cubed``, ``muc``,
  ``phi4``, ``ceafe``, ``lea``, ``f1``, ``Evaluator``) and ``coval/conll/reader.py``
  (singleton removal in ``get_doc_mentions``, ``get_mention_assignments``);
- ariecattan/SciCo ``eval/hypernym.py`` (``HypernymScore``) as released with the paper
  (commit ee169b6db98c0f9bc77b1f0d4fd73b06d7adef11, 25 May 2021: :class:`ScicoHypernymScore`),
  and its pre-release version (commit 0360781, April 2021: :func:`prerelease_raw_edge_counts`,
  the "raw edges (not SciCo's)" figure), ``eval/hypernym_50.py`` (``HypernymScore50``) and
  ``eval/shortest_path.py`` (``ShortestPath``, cluster-graph version, ``directed=True,
  with_tn=False``);
- the ChEMU 2021 overview, section 5 (BRATEval with maximum bipartite matching), with
  scipy's matching and networkx's transitive closure.

Topics for the SciCo ports are dicts ``{"mentions": [[..., cluster_id], ...], "relations":
[[parent, child], ...]}``; both sides share the mention list, as SciCo assumes.
"""

from __future__ import annotations

import collections
from collections import Counter
from itertools import chain, product

import networkx as nx
import numpy as np
from scipy.optimize import linear_sum_assignment
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import maximum_bipartite_matching

# ----------------------------------------------------------------------------- coval


def coval_f1(p_num, p_den, r_num, r_den, beta=1):
    p = 0 if p_den == 0 else p_num / float(p_den)
    r = 0 if r_den == 0 else r_num / float(r_den)
    return 0 if p + r == 0 else (1 + beta * beta) * p * r / (beta * beta * p + r)


def coval_mentions(clusters, mention_to_gold):
    setofmentions = {mention for cluster in clusters for mention in cluster}
    correct = setofmentions & set(mention_to_gold.keys())
    return len(correct), len(setofmentions)


def coval_b_cubed(clusters, mention_to_gold):
    num, den = 0, 0
    for c in clusters:
        gold_counts = Counter()
        correct = 0
        for m in c:
            if m in mention_to_gold:
                gold_counts[mention_to_gold[m]] += 1
        for c2 in gold_counts:
            correct += gold_counts[c2] * gold_counts[c2]
        num += correct / float(len(c))
        den += len(c)
    return num, den


def coval_muc(clusters, mention_to_gold):
    tp, p = 0, 0
    for c in clusters:
        p += len(c) - 1
        tp += len(c)
        linked = set()
        for m in c:
            if m in mention_to_gold:
                linked.add(mention_to_gold[m])
            else:
                tp -= 1
        tp -= len(linked)
    return tp, p


def coval_phi4(c1, c2):
    return 2.0 * len(c1 & c2) / (len(c1) + len(c2))


def coval_ceafe(clusters, gold_clusters):
    clusters = [set(c) for c in clusters]
    gold_clusters = [set(c) for c in gold_clusters]
    scores = np.zeros((len(gold_clusters), len(clusters)))
    for i in range(len(gold_clusters)):
        for j in range(len(clusters)):
            scores[i, j] = coval_phi4(gold_clusters[i], clusters[j])
    row_ind, col_ind = linear_sum_assignment(-scores)
    similarity = scores[row_ind, col_ind].sum()
    return similarity, len(clusters), similarity, len(gold_clusters)


def coval_lea(input_clusters, output_clusters, mention_to_gold):
    num, den = 0, 0
    for c in input_clusters:
        if len(c) == 1:
            all_links = 1
            if c[0] in mention_to_gold and len(output_clusters[mention_to_gold[c[0]]]) == 1:
                common_links = 1
            else:
                common_links = 0
        else:
            common_links = 0
            all_links = len(c) * (len(c) - 1) / 2.0
            for i, m in enumerate(c):
                if m in mention_to_gold:
                    for m2 in c[i + 1 :]:
                        if m2 in mention_to_gold and mention_to_gold[m] == mention_to_gold[m2]:
                            common_links += 1
        num += len(c) * common_links / float(all_links)
        den += len(c)
    return num, den


def coval_mention_assignments(inp_clusters, out_clusters):
    mention_cluster_ids = {}
    out_dic = {}
    for i, c in enumerate(out_clusters):
        for m in c:
            out_dic[m] = i
    for ic in inp_clusters:
        for im in ic:
            if im in out_dic:
                mention_cluster_ids[im] = out_dic[im]
    return mention_cluster_ids


COVAL_METRICS = {
    "mentions": coval_mentions,
    "muc": coval_muc,
    "bcub": coval_b_cubed,
    "ceafe": coval_ceafe,
    "lea": coval_lea,
}


def coval_evaluate(documents, keep_singletons):
    """``documents``: (key clusters, sys clusters) per document, clusters as lists.

    Returns ``{metric: (p_num, p_den, r_num, r_den)}`` summed as ``Evaluator.update`` does.
    """
    totals = {name: [0, 0, 0, 0] for name in COVAL_METRICS}
    for key_clusters, sys_clusters in documents:
        if not keep_singletons:
            key_clusters = [c for c in key_clusters if len(c) != 1]
            sys_clusters = [c for c in sys_clusters if len(c) != 1]
        sys_mention_key_cluster = coval_mention_assignments(sys_clusters, key_clusters)
        key_mention_sys_cluster = coval_mention_assignments(key_clusters, sys_clusters)
        for name, metric in COVAL_METRICS.items():
            if name == "ceafe":
                pn, pd, rn, rd = metric(sys_clusters, key_clusters)
            elif name == "lea":
                pn, pd = metric(sys_clusters, key_clusters, sys_mention_key_cluster)
                rn, rd = metric(key_clusters, sys_clusters, key_mention_sys_cluster)
            else:
                pn, pd = metric(sys_clusters, sys_mention_key_cluster)
                rn, rd = metric(key_clusters, key_mention_sys_cluster)
            total = totals[name]
            total[0] += pn
            total[1] += pd
            total[2] += rn
            total[3] += rd
    return {name: tuple(values) for name, values in totals.items()}


# ----------------------------------------------------------------------------- SciCo


def scico_higher_order_relations(binary_relations):
    graph = nx.DiGraph(directed=True)
    nodes = set(chain.from_iterable(binary_relations))
    graph.add_nodes_from(nodes)
    graph.add_edges_from(binary_relations)
    higher_order_relations = []
    for x, y in product(nodes, repeat=2):
        if x != y and nx.has_path(graph, x, y) and [x, y] not in binary_relations:
            higher_order_relations.append([x, y])
    return higher_order_relations


class ScicoHypernymScore:
    """``eval/hypernym.py`` ``HypernymScore`` of ariecattan/SciCo as released with the paper:
    commit ee169b6db98c0f9bc77b1f0d4fd73b06d7adef11 ("update the code", 25 May 2021), the
    file unchanged since up to the repository's head (e1055b7). Ported line by line: its
    ``get_expanded_relations`` adds the higher-order relations (``binary_relations +
    get_higher_order_relations(...)``: a list, so a repeated relation is counted twice) on
    *both* sides before counting; only the printing and the ``jsonlines`` entry point are left
    out. Topics as in SciCo's jsonl: relations are lists ``[parent, child]``."""

    def __init__(self, gold, system):
        self.gold = {x["id"]: x for x in gold}
        self.system = {x["id"]: x for x in system}
        self.recall_num, self.recall_denominator = [], []
        self.precision_num, self.precision_denominator = [], []
        self.recall, self.precision, self.f1 = {}, {}, {}
        for topic in self.gold:
            if topic not in self.system:
                raise ValueError(topic)
            self.topic = topic
            self.compute_individual_hypernym(self.gold[topic], self.system[topic])
        self.micro_recall, self.micro_precision, self.micro_f1 = self.compute_micro_average_scores()
        self.macro_f1 = sum(self.f1.values()) / len(self.f1)

    def get_higher_order_relations(self, binary_relations):
        return scico_higher_order_relations(binary_relations)

    def get_expanded_relations(self, binary_relations, mentions):
        expanded_relations = []
        dict_clusters = collections.defaultdict(list)
        for i, mention in enumerate(mentions):
            cluster_id = mention[-1]
            dict_clusters[cluster_id].append(i)
        all_relations = binary_relations + self.get_higher_order_relations(binary_relations)
        for parent, child in all_relations:
            parent_child_relation = []
            for coref_parent in dict_clusters[parent]:
                parent_child_relation.extend(
                    [(coref_parent, coref_child) for coref_child in dict_clusters[child]]
                )
            expanded_relations.append(parent_child_relation)
        return expanded_relations

    def compute_individual_hypernym(self, topic_gold, topic_system):
        gold_relations = self.get_expanded_relations(
            topic_gold["relations"], topic_gold["mentions"]
        )
        system_relations = self.get_expanded_relations(
            topic_system["relations"], topic_system["mentions"]
        )
        flatten_gold = list(chain.from_iterable(gold_relations))
        flatten_predicted = list(chain.from_iterable(system_relations))
        recall_num, recall_denominator = 0, len(gold_relations)
        precision_num, precision_denominator = 0, len(system_relations)
        for relation in gold_relations:
            score = sum([1 for rel in relation if rel in flatten_predicted])
            if score > 0:
                recall_num += 1
        for relation in system_relations:
            score = sum([1 for rel in relation if rel in flatten_gold])
            if score > 0:
                precision_num += 1
        recall = recall_num / recall_denominator if recall_denominator != 0 else 0
        precision = precision_num / precision_denominator if precision_denominator != 0 else 0
        f1 = 2 * recall * precision / (recall + precision) if recall + precision != 0 else 0
        self.f1[self.topic] = f1
        self.recall[self.topic] = recall
        self.precision[self.topic] = precision
        self.recall_num.append(recall_num)
        self.recall_denominator.append(recall_denominator)
        self.precision_num.append(precision_num)
        self.precision_denominator.append(precision_denominator)

    def compute_micro_average_scores(self):
        micro_recall = (
            sum(self.recall_num) / sum(self.recall_denominator)
            if sum(self.recall_denominator) != 0
            else 0
        )
        micro_precision = (
            sum(self.precision_num) / sum(self.precision_denominator)
            if sum(self.precision_denominator) != 0
            else 0
        )
        micro_f1 = (
            2 * micro_recall * micro_precision / (micro_recall + micro_precision)
            if (micro_recall + micro_precision) != 0
            else 0
        )
        return micro_recall, micro_precision, micro_f1


def scico_hypernym_counts(topic_gold, topic_system):
    """SciCo's released hierarchy F1 counts for one topic (:class:`ScicoHypernymScore`):
    ``(precision_num, precision_den, recall_num, recall_den)``."""
    score = ScicoHypernymScore([{**topic_gold, "id": 0}], [{**topic_system, "id": 0}])
    return (
        score.precision_num[0],
        score.precision_denominator[0],
        score.recall_num[0],
        score.recall_denominator[0],
    )


def _prerelease_expanded_relations(binary_relations, mentions):
    """``get_expanded_relations`` of the pre-release file (no higher-order relations added)."""
    expanded_relations = []
    dict_clusters = collections.defaultdict(list)
    for i, mention in enumerate(mentions):
        dict_clusters[mention[-1]].append(i)
    for parent, child in binary_relations:
        parent_child_relation = []
        for coref_parent in dict_clusters[parent]:
            parent_child_relation.extend(
                [(coref_parent, coref_child) for coref_child in dict_clusters[child]]
            )
        expanded_relations.append(parent_child_relation)
    return expanded_relations


def prerelease_raw_edge_counts(topic_gold, topic_system):
    """The "raw edges (not SciCo's)" count: ``compute_individual_hypernym`` of SciCo's
    *pre-release* ``eval/hypernym.py`` (commit 0360781d6d0f2aa9f3d92cc8fdbb79f03065ea31,
    28 April 2021), replaced before the paper's code was released: it counts only the drawn
    relations (repeats included), each matched against the other side's closure."""
    gold_relations = _prerelease_expanded_relations(topic_gold["relations"], topic_gold["mentions"])
    system_relations = _prerelease_expanded_relations(
        topic_system["relations"], topic_system["mentions"]
    )
    flatten_gold = list(chain.from_iterable(gold_relations))
    flatten_predicted = list(chain.from_iterable(system_relations))
    gold_higher = _prerelease_expanded_relations(
        scico_higher_order_relations(topic_gold["relations"]), topic_gold["mentions"]
    )
    system_higher = _prerelease_expanded_relations(
        scico_higher_order_relations(topic_system["relations"]), topic_system["mentions"]
    )
    recall_num, recall_den = 0, len(gold_relations)
    precision_num, precision_den = 0, len(system_relations)
    for relation in gold_relations:
        if (
            sum(
                1
                for rel in relation
                if rel in flatten_predicted + list(chain.from_iterable(system_higher))
            )
            > 0
        ):
            recall_num += 1
    for relation in system_relations:
        if (
            sum(
                1
                for rel in relation
                if rel in flatten_gold + list(chain.from_iterable(gold_higher))
            )
            > 0
        ):
            precision_num += 1
    return precision_num, precision_den, recall_num, recall_den


def scico_hypernym_50_counts(topic_gold, topic_system):
    """``HypernymScore50.get_topic_score``."""

    def clusters_of(topic):
        clusters = collections.defaultdict(list)
        for i, mention in enumerate(topic["mentions"]):
            clusters[mention[-1]].append(i)
        return clusters

    def candidates(parent, children, clusters):
        candidate_parents, candidate_children = [], []
        for cluster_id, mentions in clusters.items():
            if len([x for x in parent if x in mentions]) >= 0.5 * len(parent):
                candidate_parents.append(cluster_id)
            if len([x for x in children if x in mentions]) >= 0.5 * len(children):
                candidate_children.append(cluster_id)
        return candidate_parents, candidate_children

    gold_relations = [(x, y) for x, y in topic_gold["relations"]]
    gold_relations.extend(
        tuple(r) for r in scico_higher_order_relations([list(r) for r in gold_relations])
    )
    gold_relations = set(gold_relations)
    sys_relations = [(x, y) for x, y in topic_system["relations"]]
    sys_relations.extend(
        tuple(r) for r in scico_higher_order_relations([list(r) for r in sys_relations])
    )
    sys_relations = set(sys_relations)
    gold_clusters, sys_clusters = clusters_of(topic_gold), clusters_of(topic_system)
    recall_num = precision_num = 0
    for x, y in gold_relations:
        parents, children = candidates(gold_clusters[x], gold_clusters[y], sys_clusters)
        if sum(1 for p in parents for c in children if (p, c) in sys_relations) >= 1:
            recall_num += 1
    for x, y in sys_relations:
        parents, children = candidates(sys_clusters[x], sys_clusters[y], gold_clusters)
        if sum(1 for p in parents for c in children if (p, c) in gold_relations) >= 1:
            precision_num += 1
    return precision_num, len(sys_relations), recall_num, len(gold_relations)


def scico_path_topic(topic_gold, topic_system):
    """``ShortestPath.get_topic_score`` (cluster graph): (numerator, denominator)."""

    def graph_of(topic):
        graph = nx.DiGraph()
        graph.add_nodes_from({m[-1] for m in topic["mentions"]})
        graph.add_edges_from(topic["relations"])
        return graph

    def distance(graph, clusters, x, y):
        if clusters[x] == clusters[y]:
            return 1
        if nx.has_path(graph, clusters[x], clusters[y]):
            return nx.shortest_path_length(graph, clusters[x], clusters[y]) + 1
        return 0

    gold_graph, sys_graph = graph_of(topic_gold), graph_of(topic_system)
    gold_clusters = [m[-1] for m in topic_gold["mentions"]]
    sys_clusters = [m[-1] for m in topic_system["mentions"]]
    numerator, denominator = 0, 0
    for x, y in product(range(len(gold_clusters)), repeat=2):
        gold_distance = distance(gold_graph, gold_clusters, x, y)
        sys_distance = distance(sys_graph, sys_clusters, x, y)
        small, large = min(gold_distance, sys_distance), max(gold_distance, sys_distance)
        if small == 0 and large == 0:
            continue
        numerator += small / large
        denominator += 1
    return numerator, denominator


def scico_path_averages(topic_counts):
    numerators = [n for n, _ in topic_counts]
    denominators = [d for _, d in topic_counts]
    micro = sum(numerators) / sum(denominators)
    macro = np.average(
        [x / y if y != 0 else 0 for x, y in zip(numerators, denominators, strict=True)]
    )
    return micro, macro


# ------------------------------------------------------------------------ BRATEval (ChEMU 2021)


def chemu_expand(relations):
    relations = set(relations)
    graph = nx.DiGraph()
    graph.add_edges_from((a, b) for kind, a, b in relations if kind == "COREFERENCE")
    closure = nx.transitive_closure(graph, reflexive=False)
    relations.update(("COREFERENCE", a, b) for a, b in closure.edges() if a != b)
    return relations


def spans_overlap(first, second):
    tokens = lambda m: {(m[0], t) for s, e in m[1] for t in range(s, e + 1)}
    return bool(tokens(first) & tokens(second))


def scipy_matching_size(edges, n_left, n_right):
    if not edges or not n_left or not n_right:
        return 0
    rows, cols = zip(*edges, strict=True)
    graph = csr_matrix((np.ones(len(edges)), (rows, cols)), shape=(n_left, n_right))
    return int((maximum_bipartite_matching(graph, perm_type="column") >= 0).sum())


def chemu_relation_counts(key, response, relaxed):
    """TP, #key, #response per type, after expansion, with maximum matching for relaxed."""
    key, response = chemu_expand(key), chemu_expand(response)
    result = {}
    for kind in {r[0] for r in key | response}:
        k = sorted(r for r in key if r[0] == kind)
        s = sorted(r for r in response if r[0] == kind)
        if relaxed:
            edges = [
                (i, j)
                for i, a in enumerate(k)
                for j, b in enumerate(s)
                if spans_overlap(a[1], b[1]) and spans_overlap(a[2], b[2])
            ]
            tp = scipy_matching_size(edges, len(k), len(s))
        else:
            tp = len(set(k) & set(s))
        result[kind] = (tp, len(k), len(s))
    return result
