"""The command lines of the application's processes, defined once.

`make up` (corefapp.runtime.up) runs them as child processes; docker-compose.yml and
deploy/kubernetes run the same ones in containers of the image
(tests/corefapp/runtime/test_compose.py and test_kubernetes.py check the files name these
lists, and tests/integration/test_image.py runs each of them from the built image).
"""

from modelserve.queues import backend_queue, model_queues

WEB_PORT_DEFAULT = 8000


def prepare_command() -> list[str]:
    """Migrations, demo data on first start, and the default models: idempotent."""
    return ["python", "-m", "corefapp.runtime.prepare"]


def web_command(*, host: str, port: int) -> list[str]:
    """WEB_CONCURRENCY Daphne workers on one port, restarted when they exit
    (corefapp.runtime.web)."""
    return ["python", "-m", "corefapp.runtime.web", "-b", host, "-p", str(port)]


def daphne_command(*, fd: int | None = None, host: str = "", port: int = 0) -> list[str]:
    """One web worker, on an inherited listening socket (`fd`) or binding host:port itself.

    Daphne pings every websocket every 20 s and drops one silent for 30 s (a vanished
    client); an idle but live socket stays open for a day, as long as Channels keeps its group
    membership (group_expiry), after which the browser reconnects and resynchronises."""
    where = ["--fd", str(fd)] if fd is not None else ["-b", host, "-p", str(port)]
    return [
        "daphne",
        *where,
        "--ping-interval",
        "20",
        "--ping-timeout",
        "30",
        "--websocket_timeout",
        "86400",
        "corefapp.asgi:application",
    ]


def worker_command() -> list[str]:
    """The general worker: short tasks (imports, agreement reports, broadcasts)."""
    return [
        "celery",
        "-A",
        "corefapp",
        "worker",
        "-Q",
        "default",
        "-n",
        "default@%h",
        "--concurrency",
        "2",
        "--loglevel",
        "INFO",
    ]


def model_worker_command(backends: list[str] | None = None, name: str = "models") -> list[str]:
    """A model worker: one process per device, so each loads its model once. It consumes the
    queues of `backends`, by default every model's (`make up`'s one model worker)."""
    queues = model_queues() if backends is None else [backend_queue(b) for b in backends]
    return [
        "celery",
        "-A",
        "corefapp",
        "worker",
        "-Q",
        ",".join(queues),
        "-n",
        f"{name}@%h",
        "--concurrency",
        "1",
        "--loglevel",
        "INFO",
    ]


# What every application process needs to find its servers; make up sets these for its
# children and docker-compose sets them for every application service.
REQUIRED_ENV = ("DATABASE_URL", "REDIS_URL", "SECRET_KEY")


def migrations_applied_command() -> list[str]:
    """Waits until `migrate --check` finds nothing left to apply: what a Kubernetes web pod
    runs before the web command, while the migrations Job (prepare_command) works."""
    script = (
        "until python manage.py migrate --check >/dev/null; "
        "do echo waiting for the migrate Job; sleep 5; done"
    )
    return ["sh", "-c", script]


def backup_command(folder: str = "/backups") -> list[str]:
    """One backup into `folder`, keeping the newest BACKUP_KEEP (7): the backup CronJob's."""
    backup = f'python manage.py backup "{folder}/corefapp-$(date -u +%Y%m%dT%H%M%SZ).tar.gz"'
    prune = (
        f'ls -1 {folder}/corefapp-*.tar.gz | sort | head -n -"${{BACKUP_KEEP:-7}}" | xargs -r rm --'
    )
    return ["sh", "-c", f"{backup} && {prune}"]
