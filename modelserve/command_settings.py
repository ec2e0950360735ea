"""The project's path settings for the command lines (`python -m modelserve.train|predict`).

The command lines read the same Django settings as the server (MODELS_DIR, CHEMU_TRAIN_FILE:
see corefapp/settings.py), so a model trained by hand lands where the server looks, without
the model code importing the launcher. An argument given on the command line wins, and then
the settings are not read at all. Only the settings module is loaded: no `django.setup()`,
no database.
"""

from __future__ import annotations

import os
from pathlib import Path


class SettingsUnreadable(Exception):
    pass


def path_setting(name: str) -> Path:
    """The setting `name` as a path; SettingsUnreadable says why it could not be read."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "corefapp.settings")
    # The settings refuse to load without a secret key (the server must not sign sessions with
    # a known one). These commands sign nothing and open no database, and must work on a fresh
    # clone before `make up` has written var/secret_key, so they need none.
    os.environ.setdefault("SECRET_KEY", "unused: the model command lines sign nothing")
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured

    try:
        return Path(getattr(settings, name))
    except ImproperlyConfigured as error:
        raise SettingsUnreadable(
            f"the project's settings could not be read ({error}); give the path on the "
            "command line instead"
        ) from error
