"""The models a process keeps loaded, bounded by count and by bytes (least recently used first).

Each loader (the backends registry, the encoders, the cross-encoder, entailment, the ChEMU link
model and the mention tagger) keeps what it loaded in one `LoadedModels`, keyed by the folder
and device (and, for the trained ChEMU models, the config file's time, so a retrained model is
loaded again). Without a bound a model worker kept every learnt version it had ever served;
now each cache holds at most `entries` models and `max_bytes` of them (`configure`: the app
sets both from MODEL_CACHE_ENTRIES and MODEL_CACHE_MB, docs/models.md), and evicts the least
recently used. Not functools.lru_cache: it bounds by count only, cannot weigh an entry, and
cannot keep one out of the count (the packaged encoder, `pinned`).

What a torch model weighs is the bytes of its parameters and buffers (a tensor reached more
than once counts once); anything else is walked a few attributes deep for the models, tensors
and arrays it holds (a backend: the models it uses). Tokenizers and small Python objects are
not counted: a few MB at most beside the weights. An entry that is pinned (`pinned(key)`) is
never evicted and counts toward no bound, and its weights count in no other entry (a backend
that uses the packaged MiniLM weighs only its own head).

An entry bigger than the byte bound alone is still kept, alone: its caller holds it anyway, and
not keeping it would load it again at every run. Memory returns to the system when no one else
holds the evicted model (a run in progress finishes with the one it has).

Pure: no Django (the model code is a library), and torch only when an entry is weighed (the web
process imports this module). A lock per cache, held while a model loads, so threads of one
worker (runs beside a training, modelserve/tasks.py) load a model once.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import numpy as np

if TYPE_CHECKING:
    import torch

logger = logging.getLogger(__name__)

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

MB = 2**20
# Defaults for a 2-core, 24 GB lab machine serving MiniLM-sized models (docs/models.md): four
# learnt versions of a kind stay warm (the serving versions of four learning projects), and 1
# GiB holds four MiniLM-sized cross-encoders (87 MB of weights each) with room for two
# base-sized ones (SciBERT, Longformer: 440-600 MB), so a worker stays within a few GB.
DEFAULT_ENTRIES = 4
DEFAULT_BYTES = 1024 * MB
_DEPTH = 4  # how many attributes deep a value is walked for what it holds


@dataclasses.dataclass
class Limits:
    entries: int = DEFAULT_ENTRIES
    max_bytes: int = DEFAULT_BYTES


LIMITS = Limits()
_CACHES: weakref.WeakSet[LoadedModels[Any, Any]] = weakref.WeakSet()
# ids of pinned values: never evicted, so an id here cannot be reused by another object
_PINNED_IDS: set[int] = set()


def configure(*, entries: int, max_bytes: int) -> None:
    """Set every cache's bounds (the app: from settings, at start) and evict down to them."""
    if entries < 1 or max_bytes < 1:
        raise ValueError(f"model caches need room for one model, not {entries} / {max_bytes} B")
    LIMITS.entries, LIMITS.max_bytes = int(entries), int(max_bytes)
    for cache in list(_CACHES):
        cache.evict()


def model_bytes(value: object) -> int:
    """The bytes of the tensors, arrays and torch modules `value` holds, pinned ones excepted."""
    import torch  # here: the web process imports this module (the app sets the bounds) and
    # must not import torch (tests/corefapp/test_startup_imports.py)

    seen: set[int] = set()
    storages: set[tuple[int, int]] = set()

    def tensor(t: torch.Tensor) -> int:
        place = (t.untyped_storage().data_ptr(), t.untyped_storage().nbytes())
        if place in storages:
            return 0
        storages.add(place)
        return int(t.untyped_storage().nbytes())

    def walk(item: object, depth: int) -> int:
        if id(item) in seen or id(item) in _PINNED_IDS or depth > _DEPTH:
            return 0
        seen.add(id(item))
        if isinstance(item, torch.nn.Module):
            return sum(tensor(t) for t in (*item.parameters(), *item.buffers()))
        if isinstance(item, torch.Tensor):
            return tensor(item)
        if isinstance(item, np.ndarray):
            return int(item.nbytes)
        if isinstance(item, str | bytes | int | float | bool | type(None)):
            return 0
        if isinstance(item, dict):
            return sum(walk(v, depth + 1) for v in item.values())
        if isinstance(item, list | tuple | set | frozenset):
            return sum(walk(v, depth + 1) for v in item)
        attributes = getattr(item, "__dict__", None)
        if isinstance(attributes, dict):
            return sum(walk(v, depth + 1) for v in attributes.values())
        return 0

    return walk(value, 0)


class LoadedModels(Generic[K, V]):
    """One loader's models, least recently used first; `get` loads on a miss."""

    def __init__(
        self,
        name: str,
        *,
        weigh: Callable[[V], int] = model_bytes,
        pinned: Callable[[K], bool] = lambda key: False,
        limits: Limits = LIMITS,
    ) -> None:
        self.name = name
        self._weigh = weigh
        self._pinned = pinned
        self._limits = limits
        self._entries: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._kept: dict[K, V] = {}  # pinned: out of the order and the bounds
        # re-entrant: a loader may ask another key of its own cache (a backend built inside
        # another backend's construction)
        self._lock = threading.RLock()
        _CACHES.add(self)

    def get(self, key: K, load: Callable[[], V]) -> V:
        with self._lock:
            if key in self._kept:
                return self._kept[key]
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key][0]
            pinned = self._pinned(key)
            if not pinned:
                self._evict(room=1)  # before loading: one model fewer held at the peak
            value = load()
            if pinned:
                self._kept[key] = value
                _PINNED_IDS.add(id(value))
                logger.info("%s: loaded %s (kept for the process)", self.name, key)
                return value
            size = self._weigh(value)
            self._entries[key] = (value, size)
            self.evict()
            logger.info(
                "%s: loaded %s (%.1f MB); %d held, %.1f MB",
                self.name,
                key,
                size / MB,
                len(self._entries),
                self.held_bytes / MB,
            )
            return value

    def evict(self) -> None:
        """Drop the least recently used until within both bounds, keeping the newest."""
        self._evict(room=0)

    def _evict(self, *, room: int) -> None:
        """Drop the least recently used until within both bounds with `room` entries to spare
        (the newest kept when none is to be spared: an entry bigger than the bound stays)."""
        with self._lock:
            while len(self._entries) > 1 - room and (
                len(self._entries) > self._limits.entries - room
                or self.held_bytes > self._limits.max_bytes
            ):
                key, (_, size) = self._entries.popitem(last=False)
                logger.info(
                    "%s: evicted %s (%.1f MB); %d held, %.1f MB",
                    self.name,
                    key,
                    size / MB,
                    len(self._entries),
                    self.held_bytes / MB,
                )

    @property
    def held_bytes(self) -> int:
        return sum(size for _, size in self._entries.values())

    def keys(self) -> list[K]:
        """Least recently used first; pinned keys aside."""
        with self._lock:
            return list(self._entries)

    def pinned_keys(self) -> list[K]:
        with self._lock:
            return list(self._kept)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries or key in self._kept

    def clear(self) -> None:
        with self._lock:
            for value in self._kept.values():
                _PINNED_IDS.discard(id(value))
            self._entries.clear()
            self._kept.clear()
