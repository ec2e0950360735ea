"""Writes: every user-visible change goes through a function here, under transaction.atomic."""
