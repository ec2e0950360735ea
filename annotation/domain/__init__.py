"""Pure Python: annotation operations, agreement metrics and file formats.

Nothing here imports Django, DRF, Celery or Channels (an import-linter contract enforces it),
so researchers can use the scorers and formats as a library without settings or a database.
"""
