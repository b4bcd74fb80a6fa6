-- bench/sql_edition.sql: the SQL edition (sql_edition/idtypes_sql.sql, loaded first) against the
-- native edition and core's gen_random_uuid(), in the benchmark's database (run by bench/bench.sh
-- bench.n, the rows of the bulk inserts, set).
--
-- Per value, in microseconds: each generator's values (n/10 in one statement), text out and text
-- in (n/10 values); then bulk inserts of n rows into a table whose uuid or bigint primary key has
-- the generator as its default, in ms. Every round runs the contestants of a workload in turn,
-- starting with another one each round; the ratio is against the workload's baseline in the same
-- round, and an A/A line (the baseline run twice) shows the noise.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
CREATE TABLE sqle_work (ord int, workload text, contestant text, baseline text, q text);
CREATE TABLE sqle_result (round int, workload text, contestant text, value float8);
-- The values of the per-value workloads: a tenth of the rows (PL/pgSQL takes tens of microseconds).
CREATE FUNCTION sqle_m() RETURNS int LANGUAGE sql STABLE
RETURN greatest(current_setting('bench.n')::int / 10, 1000);

CREATE TABLE sqle_ulid AS SELECT generate_ulid() AS id FROM generate_series(1, sqle_m());
CREATE TABLE sqle_euid AS SELECT generate_euid() AS id FROM generate_series(1, sqle_m());
CREATE TABLE sqle_uuid AS SELECT gen_random_uuid() AS id FROM generate_series(1, sqle_m());
CREATE TABLE sqle_ulid_text AS SELECT id::text AS t FROM sqle_ulid;
CREATE TABLE sqle_euid_text AS SELECT id::text AS t FROM sqle_euid;
CREATE TABLE sqle_uuid_text AS SELECT id::text AS t FROM sqle_uuid;
CREATE TABLE sqle_bulk_uuid (id uuid PRIMARY KEY DEFAULT gen_random_uuid());
CREATE TABLE sqle_bulk_uuid_aa (id uuid PRIMARY KEY DEFAULT gen_random_uuid());
CREATE TABLE sqle_bulk_sql_ulid (id uuid PRIMARY KEY DEFAULT idtypes_sql.generate_ulid());
CREATE TABLE sqle_bulk_sql_euid (id uuid PRIMARY KEY DEFAULT idtypes_sql.generate_euid());
CREATE TABLE sqle_bulk_sql_uuidv7 (id uuid PRIMARY KEY DEFAULT idtypes_sql.uuidv7());
CREATE TABLE sqle_bulk_ulid (id ulid PRIMARY KEY DEFAULT generate_ulid());
CREATE TABLE sqle_bulk_euid (id euid PRIMARY KEY DEFAULT generate_euid());
VACUUM ANALYZE sqle_ulid, sqle_euid, sqle_uuid, sqle_ulid_text, sqle_euid_text, sqle_uuid_text;

