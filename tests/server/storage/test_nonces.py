"""The nonces a receiver remembers (server/storage/devices.py ``claim_nonce``): a nonce used twice
is a replayed message; nonces older than ``forget_before`` are forgotten."""


def _nonces(store) -> int:
    with store.reading() as db:
        return db.execute("SELECT COUNT(*) FROM nonces").scalar()


def test_a_nonce_is_claimed_once(store):
    assert store.devices.claim_nonce("u-lva-1", "n1", 1000, 0)
    assert not store.devices.claim_nonce("u-lva-1", "n1", 1000, 0)
    assert store.devices.claim_nonce("u-koule-1", "n1", 1000, 0)       # another device's own


def test_old_nonces_are_forgotten_when_the_limit_moves_on(store):
    assert store.devices.claim_nonce("u-lva-1", "old", 1000, 0)
    assert store.devices.claim_nonce("u-lva-1", "new", 1700, 1001)      # 'old' is forgotten here
    assert _nonces(store) == 1
    assert store.devices.claim_nonce("u-lva-1", "old", 1700, 1001)      # … so it may be used again


def test_the_same_limit_forgets_once(store):
    """Within one second of the receiver's clock the limit stays: the DELETE ran for its first
    claim; a nonce claimed since is fresh (the receiver refused a stale one before claiming)."""
    assert store.devices.claim_nonce("u-lva-1", "a", 1700, 1001)
    executed = []
    database = store.database
    execute = database.execute
    database.execute = lambda sql, args=(): executed.append(sql) or execute(sql, args)
    try:
        assert store.devices.claim_nonce("u-lva-1", "b", 1700, 1001)
        assert store.devices.claim_nonce("u-lva-1", "c", 1701, 1002)
    finally:
        del database.execute
    assert [sql.split()[0] for sql in executed] == ["INSERT", "DELETE", "INSERT"]
