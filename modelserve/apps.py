from django.apps import AppConfig


class ModelserveConfig(AppConfig):
    name = "modelserve"
    verbose_name = "Model suggestions"

    def ready(self) -> None:
        from annotation.proposals import proposal_source_register
        from modelserve.selectors import suggestion_exists

        proposal_source_register(suggestion_exists)
