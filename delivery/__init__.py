"""Delivery: the durable outbox and the syncer that sends it over HTTP(S) or serial (device and gateway)."""
