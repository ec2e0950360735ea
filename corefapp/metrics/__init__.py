"""`/metrics` in Prometheus's text format (prometheus-client) and JSON log lines."""
