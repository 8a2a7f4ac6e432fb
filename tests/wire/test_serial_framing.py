"""Serial frames (wire/framing.py): round trip, resynchronisation, damage never passes."""
from hypothesis import given, settings
from hypothesis import strategies as st

from sync_helpers import damaged
from wire import framing
from wire.framing import ACK, DAMAGED, DATA, NAK, Decoder, Frame, encode

payloads = st.binary(min_size=0, max_size=300)
seqs = st.integers(0, 255)


def test_a_frame_round_trips():
    assert Decoder().feed(encode(DATA, 7, b'{"id":"p-1"}')) == [Frame(DATA, 7, b'{"id":"p-1"}')]


def test_frames_split_at_every_byte_boundary_still_decode():
    data = encode(DATA, 1, b"abc" * 50) + encode(ACK, 1, b"ok")
    decoder = Decoder()
    frames = []
    for i in range(len(data)):
        frames += decoder.feed(data[i:i + 1])
    assert frames == [Frame(DATA, 1, b"abc" * 50), Frame(ACK, 1, b"ok")]


def test_a_corrupted_payload_is_reported_damaged_with_its_sequence_number():
    frame = bytearray(encode(DATA, 42, b"x" * 40))
    frame[20] ^= 0x10
    assert Decoder().feed(bytes(frame) + encode(NAK, 3)) == [Frame(DAMAGED, 42), Frame(NAK, 3)]


def test_a_corrupted_length_does_not_swallow_the_next_frame():
    bad = bytearray(encode(DATA, 5, b"y" * 30))
    bad[4] = 0xFF     # length high byte: would claim ~65 kB
    assert Decoder().feed(bytes(bad) + encode(ACK, 6, b"z")) == [Frame(ACK, 6, b"z")]


def test_a_cut_frame_is_dropped_after_silence_and_the_retransmission_decodes():
    decoder = Decoder()
    whole = encode(DATA, 9, b"r" * 200)
    assert decoder.feed(whole[:80]) == [] and decoder.partial
    assert decoder.drop_partial() == [] and not decoder.partial
    assert decoder.feed(whole) == [Frame(DATA, 9, b"r" * 200)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.binary(max_size=40), st.sampled_from([DATA, ACK, NAK]), seqs, payloads), max_size=6),
       st.integers(1, 64))
def test_garbage_between_frames_is_skipped(parts, chunk):
    """Resynchronisation: every frame after any garbage is found, in order, chunked any way."""
    stream = b"".join(garbage + encode(kind, seq, payload) for garbage, kind, seq, payload in parts)
    decoder = Decoder()
    frames = []
    for i in range(0, len(stream), chunk):
        frames += decoder.feed(stream[i:i + chunk])
    good = [f for f in frames if f.kind != DAMAGED]
    expected = [Frame(kind, seq, payload) for _, kind, seq, payload in parts]
    # garbage can by chance hold a valid-looking frame only with a 48-bit check collision
    assert good == expected


@settings(max_examples=300, deadline=None)
@given(payloads, seqs, st.data())
def test_damage_never_yields_a_wrong_frame(payload, seq, data):
    """Flipped, dropped and duplicated bytes: the decoder gives the original frame or nothing."""
    frame = damaged(encode(DATA, seq, payload), data, hows=("flip", "drop", "dup"), times=(1, 3))
    decoder = Decoder()
    found = decoder.feed(frame) + decoder.drop_partial()
    for f in found:
        assert f.kind == DAMAGED or f == Frame(DATA, seq, payload)


def test_framing_overhead_is_twelve_bytes():
    assert len(encode(DATA, 0, b"p" * 1000)) - 1000 == framing.OVERHEAD == 12
