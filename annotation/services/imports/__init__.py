"""Imports: topics with their documents, candidate mentions and gold (`topics`), and an
annotator's own annotation of topics already in a project (`annotation`). Both plan their
writes as domain effects (`effects`) and point errors at the file, record and field of the
input (`locations`)."""
