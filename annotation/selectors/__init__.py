"""Reads: querysets and plain structures the API and services build on."""
