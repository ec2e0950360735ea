from django.apps import AppConfig


class AdjudicationConfig(AppConfig):
    """Adjudication: seeded adjudication assignments (consensus of the annotators' submitted
    versions), the adjudicator's view of those versions, and the bulk `adjudicate` command.
    An adjudication is a core assignment with role ADJUDICATOR: the core needs nothing from
    this app."""

    name = "adjudication"
