"""Requests to the receiver under test (a real HTTP server on 127.0.0.1), shared by the server's tests."""
import http.client

import carom_samples
from delivery.outbox import item_body
from server.site.routes import RECORDS
from sync_helpers import SECRET, post_json, records_url
from wire.signing import Signer


def url(server):
    return records_url(server.port)


def post(server, body: bytes, headers: dict) -> tuple[int, dict]:
    return post_json(server.port, RECORDS, body, headers, timeout=5)


def get(server, path: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def partie_body(item_id="p-1", seed=1, **kw) -> bytes:
    text, summary = carom_samples.partie(item_id, "Novák", "Dvořák", seed=seed, points_limit=30, innings_limit=5, **kw)
    return item_body(item_id, "partie", text, summary)


def signed_post(server, body, signer=None):
    signed = (signer or Signer("u-lva-1", SECRET)).sign(body)
    return post(server, body, signed.headers())
