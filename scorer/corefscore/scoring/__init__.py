"""Stand-alone scorer: ``python -m corefscore.scoring score|iaa ...``.

Public API in :mod:`corefscore.scoring.api` (``score_scico``, ``score_chemu``, ``iaa``,
``iaa_csv_rows``, ``write_iaa_csv``). Nothing here imports Django.
"""
