"""What a delivery's answer says to the staff (wire/answer.py): never a bare status."""
import pytest

from wire.answer import Answer


@pytest.mark.parametrize("status, data, said", [
    (404, b'{"detail": "Not Found"}', "Not Found — is the URL the receiver's?"),     # another web app's 404
    (404, b"", "Not Found — is the URL the receiver's?"),
    (400, b'{"code": 400}', "Bad Request"),
    (503, b"  \n", "Service Unavailable"),
])
def test_an_answer_without_words_says_the_status_phrase(status, data, said):
    answer = Answer.from_json(status, data)
    assert (answer.status, answer.message) == (status, said)


def test_the_receivers_own_words_are_kept():
    assert Answer.from_json(422, b'{"code": 422, "reason": "does not replay"}').message == "does not replay"
    assert Answer.from_json(599, b"").message == ""         # a status without a standard phrase
