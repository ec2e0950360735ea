"""The sign-in queue (corefapp/sign_in_pool.py): once SIGN_IN_QUEUE sign-ins wait or hash, the
next is answered at once with a JSON 503 that says when to try again (Retry-After), which the
sign-in page waits before it sends the sign-in again (tests/e2e/test_sign_in_retry.py)."""

from __future__ import annotations

import asyncio
import json
import threading

from corefapp.sign_in_pool import RETRY_AFTER_SECONDS, SignInPool


def test_a_sign_in_past_the_queue_is_told_when_to_try_again(settings):
    settings.SIGN_IN_QUEUE = 1
    settings.SIGN_IN_HASHING_THREADS = 1
    release = threading.Event()

    async def scenario():
        pool = SignInPool()
        # The one place in the queue: a sign-in whose hashing has not ended.
        first = asyncio.ensure_future(pool.run(release.wait, 30))
        await asyncio.sleep(0)  # one step of the loop: it has taken its place
        refused = await pool.run(lambda: "not hashed")
        release.set()
        return refused, await first, await pool.run(lambda: "hashed")

    refused, first, after = asyncio.run(scenario())

    assert refused.status_code == 503
    assert refused["Content-Type"] == "application/json"
    assert refused["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert json.loads(refused.content)["error"] == "sign_in_busy"
    assert (first, after) == (True, "hashed")  # the queue empties: the next one is served
