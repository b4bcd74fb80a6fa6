-- Generators in a new session: it starts on the wall clock, whatever the sessions before it made.
-- With the monotonic state per backend (15-16 without shared_preload_libraries) each session
-- starts its own state, which must not start ahead of the clock; with it shared (17+) the
-- sessions go on from one state, which is not ahead either after a few ms of IDs.
SET TimeZone = 'UTC';
-- This session makes IDs of every kind...
SELECT count(*) AS made FROM (SELECT generate_xid(), generate_tid(), generate_ulidflake(),
	generate_ulid_monotonic(), generate_euid() FROM generate_series(1, 100)) s;
-- ...and the next one's first IDs are not ahead of clock_timestamp() read right after each.
\c
SET TimeZone = 'UTC';
SELECT xid_timestamp(generate_xid()) <= clock_timestamp() AS xid,
	timeid_timestamp(generate_tid()) <= clock_timestamp() AS tid,
	ulidflake_timestamp(generate_ulidflake()) <= clock_timestamp() AS ulidflake,
	ulid_timestamp(generate_ulid()) <= clock_timestamp() AS ulid,
	ulid_timestamp(generate_ulid_monotonic()) <= clock_timestamp() AS ulid_monotonic,
	euid_timestamp(generate_euid()) <= clock_timestamp() AS euid;
-- A third session, after the second: the same.
\c
SET TimeZone = 'UTC';
SELECT xid_timestamp(generate_xid()) <= clock_timestamp() AS xid,
	timeid_timestamp(generate_tid()) <= clock_timestamp() AS tid,
	ulidflake_timestamp(generate_ulidflake()) <= clock_timestamp() AS ulidflake,
	ulid_timestamp(generate_ulid()) <= clock_timestamp() AS ulid,
	ulid_timestamp(generate_ulid_monotonic()) <= clock_timestamp() AS ulid_monotonic,
	euid_timestamp(generate_euid()) <= clock_timestamp() AS euid;
