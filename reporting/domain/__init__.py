"""Pure Python (no Django, DRF, Celery or Channels; an import-linter contract): the diff of a
diagnosis and the rules of the time report."""
