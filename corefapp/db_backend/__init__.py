"""Django's PostgreSQL backend with the pool's connection check of corefapp (see base.py)."""
