from django.apps import AppConfig


class ModelserveConfig(AppConfig):
    name = "modelserve"
    verbose_name = "Model suggestions"

    def ready(self) -> None:
        from django.conf import settings

        from annotation.proposals import proposal_source_register
        from modelserve.backends import models_dir_set
        from modelserve.selectors import suggestion_exists

        proposal_source_register(suggestion_exists)
        models_dir_set(settings.MODELS_DIR)
