"""Ports for the servers that tests and benchmarks start themselves."""

import socket


def free_port() -> int:
    """A port the OS considers free right now (the server started on it binds it soon after)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
