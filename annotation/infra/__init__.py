"""Infrastructure under the services: SQL writers of the domain's effects and bulk rows, the
per-process state cache, live broadcasts through the channel layer, and the one helper that
sends side effects after commit. No use case lives here; services call these."""
