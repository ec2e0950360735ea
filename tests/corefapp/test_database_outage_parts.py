"""Which database errors mean "unavailable" (a 503 and a pause), and which stay errors."""

import psycopg
import pytest
from django.db import OperationalError
from psycopg import errors
from psycopg_pool import PoolTimeout

from corefapp.database_outage import is_unavailable_error, mark_unavailable, recently_unavailable


def wrapped(cause: Exception) -> OperationalError:
    """As Django raises it: its own class, psycopg's error as the cause."""
    try:
        raise OperationalError(str(cause)) from cause
    except OperationalError as error:
        return error


@pytest.mark.parametrize(
    "cause",
    [
        PoolTimeout("couldn't get a connection after 1.50 sec"),
        psycopg.OperationalError("connection refused"),
        errors.AdminShutdown("terminating connection due to administrator command"),
        errors.CannotConnectNow("the database system is starting up"),
        psycopg.InterfaceError("the connection is closed"),
    ],
)
def test_a_lost_or_refused_connection_means_the_database_is_unavailable(cause):
    assert is_unavailable_error(wrapped(cause))


@pytest.mark.parametrize(
    "cause",
    [
        errors.DeadlockDetected("deadlock detected"),
        errors.SerializationFailure("could not serialize access"),
        errors.QueryCanceled("canceling statement due to statement timeout"),
    ],
)
def test_a_deadlock_or_a_cancelled_query_is_not_an_outage(cause):
    assert not is_unavailable_error(wrapped(cause))


def test_other_errors_are_not_outages():
    assert not is_unavailable_error(ValueError("x"))
    assert not is_unavailable_error(None)


def test_an_outage_pauses_requests_for_a_second_then_lets_them_try_again():
    mark_unavailable(now=100.0)
    assert recently_unavailable(now=100.5)
    assert not recently_unavailable(now=101.01)
