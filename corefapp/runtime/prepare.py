"""Everything the application needs before it serves: idempotent, run at every start.

`make up` runs it before starting the web server and workers; docker-compose runs it as the
one-shot `prepare` service. Demo data is loaded only into an empty database.
"""

import os
import sys


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "corefapp.settings")
    from corefapp.private_files import private_umask

    private_umask()  # the default models it trains are private (corefapp/private_files.py)
    import django
    from django.core.management import call_command

    django.setup()
    from django.conf import settings

    # WhiteNoise serves the built frontend through the finders; an existing (empty) STATIC_ROOT
    # keeps it from warning at every start.
    settings.STATIC_ROOT.mkdir(parents=True, exist_ok=True)
    call_command("migrate", interactive=False, verbosity=0)
    call_command("load_demo")
    call_command("ensure_default_models")
    return 0


if __name__ == "__main__":
    sys.exit(main())
