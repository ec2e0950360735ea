"""Sign-in limits: who may try a password, how often, and on which thread.

Three counters of *failed* sign-ins, in Redis, each a fixed window of the rate's period:
- per (account, address), LOGIN_THROTTLE_RATE (20/min): one person mistyping, or one address
  guessing one account, is refused (429) until the window ends, and nobody else is;
- per address, LOGIN_ADDRESS_THROTTLE_RATE (200/min): a higher ceiling, so a lab behind one
  NAT address, where several people mistype, is not locked out, while one address guessing
  many accounts still stops;
- per account, LOGIN_ACCOUNT_THROTTLE_RATE (20/min): past it the account is *under attack*.
  It is not locked: an address that has not failed on it in the window (its owner, at their
  desk) still signs in, after a delay of LOGIN_ACCOUNT_DELAY_SECONDS (3 s); an address that
  has failed on it is refused until the window ends. An attacker thus gets one guess per
  address per window, each costing the delay, and the owner keeps their way in. (A delay
  rather than a second factor: the product has no second factor to ask for.)

Counting is atomic: an attempt *reserves* its slot (Redis INCR, in one MULTI with the key's
expiry) before the password is checked, and gives it back if the password was right (a
successful sign-in never counts). Concurrent guesses therefore cannot pass a limit: the
21st INCR reads 21 whatever the timing.

Password hashing (PBKDF2, deliberately slow) for these anonymous requests runs in a bounded
pool of threads of its own (corefapp/sign_in_pool.py), so a flood cannot take the threads of
signed-in users. While Redis is down nothing is counted (the cache's fail-soft rule).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

import redis
from django.conf import settings
from django.core.cache import cache
from rest_framework.exceptions import Throttled

T = TypeVar("T")
_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """`"20/min"` -> (20, 60): attempts, and the period in seconds (s, m, h or d first)."""
    count, period = rate.split("/")
    return int(count), _PERIODS[period.strip()[0]]


class SignInRefused(Exception):
    """Refused before the password is checked; `wait` seconds until the window ends."""

    def __init__(self, wait: float) -> None:
        super().__init__(wait)
        self.wait = wait

    @property
    def message(self) -> str:
        return f"Too many failed sign-ins; try again in {int(self.wait) + 1} seconds."


# ------------------------------------------------------------------ counting


def _client() -> redis.Redis | None:
    try:
        return cache._cache.get_client(write=True)  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - no Redis: nothing is counted (fail soft)
        return None


def _hashed(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


# One script, so the decision and the increments are one atomic step in Redis: guesses sent
# at once are decided one after the other, and a refused one never touches a counter.
# KEYS: pair, address, account; ARGV: their limits, then their periods (seconds).
_TAKE = """
local pair = tonumber(redis.call('GET', KEYS[1]) or '0')
local address = tonumber(redis.call('GET', KEYS[2]) or '0')
local account = tonumber(redis.call('GET', KEYS[3]) or '0')
local function wait(key)
  local ttl = redis.call('TTL', key)
  if ttl < 1 then return 1 end
  return ttl
end
if pair >= tonumber(ARGV[1]) then return {'refused', wait(KEYS[1])} end
if address >= tonumber(ARGV[2]) then return {'refused', wait(KEYS[2])} end
local verdict = 'allowed'
if account >= tonumber(ARGV[3]) then
  if pair > 0 then return {'refused', wait(KEYS[1])} end
  verdict = 'delayed'
end
for i = 1, 3 do
  if redis.call('INCR', KEYS[i]) == 1 then redis.call('EXPIRE', KEYS[i], ARGV[3 + i]) end
end
return {verdict, 0}
"""

# A counter that expired meanwhile is left alone (a DECR would make it -1, without expiry).
_GIVE_BACK = """
for i = 1, #KEYS do
  if tonumber(redis.call('GET', KEYS[i]) or '0') > 0 then redis.call('DECR', KEYS[i]) end
end
return 0
"""


@dataclass
class _Counter:
    key: str
    limit: int
    period: int


class Reservation:
    """The slots one attempt holds in its counters until it is known to have failed."""

    def __init__(self, *, username: str, address: str) -> None:
        pair, pair_period = parse_rate(settings.LOGIN_THROTTLE_RATE)
        per_address, address_period = parse_rate(settings.LOGIN_ADDRESS_THROTTLE_RATE)
        per_account, account_period = parse_rate(settings.LOGIN_ACCOUNT_THROTTLE_RATE)
        account = _hashed(username)
        self.pair = _Counter(f"sign-in:pair:{account}:{_hashed(address)}", pair, pair_period)
        self.address = _Counter(f"sign-in:address:{_hashed(address)}", per_address, address_period)
        self.account = _Counter(f"sign-in:account:{account}", per_account, account_period)
        self.held: list[_Counter] = []
        self.delay = 0.0

    def take(self) -> None:
        """Reserve a slot in each counter, or raise SignInRefused (holding nothing)."""
        client = _client()
        if client is None:
            return
        counters = (self.pair, self.address, self.account)
        try:
            verdict, wait = client.eval(
                _TAKE,
                3,
                *(c.key for c in counters),
                *(c.limit for c in counters),
                *(c.period for c in counters),
            )
        except redis.RedisError:
            return  # Redis away: nothing is counted
        if verdict == b"refused" or verdict == "refused":
            raise SignInRefused(float(max(int(wait), 1)))
        self.held = list(counters)
        if verdict in (b"delayed", "delayed"):
            self.delay = settings.LOGIN_ACCOUNT_DELAY_SECONDS

    def give_back(self) -> None:
        """The attempt succeeded, or never checked a password: it does not count."""
        client = _client()
        held, self.held = self.held, []
        if client is None or not held:
            return
        try:
            client.eval(_GIVE_BACK, len(held), *(c.key for c in held))
        except redis.RedisError:
            return


# ------------------------------------------------------------------ one attempt


@contextmanager
def limited_attempt(*, username: str, address: str) -> Iterator[Reservation]:
    """Reserve the attempt's slots (or raise SignInRefused) and wait the delay of an account
    under attack; the caller checks the password and gives the slots back unless it was
    wrong."""
    reservation = Reservation(username=username, address=address)
    reservation.take()
    if reservation.delay:
        time.sleep(reservation.delay)
    yield reservation


def api_sign_in(address: str, username: str, check: Callable[[], T], wrong: type[Exception]) -> T:
    """An API sign-in from `address`: `check` raises `wrong` for wrong credentials. A refusal
    is DRF's 429."""
    try:
        with limited_attempt(username=username, address=address) as reservation:
            try:
                result = check()
            except wrong:
                raise
            except BaseException:
                reservation.give_back()
                raise
            reservation.give_back()
            return result
    except SignInRefused as refused:
        raise Throttled(wait=refused.wait, detail=refused.message) from None
