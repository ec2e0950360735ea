"""The scorers: ``python -m corefscore score|iaa`` (``cli``), files read for scoring
(``files``), scoring from paths or topics (``from_files``: the library's ``corefscore.score``
and ``corefscore.iaa``), and the scorers on topics (``api``: ``score_scico``, ``score_chemu``,
``score_scoped``, ``iaa``, ``iaa_csv_rows``, ``write_iaa_csv``). Nothing here imports Django.
"""
