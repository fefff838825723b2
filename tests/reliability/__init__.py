"""Reliability and security tests (docs/RELIABILITY.md): short forms run in CI, long forms on demand
with `python -m tests.reliability.long`."""
