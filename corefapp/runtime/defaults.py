"""Embedded defaults shared by the settings, the launcher and the test session.

No Django import here: the settings module imports this before Django is configured.
"""

import os
import secrets
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def var_dir() -> Path:
    """Where local state lives: database files, Redis data, trained models, the secret key."""
    return Path(os.environ.get("COREFAPP_VAR_DIR", REPO_ROOT / "var")).resolve()


def embedded_pg_port() -> int:
    return int(os.environ.get("EMBEDDED_PG_PORT", "54329"))


def embedded_redis_port() -> int:
    return int(os.environ.get("EMBEDDED_REDIS_PORT", "63799"))


# Secrets of the embedded servers and the application, generated once, readable by this user
# only (mode 0600). `make up` passes them to its children in DATABASE_URL / REDIS_URL /
# SECRET_KEY; a management command run by hand finds them here through the defaults below.
SECRET_KEY_FILE = "secret_key"
PG_PASSWORD_FILE = "postgres.password"
REDIS_PASSWORD_FILE = "redis.password"


def read_private_file(name: str) -> str:
    path = var_dir() / name
    return path.read_text().strip() if path.exists() else ""


def ensure_private_file(name: str, nbytes: int = 32) -> str:
    """The secret in var/<name>, written with a random value the first time (mode 0600 from
    the moment it exists, so no other user can ever read it)."""
    value = read_private_file(name)
    if value:
        return value
    path = var_dir() / name
    path.parent.mkdir(parents=True, exist_ok=True)
    value = secrets.token_urlsafe(nbytes)  # letters, digits, - and _: safe inside a URL
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process wrote it just now
        time.sleep(0.1)
        return read_private_file(name)
    with os.fdopen(descriptor, "w") as file:
        file.write(value + "\n")
    return value


def embedded_database_url(port: int | None = None) -> str:
    password = read_private_file(PG_PASSWORD_FILE)
    user = f"postgres:{password}" if password else "postgres"
    return f"postgres://{user}@127.0.0.1:{port or embedded_pg_port()}/corefapp"


def embedded_redis_url(port: int | None = None) -> str:
    password = read_private_file(REDIS_PASSWORD_FILE)
    user = f":{password}@" if password else ""
    return f"redis://{user}127.0.0.1:{port or embedded_redis_port()}/0"


DEFAULT_DATABASE_URL = embedded_database_url()
DEFAULT_REDIS_URL = embedded_redis_url()


def read_secret_key_file() -> str:
    return read_private_file(SECRET_KEY_FILE)


def ensure_secret_key_file() -> str:
    """Write a random key to var/secret_key once, so sessions survive restarts."""
    return ensure_private_file(SECRET_KEY_FILE, nbytes=50)


def models_dir() -> Path:
    """Trained suggestion models (MODELS_DIR, default var/models)."""
    return Path(os.environ.get("MODELS_DIR", var_dir() / "models")).resolve()
