"""Checks that turn a confusing failure later into a one-line message now."""

import socket


class PreflightError(RuntimeError):
    pass


def port_is_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host if host != "localhost" else "127.0.0.1", port))
        except OSError:
            return False
    return True


def require_free_port(host: str, port: int, *, what: str, variable: str) -> None:
    if not port_is_free(host, port):
        raise PreflightError(
            f"port {port} ({what}) is busy: stop the program using it, or choose another "
            f"port with {variable}=<port> make up"
        )
