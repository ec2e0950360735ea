"""Settings for corefapp, read from the environment.

Every value has an embedded default so that `make up` works on a laptop with nothing set:
PostgreSQL and Redis are the servers that `corefapp.runtime` starts from pip packages.
Setting DATABASE_URL / REDIS_URL points the application at other servers instead.
"""

from pathlib import Path

import environ
from channels_redis.core import RedisChannelLayer
from django.core.exceptions import ImproperlyConfigured

from corefapp.runtime.defaults import (
    DEFAULT_DATABASE_URL,
    DEFAULT_REDIS_URL,
    models_dir,
    read_secret_key_file,
    var_dir,
)
from corefapp.storage import default_storage_setting

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = var_dir()

env = environ.Env()

DEBUG = env.bool("DEBUG", default=False)
# The key comes from SECRET_KEY, else from var/secret_key, which the launcher (make up) and
# the test set-up write once with a random value. With neither, the server refuses to start
# rather than sign sessions with a key everybody knows.
SECRET_KEY = env.str("SECRET_KEY", default="") or read_secret_key_file()
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. With DEBUG off the server refuses to start without a real "
            "key: export SECRET_KEY to a long random value (make up writes one to var/secret_key)."
        )
    SECRET_KEY = "debug-only-insecure-key"

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# Deployment behind HTTPS. Off by default: `make up` serves plain HTTP on localhost, where a
# browser never sends Secure cookies back. SECURE_HSTS_SECONDS > 0 makes browsers use HTTPS
# only for that long (Django sends it on HTTPS requests only).
SECURE_COOKIES = env.bool("SECURE_COOKIES", default=False)
SESSION_COOKIE_SECURE = SECURE_COOKIES
CSRF_COOKIE_SECURE = SECURE_COOKIES
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
# How many reverse proxies in front of the server append to X-Forwarded-For. With 0 the
# header is ignored (a client can write anything in it); with N the client address is the
# Nth address from the right, and X-Forwarded-Proto (set by the proxy) says whether the
# request came over HTTPS. Sign-in throttling keys on this address.
TRUSTED_PROXIES = env.int("TRUSTED_PROXIES", default=0)
if TRUSTED_PROXIES > 0:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Only the app's own files: no inline script, no other origin. The Swagger UI (/api/docs/) is
# served from local files and loads its set-up script as a file too; its page has one inline
# style block, allowed by its hash (tests/corefapp/test_security.py checks that it matches).
SWAGGER_UI_STYLE_HASH = "'sha256-MMpT0iDxyjALd9PdfepImGX3DBfJPXZ4IlDWdPAgtn0='"
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        f"style-src 'self' {SWAGGER_UI_STYLE_HASH}",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "annotation",
    "accounts",
    "adjudication",
    "reporting",
    "validation",
    "corpus",
    "modelserve",
    "onboarding",
    "datasets",
    # The project itself, for commands that span both apps (load_demo).
    "corefapp",
]

MIDDLEWARE = [
    "corefapp.metrics.middleware.RequestLatencyMiddleware",
    "corefapp.middleware.ServerTimingMiddleware",
    "corefapp.middleware.ContentSecurityPolicyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "corefapp.database_outage.DatabaseUnavailableMiddleware",
    "corefapp.restoring.RestoreGuardMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "corefapp.urls"
ASGI_APPLICATION = "corefapp.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "corefapp" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=DEFAULT_DATABASE_URL),
}
# Under ASGI every request runs in a thread of its own context, so Django's persistent
# connections (CONN_MAX_AGE) would open a new connection per request; a psycopg pool keeps
# them across threads instead (measured: ~8 ms saved per operation).
if env.bool("DB_POOL", default=True):
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env.int("DB_POOL_MIN", default=2),
        "max_size": env.int("DB_POOL_MAX", default=20),
        # Threads never outnumber connections (corefapp/http_handler.py), so a request waits
        # for one only while PostgreSQL is unreachable: then it answers 503 in under 2 s
        # (corefapp/database_outage.py) instead of holding a thread for 20 s.
        "timeout": env.float("DB_POOL_TIMEOUT", default=1.0),
        # After an outage the pool retries a connection at growing intervals (1, 2, 4 s, ...)
        # until this timeout, then gives up and the next request starts a fresh attempt at
        # once: service returns within about this long after PostgreSQL does.
        "reconnect_timeout": env.float("DB_POOL_RECONNECT_TIMEOUT", default=2.0),
    }
    # The pool checks a connection before lending it: after PostgreSQL restarts, every idle
    # pooled connection is dead, and without the check each would fail one request (found by
    # tests/integration/test_database_outage.py). The check is one local round trip; our
    # backend's also replaces every idle connection once one is found dead.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        DATABASES["default"]["ENGINE"] = "corefapp.db_backend"
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default=DEFAULT_REDIS_URL)
# How long the web server waits for Redis (connecting, and each cache or broker reply). A hung
# Redis (a stopped process keeps its sockets open, so nothing is refused) must cost a request
# this much at most, never the client libraries' defaults (redis-py 5 s, kombu forever).
REDIS_TIMEOUT = env.float("REDIS_TIMEOUT", default=1.0)

