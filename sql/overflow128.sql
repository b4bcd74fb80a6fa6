-- The overflow of generate_ulid_monotonic() and generate_euid() through the server: with the tests'
-- idtypes.test_counter_bits = 2 a fresh millisecond starts 4 increments from its top, so a burst
-- overflows. 'wait' waits for the next millisecond (never ahead of the clock, at most 4 IDs in a
-- ms, and some ms full); 'error' raises 54000.
\set VERBOSITY terse
SET idtypes.test_counter_bits = 2;
SET idtypes.on_overflow = 'wait';
CREATE TEMP TABLE o_ulid AS
SELECT i, generate_ulid_monotonic() AS id, clock_timestamp() AS t FROM generate_series(1, 200) i;
CREATE TEMP TABLE o_euid AS
SELECT i, generate_euid() AS id, clock_timestamp() AS t FROM generate_series(1, 200) i;
SELECT 'ulid' AS kind, count(DISTINCT id) AS ids, bool_and(ulid_timestamp(id) <= t) AS never_ahead,
       (SELECT max(n) FROM (SELECT count(*) AS n FROM o_ulid GROUP BY ulid_timestamp(id)) s) AS most_in_a_ms,
       bool_and(id > prev) AS increasing
FROM (SELECT id, t, lag(id) OVER (ORDER BY i) AS prev FROM o_ulid) s
UNION ALL
SELECT 'euid', count(DISTINCT id), bool_and(euid_timestamp(id) <= t),
       (SELECT max(n) FROM (SELECT count(*) AS n FROM o_euid GROUP BY euid_timestamp(id)) s),
       bool_and(id > prev)
FROM (SELECT id, t, lag(id) OVER (ORDER BY i) AS prev FROM o_euid) s;
SET idtypes.on_overflow = 'error';
SELECT count(generate_ulid_monotonic()) FROM generate_series(1, 1000);
SELECT count(generate_euid(9)) FROM generate_series(1, 1000);
RESET idtypes.on_overflow;
RESET idtypes.test_counter_bits;
-- Without the setting a burst does not overflow.
SELECT count(DISTINCT generate_ulid_monotonic()) AS ulids, count(DISTINCT generate_euid(9)) AS euids
FROM generate_series(1, 1000);
