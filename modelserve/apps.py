from django.apps import AppConfig


class ModelserveConfig(AppConfig):
    name = "modelserve"
    verbose_name = "Model suggestions"

    def ready(self) -> None:
        from annotation.gates import gates_register
        from annotation.proposals import proposal_source_register
        from modelserve.selectors import suggestion_exists
        from modelserve.services.learning import learning_on_submit

        proposal_source_register(suggestion_exists)
        # submitted and adjudicated topics retrain a learning project's suggester
        gates_register(submitted=learning_on_submit)
