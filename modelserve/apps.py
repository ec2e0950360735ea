from django.apps import AppConfig


class ModelserveConfig(AppConfig):
    name = "modelserve"
    verbose_name = "Model suggestions"

    def ready(self) -> None:
        from django.conf import settings

        from annotation.gates import gates_register
        from annotation.proposals import proposal_source_register
        from modelserve.loaded_models import MB, configure
        from modelserve.selectors import suggestion_exists
        from modelserve.services.learning import learning_on_submit

        proposal_source_register(suggestion_exists)
        # submitted and adjudicated topics retrain a learning project's suggester
        gates_register(submitted=learning_on_submit)
        # the model caches' bounds (model code reads no settings: it is told them here)
        configure(entries=settings.MODEL_CACHE_ENTRIES, max_bytes=settings.MODEL_CACHE_MB * MB)
