"""The per-process memo of the hot path's two questions: kept TTL seconds, then asked again."""

from onboarding.memo import TTL, memo, memo_forget


def test_an_answer_is_kept_for_ttl_seconds_then_computed_again():
    memo_forget()
    calls = []
    clock = [100.0]

    def ask():
        calls.append(1)
        return len(calls)

    first = memo("kind", 1, ask, now=lambda: clock[0])
    clock[0] += TTL - 0.1
    kept = memo("kind", 1, ask, now=lambda: clock[0])
    clock[0] += 0.2
    fresh = memo("kind", 1, ask, now=lambda: clock[0])

    assert (first, kept, fresh) == (1, 1, 2)


def test_forgetting_asks_again_at_once():
    memo_forget()
    answers = iter([False, True])
    assert memo("requires", 7, lambda: next(answers)) is False
    memo_forget()
    assert memo("requires", 7, lambda: next(answers)) is True
