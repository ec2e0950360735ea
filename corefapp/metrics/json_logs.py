"""LOG_FORMAT=json: one JSON object per log line, for log collectors (Loki, Elasticsearch).

No Django import: the settings module names this formatter before Django is configured.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime


class JsonLinesFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "process": record.process,
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)
