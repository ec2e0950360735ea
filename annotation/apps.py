from django.apps import AppConfig


class AnnotationConfig(AppConfig):
    name = "annotation"
    verbose_name = "Annotation"

    def ready(self) -> None:
        from annotation.api import refusals
        from foundation.api.errors import register

        register(refusals.STATUS_BY_ERROR, bodies=refusals.BODY_BY_ERROR)