# channels-redis receives with a server-side blocking pop of 5 s (BZPOPMIN, brpop_timeout), and
# redis-py 8 times reads out after 5 s by default: the client gave up first and every idle
# websocket died after ~5 s (channels_redis#422, redis-py#4091). Reads get three times the pop
# (15 s; tests/integration/test_live_sync.py shortens the pop and checks the ratio holds);
# sends that must not wait that long (broadcasts, /healthz) bound themselves.
CHANNEL_LAYER_SOCKET_TIMEOUT = 3 * RedisChannelLayer.brpop_timeout
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {
            "hosts": [
                {
                    "address": REDIS_URL,
                    "socket_timeout": CHANNEL_LAYER_SOCKET_TIMEOUT,
                    "socket_connect_timeout": REDIS_TIMEOUT,
                }
            ]
        },
    }
}

CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL)
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default=REDIS_URL)
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# The model tasks are sent with their backend's queue (modelserve/queues.py); none is routed
# by name, so a model task sent without one would wait in `default` and be seen there.
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A task not acknowledged within this time is redelivered (that is how a run survives a killed
# worker). A redelivery while the first worker is still busy is harmless: the run's heartbeat
# tells the second worker to leave it alone.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=600),
    # A worker scans for the messages of dead workers every interval x throttle seconds
    # (kombu's 10 x 10 by default); tests with a 3 s visibility timeout scan every second.
    "unacked_restore_interval": env.int("CELERY_UNACKED_RESTORE_SECONDS", default=10),
    "unacked_restore_throttle": env.int("CELERY_UNACKED_RESTORE_THROTTLE", default=10),
    # Workers wait for messages in their event loop (no socket timeout applies there); these
    # bound the synchronous calls: a publish from the web server, a control ping.
    "socket_timeout": max(3.0, REDIS_TIMEOUT),
    "socket_connect_timeout": REDIS_TIMEOUT,
}
# One quick retry: the request that publishes checked the broker a moment before (a run whose
# publish still fails stays queued and the model worker's sweeper sends it later).
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.5,
    "interval_max": 0.5,
}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = REDIS_TIMEOUT
CELERY_REDIS_SOCKET_TIMEOUT = 5.0

