from django.apps import AppConfig


class ModelserveConfig(AppConfig):
    name = "modelserve"
    verbose_name = "Model suggestions"
