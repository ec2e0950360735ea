"""Another tab sees every committed change through the websocket (Redis channel layer)."""

import pytest
from asgiref.sync import async_to_sync, sync_to_async

from annotation.services.operations import annotation_operation_apply
from foundation import broadcast
from tests.factories import UserFactory, assign, make_topic, mention_ids
from tests.sockets import WEBSOCKET_TEST_TIMEOUT, communicator

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(WEBSOCKET_TEST_TIMEOUT),
]


def test_a_second_tab_receives_the_effects_of_an_operation_after_commit(services):
    topic = make_topic()
    user = UserFactory()
    _, annotation = assign(topic, user)
    m = mention_ids(topic)

    async def scenario():
        async with communicator(f"/ws/annotations/{annotation.pk}/", user) as tab:
            connected, _ = await tab.connect()
            assert connected
            applied = await sync_to_async(annotation_operation_apply)(
                annotation_id=annotation.pk,
                user=user,
                payload={"op": "assign", "mention": m[0], "cluster": None},
                expected_version=0,
                client_id="tab-1",
            )
            message = await tab.receive_json_from(timeout=5)
        return applied, message

    applied, message = async_to_sync(scenario)()

    assert message["type"] == "applied"
    assert message["version"] == applied.version == 1
    assert message["effects"] == applied.effects
    assert message["client_id"] == "tab-1"


def test_another_annotator_cannot_watch_my_annotation(services):
    topic = make_topic()
    owner, other = UserFactory(), UserFactory()
    _, annotation = assign(topic, owner)
    assign(topic, other)

    async def scenario():
        async with communicator(f"/ws/annotations/{annotation.pk}/", other) as socket:
            return await socket.connect()

    connected, code = async_to_sync(scenario)()

    assert connected is False
    assert code == 4403


def test_flush_returns_once_queued_broadcasts_are_sent(services):
    broadcast.project_progress(123456, {"status": "x"})
    assert broadcast.flush(timeout=5) is True


def test_deactivating_the_user_closes_an_in_process_socket_too(services):
    from accounts.services.users import user_update
    from tests.factories import AdminFactory

    topic = make_topic()
    user, admin = UserFactory(), AdminFactory()
    _, annotation = assign(topic, user)

    async def scenario():
        async with communicator(f"/ws/annotations/{annotation.pk}/", user) as socket:
            connected, _ = await socket.connect()
            assert connected
            await sync_to_async(user_update)(user=user, acting_user=admin, is_active=False)
            return await socket.receive_output(timeout=5)

    assert async_to_sync(scenario)() == {"type": "websocket.close", "code": 4403}
