"""Embedded defaults shared by the settings, the launcher and the test session.

No Django import here: the settings module imports this before Django is configured.
"""

import os
import secrets
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def var_dir() -> Path:
    """Where local state lives: database files, Redis data, trained models, the secret key."""
    return Path(os.environ.get("COREFAPP_VAR_DIR", REPO_ROOT / "var")).resolve()


def embedded_pg_port() -> int:
    return int(os.environ.get("EMBEDDED_PG_PORT", "54329"))


def embedded_redis_port() -> int:
    return int(os.environ.get("EMBEDDED_REDIS_PORT", "63799"))


def embedded_database_url(port: int | None = None) -> str:
    return f"postgres://postgres@127.0.0.1:{port or embedded_pg_port()}/corefapp"


def embedded_redis_url(port: int | None = None) -> str:
    return f"redis://127.0.0.1:{port or embedded_redis_port()}/0"


DEFAULT_DATABASE_URL = embedded_database_url()
DEFAULT_REDIS_URL = embedded_redis_url()

SECRET_KEY_FILE = "secret_key"


def read_secret_key_file() -> str:
    path = var_dir() / SECRET_KEY_FILE
    return path.read_text().strip() if path.exists() else ""


def ensure_secret_key_file() -> str:
    """Write a random key to var/secret_key once, so sessions survive restarts."""
    key = read_secret_key_file()
    if key:
        return key
    path = var_dir() / SECRET_KEY_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    path.write_text(key + "\n")
    path.chmod(0o600)
    return key


def models_dir() -> Path:
    """Trained suggestion models (MODELS_DIR, default var/models)."""
    return Path(os.environ.get("MODELS_DIR", var_dir() / "models")).resolve()
