"""Reads: the reports, from the core's tables and the reporting app's own."""
