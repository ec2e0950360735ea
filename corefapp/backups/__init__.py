"""Backups of one instance (`manage.py backup` / `restore`) and `make up`'s daily schedule."""