# Every password set through the API or the Django admin is checked by these. The demo
# accounts (`make up`, password DEMO_PASSWORD) are the one exception: fixtures/demo/load.py sets
# their password directly. The last entry validates nothing: Django calls its
# `password_changed` whenever a saved user's password changes, and it revokes the user's API
# tokens (sessions are dropped by Django itself: each is signed with a hash of the password).
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 10},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    {"NAME": "accounts.services.sessions.PasswordChangeRevokesTokens"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
FRONTEND_DIST = BASE_DIR / "frontend" / "dist"
STATICFILES_DIRS = [FRONTEND_DIST] if FRONTEND_DIST.exists() else []
# Import uploads, release bundles and trained models: var/ by default, an S3-compatible
# bucket with STORAGE_URL=s3://bucket/prefix (corefapp/storage.py, docs/object-storage.md).
STORAGE_URL = env.str("STORAGE_URL", default="")
STORAGES = {
    "default": default_storage_setting(
        STORAGE_URL,
        # STORAGE_DIR: the folder without STORAGE_URL (the test session's own, tests/conftest.py)
        var_dir=Path(env.str("STORAGE_DIR", default=str(VAR_DIR))),
        endpoint_url=env.str("STORAGE_ENDPOINT_URL", default=""),
        region=env.str("STORAGE_REGION", default=""),
        addressing_style=env.str("STORAGE_ADDRESSING_STYLE", default=""),
    ),
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True

LOGIN_URL = "/login/"

# Single sign-on with OpenID Connect (accounts/oidc.py, docs/single-sign-on.md): on when
# OIDC_CLIENT_ID is set. The provider's endpoints come from OIDC_ISSUER's discovery document
# unless set one by one. Local accounts keep signing in with their passwords.
OIDC_RP_CLIENT_ID = env.str("OIDC_CLIENT_ID", default="")
OIDC_RP_CLIENT_SECRET = env.str("OIDC_CLIENT_SECRET", default="")
OIDC_ISSUER = env.str("OIDC_ISSUER", default="")
OIDC_OP_AUTHORIZATION_ENDPOINT = env.str("OIDC_AUTHORIZATION_ENDPOINT", default="")
OIDC_OP_TOKEN_ENDPOINT = env.str("OIDC_TOKEN_ENDPOINT", default="")
OIDC_OP_USER_ENDPOINT = env.str("OIDC_USERINFO_ENDPOINT", default="")
OIDC_OP_JWKS_ENDPOINT = env.str("OIDC_JWKS_ENDPOINT", default="")
OIDC_RP_SIGN_ALGO = env.str("OIDC_SIGN_ALGO", default="RS256")
OIDC_RP_SCOPES = env.str("OIDC_SCOPES", default="openid email profile")
OIDC_TIMEOUT = env.float("OIDC_TIMEOUT", default=5.0)
OIDC_USE_PKCE = True
# The button's words: "Sign in with <OIDC_PROVIDER_NAME>".
OIDC_PROVIDER_NAME = env.str("OIDC_PROVIDER_NAME", default="single sign-on")
# The claim that lists the user's groups, and group=role pairs (roles: admin, annotator).
OIDC_GROUPS_CLAIM = env.str("OIDC_GROUPS_CLAIM", default="groups")
OIDC_ROLE_MAPPING = env.dict("OIDC_ROLE_MAPPING", default={})
OIDC_USERNAME_CLAIM = env.str("OIDC_USERNAME_CLAIM", default="preferred_username")
OIDC_AUTHENTICATE_CLASS = "accounts.oidc.SignInView"
LOGIN_REDIRECT_URL = "/"
LOGIN_REDIRECT_URL_FAILURE = "/login/?sso=failed"
AUTHENTICATION_BACKENDS = ["django.contrib.auth.backends.ModelBackend"] + (
    ["accounts.oidc.RoleMappingBackend"] if OIDC_RP_CLIENT_ID else []
)
_unknown_roles = sorted(set(OIDC_ROLE_MAPPING.values()) - {"admin", "annotator"})
if _unknown_roles:
    raise ImproperlyConfigured(
        f"OIDC_ROLE_MAPPING gives the role(s) {', '.join(_unknown_roles)}: the roles are admin "
        "and annotator (write group=admin,other-group=annotator)"
    )

# Uploads: an import larger than this is refused before it is read into memory.
MAX_UPLOAD_BYTES = env.int("MAX_UPLOAD_BYTES", default=50 * 1024 * 1024)
FILE_UPLOAD_MAX_MEMORY_SIZE = MAX_UPLOAD_BYTES
# At most this many topics per import (a file, a folder or a zip); every topic also needs at
# least one token. A real corpus fits well within it (the ChEMU-Ref training file: 900).
IMPORT_MAX_TOPICS = env.int("IMPORT_MAX_TOPICS", default=5000)
# Uploads above this size are imported by the general worker, not in the request: the API
# answers 202 with a job to poll (annotation/services/imports/jobs.py).
IMPORT_ASYNC_BYTES = env.int("IMPORT_ASYNC_BYTES", default=1024 * 1024)
# The folder of the default storage where uploads wait for the worker (var/imports locally).
IMPORT_UPLOADS_DIR = "imports"
# Every other request body (JSON, form fields; uploaded files do not count): a larger one is
# answered 413 before it is parsed. The largest legitimate one, a bulk action on 100,000
# assignments, is under 1 MB.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("MAX_REQUEST_BYTES", default=10 * 1024 * 1024)

SESSION_COOKIE_HTTPONLY = True
# Sessions live in PostgreSQL only: signing in and every browser request keep working while
# Redis is down or hung. (cached_db read Redis first and failed the request with it; a
# cached_db that swallowed cache errors could bring a signed-out session back from a stale
# cache entry once Redis returns.) The cost is one primary-key read per request (~0.2 ms).
SESSION_ENGINE = "django.contrib.sessions.backends.db"
CSRF_COOKIE_HTTPONLY = False  # the frontend reads it to send X-CSRFToken

# Failed sign-ins (API and /admin/login/) allowed per account and per client address in the
# period; successful ones never count (accounts/api/throttles.py).
LOGIN_THROTTLE_RATE = env.str("LOGIN_THROTTLE_RATE", default="20/min")
# The higher ceiling per address (a lab behind NAT), the failures that put an account under
# attack (then: a delay for addresses that have not failed on it, a refusal for the others),
# (accounts/api/sign_in_limits.py), and the threads of sign-ins (corefapp/sign_in_pool.py).
LOGIN_ADDRESS_THROTTLE_RATE = env.str("LOGIN_ADDRESS_THROTTLE_RATE", default="200/min")
LOGIN_ACCOUNT_THROTTLE_RATE = env.str("LOGIN_ACCOUNT_THROTTLE_RATE", default="20/min")
LOGIN_ACCOUNT_DELAY_SECONDS = env.float("LOGIN_ACCOUNT_DELAY_SECONDS", default=3.0)
SIGN_IN_HASHING_THREADS = env.int("SIGN_IN_HASHING_THREADS", default=1)
SIGN_IN_QUEUE = env.int("SIGN_IN_QUEUE", default=32)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": [
        # A 400 for JSON nested deeper than annotation.api.parsers.MAX_DEPTH, and for text
        # PostgreSQL cannot store (a NUL, a lone surrogate) in any body.
        "annotation.api.parsers.JSONParser",
        "annotation.api.parsers.FormParser",
        "annotation.api.parsers.MultiPartParser",
    ],
    # Every operation lists its refusals, from the status table (foundation/api/schema.py).
    "DEFAULT_SCHEMA_CLASS": "foundation.api.schema.ErrorsAutoSchema",
    "EXCEPTION_HANDLER": "foundation.api.errors.exception_handler",
    # `?format=` is ours (agreement CSV, export formats), not DRF's renderer override.
    "URL_FORMAT_OVERRIDE": None,
    # DRF's throttles read the client address as accounts.api.throttles does.
    "NUM_PROXIES": TRUSTED_PROXIES,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "corefapp API",
    "DESCRIPTION": "Hierarchical cross-document coreference and anaphora annotation.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "foundation.api.schema.open_error_bodies",
    ],
    # Named after their registries (the topic import's format is ImportRequestFormatEnum).
    "ENUM_NAME_OVERRIDES": {
        "CorpusFormatEnum": "corpus.reading.CORPUS_FORMATS",
        "TaxonomyFormatEnum": "corpus.reading.taxonomies.TAXONOMY_FORMATS",
    },
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

