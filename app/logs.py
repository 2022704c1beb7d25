"""Logging of a process: lines of text, or with `LOG_FORMAT=json` one JSON object a line
(`time`, `level`, `logger`, `message`, and `error` with the traceback when there is one)."""

from __future__ import annotations

import json
import logging
import re
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


#: A query parameter whose value is a secret (a stream ticket, a token, a key): its value is
#: never written to a log.
_SECRET_QUERY = re.compile(
    r"([?&][^=&#]*(?:ticket|token|key|secret|password|session|auth)[^=&#]*=)[^&#\s]*", re.I
)


def redacted(target: str) -> str:
    """A request's path and query with the value of every secret query parameter hidden."""
    return _SECRET_QUERY.sub(r"\1[redacted]", target) if "?" in target else target


class RedactedAccess(logging.Filter):
    """uvicorn's access log (`ACCESS_LOG=1`) without secrets: its records' arguments are
    (client, method, path with query, HTTP version, status)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str):
            record.args = (*args[:2], redacted(args[2]), *args[3:])
        return True


def configure(log_format: str) -> None:
    """Log INFO and above to standard error, as text or as JSON lines."""
    if log_format != "json":
        logging.basicConfig(level=logging.INFO, format=TEXT)
        return
    handler = logging.StreamHandler()
    handler.setFormatter(JsonLines())
    logging.basicConfig(level=logging.INFO, handlers=[handler])
