"""What the page sent: a negative check ("nothing was submitted") made explicit.

A check that sleeps and then finds nothing passes on a slow machine whether or not the
request would have come. Instead a test records the page's requests, does something after
the keys under test whose effect it can wait for (the browser handles keys in order, and a
request a key starts is sent before the next key is handled), and then asserts that no
request of the kind was sent.
"""

from __future__ import annotations

from playwright.sync_api import Page


def requests_to(page: Page, fragment: str) -> list[str]:
    """A live list of 'METHOD url' for every request the page sends whose url has `fragment`."""
    seen: list[str] = []

    def record(request) -> None:
        if fragment in request.url:
            seen.append(f"{request.method} {request.url}")

    page.on("request", record)
    return seen