CACHES = {
    "default": {
        # A Redis outage reads as an empty cache (nothing cached is the only copy).
        "BACKEND": "corefapp.cache.FailSoftRedisCache",
        "LOCATION": REDIS_URL,
        "OPTIONS": {"socket_timeout": REDIS_TIMEOUT, "socket_connect_timeout": REDIS_TIMEOUT},
    }
}

# Model serving: packaged encoder by default, a local Hugging Face folder otherwise.
# With STORAGE_URL, trained models live in the bucket (models/<name>/) and MODELS_DIR is only
# each worker's local copy of them (MODEL_CACHE_DIR, default var/model-cache): a worker
# downloads a model there before it loads it (modelserve/model_store.py).
MODELS_DIR = (
    Path(env.str("MODEL_CACHE_DIR", default=str(VAR_DIR / "model-cache"))).resolve()
    if STORAGE_URL
    else models_dir()
)
# The shared real data (../shared/data beside the checkout; COREFAPP_SHARED_DATA elsewhere) and
# the ChEMU-Ref training file the default anaphora models train from (`make up`, the model
# worker's tagger training, `python -m modelserve.train --backend chemu` without a file).
SHARED_DATA_DIR = Path(
    env.str("COREFAPP_SHARED_DATA", default=str(BASE_DIR.parent / "shared" / "data"))
)
CHEMU_TRAIN_FILE = Path(
    env.str(
        "CHEMU_TRAIN_FILE",
        default=str(SHARED_DATA_DIR / "chemu-ref" / "train.english.jsonlines"),
    )
)
# Suggestion parameters that name a file or folder (model_path, model_dir, encoder_path, any
# *_path or *_dir) must resolve (symlinks and `..` followed) inside MODELS_DIR or one of these
# folders (comma-separated); anything else is refused when an admin sets it.
MODEL_PATHS_ALLOWED = [
    Path(folder).expanduser().resolve()
    for folder in env.list("MODEL_PATHS_ALLOWED", default=[])
    if folder.strip()
]
SUGGEST_DEVICE = env.str("SUGGEST_DEVICE", default="auto")
# Each per-process model cache (backends, encoders, cross-encoders, ChEMU models...) keeps at
# most this many models and this many MB of their weights, least recently used evicted first;
# the packaged MiniLM stays loaded beside them (modelserve/loaded_models.py, docs/models.md).
MODEL_CACHE_ENTRIES = env.int("MODEL_CACHE_ENTRIES", default=4)
MODEL_CACHE_MB = env.int("MODEL_CACHE_MB", default=1024)
# A run whose worker has not refreshed its heartbeat for this long is taken over by the next
# worker that receives the (redelivered) task.
SUGGEST_HEARTBEAT_STALE_SECONDS = env.int("SUGGEST_HEARTBEAT_STALE_SECONDS", default=30)
# A job whose worker died this many times is failed rather than claimed again (docs/jobs.md).
JOB_MAX_ATTEMPTS = env.int("JOB_MAX_ATTEMPTS", default=3)
# Learning in the loop (docs/learning.md): a project that learns retrains after this many new
# submissions, or once the oldest new one has waited this long; the share of topics held out
# (by a stable hash of the topic id); the fewest training topics; epochs (0: the backend's
# default) and the ChEMU mention tagger's epochs (0: the project keeps the shared tagger).
LEARN_EVERY_SUBMISSIONS = env.int("LEARN_EVERY_SUBMISSIONS", default=5)
LEARN_WAIT_SECONDS = env.int("LEARN_WAIT_SECONDS", default=600)
LEARN_HOLDOUT_PERCENT = env.int("LEARN_HOLDOUT_PERCENT", default=20)
LEARN_MIN_TOPICS = env.int("LEARN_MIN_TOPICS", default=2)
# A learnt version serves on its own only when judged on at least this many held-out topics
# (docs/learning.md: the spread of a per-topic score over fewer topics hides a worse model).
LEARN_MIN_HELDOUT_TOPICS = env.int("LEARN_MIN_HELDOUT_TOPICS", default=10)
LEARN_EPOCHS = env.int("LEARN_EPOCHS", default=0)
# 0: a ChEMU retraining keeps the shared tagger (on held-out splits a tagger retrained within
# the loop's time lost 0.02 relation F1 to it; docs/learning.md); N: the tagger retrains too,
# at most N epochs and at most LEARN_MENTION_BUDGET document passes (epochs x snippets), so
# that a retraining stays under 3 minutes on 2 cores as the project grows.
LEARN_MENTION_EPOCHS = env.int("LEARN_MENTION_EPOCHS", default=0)
LEARN_MENTION_BUDGET = env.int("LEARN_MENTION_BUDGET", default=6000)
# A ChEMU retraining starts from the default model's snippets (CHEMU_TRAIN_FILE) beside the
# project's own work counted LEARN_TEAM_WEIGHT times (docs/learning.md; bench/learning.py's (c)).
LEARN_CHEMU_BASE = env.bool("LEARN_CHEMU_BASE", default=True)
LEARN_TEAM_WEIGHT = env.int("LEARN_TEAM_WEIGHT", default=2)

DEMO_PASSWORD = env.str("DEMO_PASSWORD", default="demo")

# LOG_FORMAT=json writes one JSON object per line (corefapp/metrics/json_logs.py).
LOG_FORMAT = env.str("LOG_FORMAT", default="text")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "corefapp.metrics.json_logs.JsonLinesFormatter"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler"}
        | ({"formatter": "json"} if LOG_FORMAT == "json" else {})
    },
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
}

# GET /metrics answers admins and a scraper sending `Authorization: Bearer <METRICS_TOKEN>`.
METRICS_TOKEN = env.str("METRICS_TOKEN", default="")
