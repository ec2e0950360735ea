#!/usr/bin/env python
import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "corefapp.settings")
    from corefapp.private_files import private_umask

    private_umask()  # what commands write (models, backups, releases) is private: 0600/0700
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
