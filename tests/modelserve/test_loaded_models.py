"""The bounded model caches (modelserve/loaded_models.py): count and byte bounds, least
recently used first, an entry bigger than the bound, the pinned packaged encoder, threads."""

from __future__ import annotations

import threading
import time

import pytest
import torch

from modelserve.loaded_models import Limits, LoadedModels, configure, model_bytes

FLOAT = 4  # bytes


def linear(inputs: int, outputs: int) -> torch.nn.Module:
    return torch.nn.Linear(inputs, outputs)


def cache(entries: int = 100, max_bytes: int = 10**12, **kwargs) -> LoadedModels:
    return LoadedModels("test", limits=Limits(entries, max_bytes), **kwargs)


class Loads:
    """A loader per key that counts how often each key was loaded."""

    def __init__(self, make=lambda key: key) -> None:
        self.count: dict[object, int] = {}
        self.make = make

    def __call__(self, key):
        def load():
            self.count[key] = self.count.get(key, 0) + 1
            return self.make(key)

        return load


def test_a_module_weighs_its_parameters_and_buffers_and_a_shared_tensor_counts_once():
    net = torch.nn.Sequential(linear(10, 20), torch.nn.BatchNorm1d(20))
    own = (10 * 20 + 20) + (20 + 20) + (20 + 20)  # linear; norm weight, bias; running stats
    assert model_bytes(net) == own * FLOAT + 8  # num_batches_tracked: one int64

    tied = linear(8, 8)
    holder = {"a": tied, "b": [tied, tied.weight], "c": torch.zeros(3)}
    assert model_bytes(holder) == (64 + 8 + 3) * FLOAT


def test_the_count_bound_evicts_the_least_recently_used():
    loads = Loads()
    models = cache(entries=2)
    for key in ("a", "b", "c"):
        models.get(key, loads(key))

    assert models.keys() == ["b", "c"]
    models.get("a", loads("a"))
    assert loads.count == {"a": 2, "b": 1, "c": 1}
    assert models.keys() == ["c", "a"]


def test_a_hit_makes_an_entry_the_most_recently_used():
    loads = Loads()
    models = cache(entries=2)
    models.get("a", loads("a"))
    models.get("b", loads("b"))
    models.get("a", loads("a"))  # a hit: b is now the least recently used
    models.get("c", loads("c"))

    assert models.keys() == ["a", "c"]
    assert loads.count == {"a": 1, "b": 1, "c": 1}


def test_the_byte_bound_evicts_until_the_models_fit():
    size = model_bytes(linear(100, 100))
    loads = Loads(lambda key: linear(100, 100))
    models = cache(max_bytes=int(2.5 * size))
    for key in ("a", "b", "c", "d"):
        models.get(key, loads(key))

    assert models.keys() == ["c", "d"]
    assert models.held_bytes == 2 * size


def test_an_entry_bigger_than_the_byte_bound_is_kept_alone_until_the_next_one():
    small = model_bytes(linear(10, 10))
    sizes = {"small": (10, 10), "other": (10, 10), "big": (200, 200)}
    loads = Loads(lambda key: linear(*sizes[key]))
    models = cache(max_bytes=3 * small)
    models.get("small", loads("small"))
    models.get("other", loads("other"))

    big = models.get("big", loads("big"))
    assert models.keys() == ["big"]
    assert models.get("big", loads("big")) is big  # kept: not loaded again
    assert loads.count["big"] == 1

    models.get("small", loads("small"))
    assert models.keys() == ["small"]


def test_a_pinned_entry_is_never_evicted_counts_toward_no_bound_and_in_no_other_weight():
    base = linear(50, 50)
    loads = Loads(lambda key: base if key == "base" else linear(5, 5))
    models = cache(entries=1, pinned=lambda key: key == "base")
    models.get("base", loads("base"))
    for key in ("v1", "v2", "v3"):
        models.get(key, loads(key))

    assert models.pinned_keys() == ["base"]
    assert models.keys() == ["v3"]
    assert models.get("base", loads("base")) is base
    assert loads.count["base"] == 1

    class Backend:  # a backend that uses the pinned model beside a head of its own
        def __init__(self) -> None:
            self.encoder = base
            self.head = linear(5, 5)

    assert model_bytes(Backend()) == model_bytes(linear(5, 5))
    models.clear()
    assert model_bytes(Backend()) == model_bytes(base) + model_bytes(linear(5, 5))


def test_configure_evicts_every_cache_down_to_the_new_bounds():
    from modelserve.loaded_models import LIMITS

    before = (LIMITS.entries, LIMITS.max_bytes)
    # the process-wide limits, as the app's caches
    models: LoadedModels[int, torch.nn.Module] = LoadedModels("test")
    try:
        configure(entries=3, max_bytes=10**12)
        for key in range(3):
            models.get(key, lambda: linear(2, 2))
        configure(entries=1, max_bytes=10**12)
        assert models.keys() == [2]
        with pytest.raises(ValueError, match="room for one model"):
            configure(entries=0, max_bytes=10**12)
    finally:
        configure(entries=before[0], max_bytes=before[1])


def test_threads_asking_for_one_model_at_once_load_it_once():
    def slow(key):  # a load that takes a while, so the other threads ask meanwhile
        time.sleep(0.05)
        return linear(3, 3)

    loads = Loads(slow)
    models = cache()
    got: list[object] = []
    threads = [
        threading.Thread(target=lambda: got.append(models.get("a", loads("a")))) for _ in range(6)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)

    assert loads.count == {"a": 1}
    assert len(got) == 6
    assert all(model is got[0] for model in got)


def test_the_packaged_encoder_is_pinned_in_the_encoder_cache():
    from modelserve import encoders

    loaded = encoders.load_encoder(None, "cpu")

    assert (loaded.path, "cpu") in encoders._LOADED.pinned_keys()
    assert encoders.load_encoder(None, "cpu") is loaded
