"""The platform's one status table is what the apps register at ready(): each app's refusals
get their statuses without foundation importing any app, a subclass gets the status of its
nearest registered class (so an app whose errors extend the core's registers nothing), and
an exception that is no refusal is left to DRF (a 500), never answered as one."""

from __future__ import annotations

import pytest

from accounts.errors import InvalidCredentials, UserRefused
from annotation.domain.errors import CycleError, NotFound, TextTooLong
from annotation.errors import VersionConflict
from corefscore.formats.errors import FormatError, FormatErrors
from foundation.api.errors import exception_handler, is_refusal, status_of
from modelserve.errors import ModelQueueUnavailable, ParameterRefused, RunAlreadyActive
from onboarding.errors import WrongDecision


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (VersionConflict, 409),  # the core's, registered by annotation/api/refusals.py
        (NotFound, 404),  # the pure domain's, registered by the core
        (TextTooLong, 400),  # an InvalidOperation
        (InvalidCredentials, 400),  # accounts' own registration (accounts/apps.py)
        (UserRefused, 422),  # accounts', no status of its own: a broken rule
        (RunAlreadyActive, 409),  # modelserve's, a Conflict of the core's
        (ParameterRefused, 400),
        (ModelQueueUnavailable, 503),
        (WrongDecision, 422),  # onboarding's
        (CycleError, 422),
    ],
)
def test_each_refusal_gets_the_status_of_its_nearest_registered_class(error, status):
    assert status_of(error) == status


def test_the_handler_answers_a_refusal_with_its_status_and_body():
    response = exception_handler(VersionConflict(expected=1, current=2), {})

    assert response.status_code == 409
    assert response.data["error"] == "version_conflict"
    assert response.data["current_version"] == 2


def test_a_file_s_format_errors_are_a_400_listing_each_error():
    errors = FormatErrors([FormatError("topics.jsonl", 3, "tokens", "must be a list")])

    response = exception_handler(errors, {})

    assert response.status_code == 400
    assert response.data["error"] == "invalid_file"
    assert response.data["errors"] == ["topics.jsonl: line 3, field tokens: must be a list"]


def test_an_exception_that_is_no_refusal_is_left_to_a_500():
    assert not is_refusal(ValueError("a bug"))
    assert exception_handler(ValueError("a bug"), {}) is None
    with pytest.raises(LookupError):
        status_of(ValueError)
