"""A query's vector for query by example, encoded on a model worker while the request waits
(the web process never loads a model: docs/corpus.md, "Query by example").

Only a query the corpus does not hold comes here: a topic mention that is a corpus mention
reads its stored vector instead (corpus/query_selectors.py). The request sends one small task
(one sentence) to the default model queue and waits for its answer through the result
backend, at most QUERY_WAIT_SECONDS; the vector is cached by what was encoded, so the same
mention or text asked again (the panel reopened, a colleague's query) costs no worker."""

from __future__ import annotations

import hashlib
import json

from celery import current_app
from celery.exceptions import TimeoutError as CeleryTimeout
from django.conf import settings
from django.core.cache import cache
from kombu.exceptions import OperationalError
from redis.exceptions import RedisError

from annotation.errors import ServiceUnavailable
from corefscore.corpus import DocumentData, MentionData, TopicData
from modelserve.backends import DEFAULT_BACKEND
from modelserve.queues import backend_queue

QUERY_TASK = "modelserve.encode_query"
# A model loaded and idle encodes one sentence in ~10-30 ms on a CPU; the rest is a worker
# busy with a chunk (512 mentions: seconds) or loading its model once.
QUERY_WAIT_SECONDS = 8.0
CACHE_SECONDS = 7 * 24 * 3600


def query_vector(
    *, encoder: str, context: str, words: list[str], spans: list[list[int]], what: str
):
    """The unit vector of the words at `spans` in `words` (one sentence, or the free text
        itself with context "none"), as the corpus's encoder makes them. `what`: the query in the
    annotator's words, for a refusal."""
    key = (
        "corpus-query:"
        + hashlib.sha256(json.dumps([encoder, context, words, spans]).encode()).hexdigest()
    )
    cached = cache.get(key)
    if cached is not None:
        return cached
    kwargs = {"encoder": encoder, "context": context, "words": words, "spans": spans}
    try:
        result = current_app.send_task(
            QUERY_TASK,
            kwargs=kwargs,
            queue=backend_queue(DEFAULT_BACKEND),
            # a query nobody waits for any more is not worth a worker's time
            expires=QUERY_WAIT_SECONDS,
        )
        vector = result.get(timeout=QUERY_WAIT_SECONDS)
        result.forget()
    except CeleryTimeout:
        raise ServiceUnavailable(
            f'No model worker encoded "{what[:80]}" within '
            f"{QUERY_WAIT_SECONDS:g} s (they may all be busy encoding the corpus); "
            "ask again in a moment."
        ) from None
    except (OperationalError, RedisError, OSError):
        raise ServiceUnavailable("The task queue does not answer; ask again in a moment.") from None
    cache.set(key, vector, CACHE_SECONDS)
    return vector


def encode_query_execute(
    *, encoder: str, context: str, words: list[str], spans: list[list[int]]
) -> list[float]:
    """The task's body, on a model worker: the encoder the corpus's encoding used, kept
    loaded by the worker (modelserve/encoders.py)."""
    from modelserve.encoders import MentionEncoder

    topic = TopicData(external_id="query")
    topic.documents.append(DocumentData("query", list(words), [(0, len(words))]))
    topic.mentions.append(MentionData(0, tuple((int(s), int(e)) for s, e in spans)))
    model = MentionEncoder(encoder, device=settings.SUGGEST_DEVICE, context=context)
    return [float(x) for x in model.embed(topic)[0]]
