from django.apps import AppConfig


class ReportingConfig(AppConfig):
    """Reports over the core's work: the agreement report (and its stored per-pair counts),
    the diagnosis of disagreement on a topic, where annotators' time goes, and an
    annotation's history. It reads the core and never the other way round."""

    name = "reporting"

    def ready(self) -> None:
        # The core says through annotation/gates.py when a topic's submitted work changed
        # (a submit or a reopen); it never imports us. The stored counts are filled then.
        from annotation.gates import gates_register
        from reporting.services.agreement_scores import agreement_scores_refresh

        gates_register(work_changed=agreement_scores_refresh)
