"""Reading corpus files, pure Python (no Django): each format's lines become DocumentRecords,
every problem a line-numbered message; `check` walks a whole file before anything is written
and `records` walks it again to write (docs/corpus.md, "Formats")."""

from corpus.reading.check import CheckReport, check
from corpus.reading.formats import CORPUS_FORMATS, records
from corpus.reading.records import DocumentRecord, MentionRecord

__all__ = ["CORPUS_FORMATS", "CheckReport", "DocumentRecord", "MentionRecord", "check", "records"]
