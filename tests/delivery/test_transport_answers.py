"""What the device makes of an answer that is not what the receiver says (delivery/transport_http.py,
wire/answer.py): a proxy's or a load balancer's page never crashes a delivery and never sets a
record aside for good — only the receiver's own refusal of that item is final; anything else is a
failed attempt, retried."""
import json

import pytest

from delivery.transport_http import HttpTransport
from sync_helpers import answering
from wire.signing import Signer

BODY = json.dumps({"id": "p-0", "kind": "partie", "record": "", "summary": {}}).encode()
NGINX_400 = (b"<html><head><title>400 The plain HTTP request was sent to HTTPS port</title></head>"
             b"<body><center><h1>400 Bad Request</h1></center><hr><center>nginx</center></body></html>")


def answered(status: int, body: bytes):
    """The transport's Answer to one post that a server answers ``status`` with ``body``."""
    with answering(status, body) as url:
        transport = HttpTransport(url, Signer("u-lva-1", b"secret-0123456789abcdef"), timeout=5)
        try:
            return transport.send(BODY)
        finally:
            transport.close()


@pytest.mark.parametrize("status, body", [
    (503, b'{"code": "UPSTREAM_DOWN"}'),            # a code that is no number: a ValueError before
    (503, b'{"code": 1e999}'),                      # infinity: an OverflowError before
    (502, b'{"code": 400, "status": "refused", "id": "p-0"}'),    # a 502 whose body says 400
    (400, NGINX_400),                               # a wrong scheme or port behind nginx
    (413, b"<html><body>413 Request Entity Too Large</body></html>"),
    (422, b'{"code": 422, "status": "refused", "id": "someone-else"}'),
])
def test_an_answer_that_is_not_the_receivers_refusal_is_a_failed_attempt_retried(status, body):
    answer = answered(status, body)
    assert not answer.delivered and not answer.final


@pytest.mark.parametrize("status, body", [
    (422, b'{"code": 422, "status": "refused", "id": "p-0", "reason": "does not replay"}'),
    (400, b'{"code": 400, "status": "refused", "id": null, "reason": "malformed JSON"}'),
    (409, b'{"code": 409, "status": "refused", "id": "p-0", "reason": "conflict"}'),
])
def test_the_receivers_own_refusal_of_the_item_is_final(status, body):
    answer = answered(status, body)
    assert answer.final and answer.status == status and answer.message == json.loads(body)["reason"]


def test_a_stored_answer_with_a_code_and_time_out_of_range_is_read_without_them():
    answer = answered(200, b'{"code": 1e999, "status": "stored", "id": "p-0", "server_time": 1e999}')
    assert answer.delivered and answer.server_time is None
