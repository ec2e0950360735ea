"""corefscore: score and convert coreference annotations without the application.

``python -m corefscore score|iaa`` is the command line; the Python API is in
:mod:`corefscore.scoring.api`. The metrics are in :mod:`corefscore.metrics`, the readers and
writers of every file format in :mod:`corefscore.formats`, and the pure corpus model they share
(documents, mentions, clusters, relations, links) in :mod:`corefscore.corpus`.
"""
