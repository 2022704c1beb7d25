"""Logging of a process: lines of text, or with `LOG_FORMAT=json` one JSON object a line
(`time`, `level`, `logger`, `message`, and `error` with the traceback when there is one)."""

from __future__ import annotations

import json
import logging
import time

TEXT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def configure(log_format: str) -> None:
    """Log INFO and above to standard error, as text or as JSON lines."""
    if log_format != "json":
        logging.basicConfig(level=logging.INFO, format=TEXT)
        return
    handler = logging.StreamHandler()
    handler.setFormatter(JsonLines())
    logging.basicConfig(level=logging.INFO, handlers=[handler])
