from django.apps import AppConfig


class DatasetsConfig(AppConfig):
    """Dataset release: statistics, splits and the release bundle with its datasheet."""

    name = "datasets"