INSERT INTO sqle_work
SELECT ord, workload, contestant, baseline, replace(q, '%m', sqle_m()::text)
FROM (VALUES
	(1, 'generate (us per value)', 'gen_random_uuid()', 'gen_random_uuid()', 'SELECT count(gen_random_uuid()) FROM generate_series(1, %m)'),
	(1, 'generate (us per value)', 'gen_random_uuid() (A/A)', 'gen_random_uuid()', 'SELECT count(gen_random_uuid()) FROM generate_series(1, %m)'),
	(1, 'generate (us per value)', 'SQL generate_ulid()', 'gen_random_uuid()', 'SELECT count(idtypes_sql.generate_ulid()) FROM generate_series(1, %m)'),
	(1, 'generate (us per value)', 'SQL generate_ulid_monotonic()', 'gen_random_uuid()', 'SELECT count(idtypes_sql.generate_ulid_monotonic()) FROM generate_series(1, %m)'),
	(1, 'generate (us per value)', 'SQL generate_euid()', 'gen_random_uuid()', 'SELECT count(idtypes_sql.generate_euid()) FROM generate_series(1, %m)'),
	(1, 'generate (us per value)', 'SQL generate_euid(5)', 'gen_random_uuid()', 'SELECT count(idtypes_sql.generate_euid(5)) FROM generate_series(1, %m)'),
	(1, 'generate (us per value)', 'SQL uuidv7()', 'gen_random_uuid()', 'SELECT count(idtypes_sql.uuidv7()) FROM generate_series(1, %m)'),
	(1, 'generate (us per value)', 'SQL generate_xid()', 'gen_random_uuid()', 'SELECT count(idtypes_sql.generate_xid()) FROM generate_series(1, %m)'),
	(1, 'generate (us per value)', 'SQL generate_tid()', 'gen_random_uuid()', 'SELECT count(idtypes_sql.generate_tid()) FROM generate_series(1, %m)'),
	(1, 'generate (us per value)', 'SQL generate_tid(5)', 'gen_random_uuid()', 'SELECT count(idtypes_sql.generate_tid(5)) FROM generate_series(1, %m)'),
	(1, 'generate (us per value)', 'SQL generate_ulidflake()', 'gen_random_uuid()', 'SELECT count(idtypes_sql.generate_ulidflake()) FROM generate_series(1, %m)'),
	(1, 'generate (us per value)', 'native generate_ulid()', 'gen_random_uuid()', 'SELECT count(generate_ulid()) FROM generate_series(1, %m)'),
	(1, 'generate (us per value)', 'native generate_euid()', 'gen_random_uuid()', 'SELECT count(generate_euid()) FROM generate_series(1, %m)'),
	(2, 'text out (us per value)', 'uuid::text', 'uuid::text', 'SELECT count(id::text) FROM sqle_uuid'),
	(2, 'text out (us per value)', 'uuid::text (A/A)', 'uuid::text', 'SELECT count(id::text) FROM sqle_uuid'),
	(2, 'text out (us per value)', 'SQL ulid_to_text()', 'uuid::text', 'SELECT count(idtypes_sql.ulid_to_text(id::uuid)) FROM sqle_ulid'),
	(2, 'text out (us per value)', 'SQL euid_to_text()', 'uuid::text', 'SELECT count(idtypes_sql.euid_to_text(id::uuid)) FROM sqle_euid'),
	(2, 'text out (us per value)', 'native ulid::text', 'uuid::text', 'SELECT count(id::text) FROM sqle_ulid'),
	(3, 'text in (us per value)', 'text::uuid', 'text::uuid', 'SELECT count(t::uuid) FROM sqle_uuid_text'),
	(3, 'text in (us per value)', 'text::uuid (A/A)', 'text::uuid', 'SELECT count(t::uuid) FROM sqle_uuid_text'),
	(3, 'text in (us per value)', 'SQL ulid_from_text()', 'text::uuid', 'SELECT count(idtypes_sql.ulid_from_text(t)) FROM sqle_ulid_text'),
	(3, 'text in (us per value)', 'SQL euid_from_text()', 'text::uuid', 'SELECT count(idtypes_sql.euid_from_text(t)) FROM sqle_euid_text'),
	(3, 'text in (us per value)', 'native text::ulid', 'text::uuid', 'SELECT count(t::ulid) FROM sqle_ulid_text'),
	(4, 'bulk insert with DEFAULT into a primary key (ms)', 'uuid gen_random_uuid()', 'uuid gen_random_uuid()', 'sqle_bulk_uuid'),
	(4, 'bulk insert with DEFAULT into a primary key (ms)', 'uuid gen_random_uuid() (A/A)', 'uuid gen_random_uuid()', 'sqle_bulk_uuid_aa'),
	(4, 'bulk insert with DEFAULT into a primary key (ms)', 'uuid SQL generate_ulid()', 'uuid gen_random_uuid()', 'sqle_bulk_sql_ulid'),
	(4, 'bulk insert with DEFAULT into a primary key (ms)', 'uuid SQL generate_euid()', 'uuid gen_random_uuid()', 'sqle_bulk_sql_euid'),
	(4, 'bulk insert with DEFAULT into a primary key (ms)', 'uuid SQL uuidv7()', 'uuid gen_random_uuid()', 'sqle_bulk_sql_uuidv7'),
	(4, 'bulk insert with DEFAULT into a primary key (ms)', 'ulid native generate_ulid()', 'uuid gen_random_uuid()', 'sqle_bulk_ulid'),
	(4, 'bulk insert with DEFAULT into a primary key (ms)', 'euid native generate_euid()', 'uuid gen_random_uuid()', 'sqle_bulk_euid')
) w(ord, workload, contestant, baseline, q);

CREATE FUNCTION sqle_step(rnd int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	w record;
	k int;
	m int := sqle_m();
BEGIN
	FOR w IN SELECT *, count(*) OVER (PARTITION BY ord) AS cnt,
			row_number() OVER (PARTITION BY ord ORDER BY contestant) AS i
		FROM sqle_work ORDER BY ord, (row_number() OVER (PARTITION BY ord ORDER BY contestant) + rnd) % count(*) OVER (PARTITION BY ord) LOOP
		IF w.ord = 4 THEN
			EXECUTE format('TRUNCATE %I', w.q);
			INSERT INTO sqle_result VALUES (rnd, w.workload, w.contestant,
				bench_ms(format('INSERT INTO %I SELECT FROM generate_series(1, %s)', w.q, current_setting('bench.n'))));
		ELSE
			INSERT INTO sqle_result VALUES (rnd, w.workload, w.contestant, 1000 * bench_ms(w.q) / m);
		END IF;
	END LOOP;
END $$;

CREATE VIEW sqle_summary AS
SELECT r.workload, r.contestant, w.baseline, w.ord,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY r.value) AS median,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY r.value / nullif(b.value, 0)) AS ratio,
       min(r.value / nullif(b.value, 0)) AS lo, max(r.value / nullif(b.value, 0)) AS hi
FROM sqle_result r
JOIN sqle_work w ON w.workload = r.workload AND w.contestant = r.contestant
JOIN sqle_result b ON b.round = r.round AND b.workload = r.workload AND b.contestant = w.baseline
GROUP BY r.workload, r.contestant, w.baseline, w.ord;
