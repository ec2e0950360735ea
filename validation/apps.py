from django.apps import AppConfig


class ValidationConfig(AppConfig):
    """Validation projects: validators accept or reject imported clusters (docs/validation.md)."""

    name = "validation"

    def ready(self) -> None:
        # The core asks these through annotation/validation_hooks.py; it never imports us.
        from annotation.validation_hooks import ValidationHooks, validation_hooks_register
        from validation.selectors.counts import validation_decided_counts
        from validation.selectors.measures import validation_csv_write, validation_measures
        from validation.services.export import validated_export
        from validation.services.import_checks import validation_unfit_drop

        validation_hooks_register(
            ValidationHooks(
                decided_counts=validation_decided_counts,
                measures=validation_measures,
                measures_csv_write=validation_csv_write,
                export=validated_export,
                import_fit=validation_unfit_drop,
            )
        )
