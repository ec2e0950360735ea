"""What each process measures itself: request latency per route, open websockets.

With PROMETHEUS_MULTIPROC_DIR set (an empty folder, one per machine, wiped at each start),
prometheus-client keeps these in files there and `/metrics` sums every process's (Daphne
workers, WEB_CONCURRENCY > 1); without it each process reports its own.
"""

from __future__ import annotations

from prometheus_client import Gauge, Histogram

# Seconds; the workspace's edits answer in milliseconds, exports and reports in seconds.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)

REQUEST_LATENCY = Histogram(
    "corefapp_http_request_duration_seconds",
    "HTTP request latency by route (the URL pattern, not the path) and method",
    ["route", "method", "status"],
    buckets=LATENCY_BUCKETS,
)
OPEN_WEBSOCKETS = Gauge(
    "corefapp_open_websockets",
    "Websockets accepted and not yet closed",
    multiprocess_mode="livesum",
)
