"""Agreement and evaluation metrics: pure functions over plain Python values.

Definitions are those of ``../shared/docs/metrics.md``; where it is silent, the standard scorer
is followed (coval for MUC/B3/CEAF-e/LEA, the SciCo repository for the hierarchy scores,
BRATEval for anaphora relations) and each module says which convention it took from where.

Modules, by concept:

- ``counts``: numerator/denominator pairs and the P/R/F1 arithmetic shared by every scorer;
- ``matching``: maximum bipartite matching and the optimal assignment (CEAF-e);
- ``mention_detection``: exact and relaxed (overlap) mention P/R/F1;
- ``coreference``: MUC, B3, CEAF-e, LEA, coval's "mentions" score, CoNLL F1;
- ``hierarchy``: transitive closure, hierarchy F1, F1-50%, path-distance ratio;
- ``anaphora``: ChEMU relation P/R/F1 (exact, relaxed) and anaphor detection;
- ``alpha``: Krippendorff's alpha (nominal) for relations and mentions;
- ``iaa``: inter-annotator aggregation (AVG, MAX, MAX-micro, MAX-macro).

Mentions are any hashable keys; the scorer uses ``(document index, spans)`` as in
``corefscore.corpus``. Nothing here imports Django. Only Krippendorff's alpha needs
numpy (and krippendorff), imported inside its functions: the coreference and hierarchy
scores are plain Python, reproducing numpy's sums where the reference scorers used them
(``counts.numpy_sum``), so that the command line starts fast.
"""
