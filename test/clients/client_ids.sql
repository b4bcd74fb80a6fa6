-- client_ids.sql: the tables and the server's side of test/clients/client_ids.py.

-- sv(type, text): what the server reads in a text, written as the clients write theirs:
-- canonical|hex of the value|time in Unix µs|field ("-" for NULL), or ERR:<SQLSTATE>.
CREATE FUNCTION sv(typ text, t text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE r text;
BEGIN
	EXECUTE format($q$SELECT concat_ws('|', id::text, encode(id::bytea, 'hex'),
			floor(extract(epoch FROM %s(id)) * 1000000)::bigint, coalesce((%s)::text, '-'))
		FROM (SELECT $1::%s AS id) s$q$,
		CASE typ WHEN 'uid11' THEN 'xid_timestamp' ELSE typ || '_timestamp' END,
		CASE typ WHEN 'uid11' THEN 'xid_random(id)' WHEN 'timeid' THEN 'timeid_clock_id(id)'
			WHEN 'ulidflake' THEN 'ulidflake_sid(id)' WHEN 'euid' THEN 'euid_extension(id)'
			ELSE 'NULL' END, typ) INTO r USING t;
	RETURN r;
EXCEPTION WHEN others THEN
	RETURN 'ERR:' || SQLSTATE;
END $f$;
-- us(view): the Unix µs of a view, NULL for an error
CREATE FUNCTION us(v text) RETURNS bigint IMMUTABLE LANGUAGE sql AS $$
	SELECT CASE WHEN v ~ '^[^|]+\|[0-9a-f]+\|-?[0-9]+\|' THEN split_part(v, '|', 3)::bigint END $$;

-- 1. client-made IDs: c1 (with the client's view of each), uf (ulids with the clock before each call)
CREATE TABLE c1 (lang text, type text, kind text, t text, cview text);
CREATE TABLE uf (lang text, seq int, t ulid, before_us bigint);
-- 2. groups of server-, client-, server-made IDs
CREATE TABLE s (lang text, type text, g int, t text);
-- 5. monotonic runs of client-made IDs
CREATE TABLE m (lang text, type text, kind text, seq int, t text);

-- 3. server-made IDs: each generator, its variants and the edge values
CREATE TABLE srv (type text, t text);
INSERT INTO srv SELECT 'uid11', generate_uid11_xid()::text FROM generate_series(1, 1000);
INSERT INTO srv SELECT 'uid11', generate_uid11_random()::text FROM generate_series(1, 200);
INSERT INTO srv SELECT 'uid11', v::bigint::uid11::text FROM unnest(ARRAY[0, 1, 4194303, 4194304, 9223372036854775807, -9223372036854775808, -1]) v;
INSERT INTO srv SELECT 'timeid', generate_timeid()::text FROM generate_series(1, 1000);
INSERT INTO srv SELECT 'timeid', generate_timeid(c)::text FROM generate_series(1, 100) i, unnest(ARRAY[0, 31, 32, 991, 1023]) c;
INSERT INTO srv SELECT 'timeid', v::timeid::text FROM unnest(ARRAY[0, 1, 1023, 1024, 9223372036854775807]) v;
INSERT INTO srv SELECT 'ulidflake', generate_ulidflake()::text FROM generate_series(1, 1000);
INSERT INTO srv SELECT 'ulidflake', generate_ulidflake(i % 32)::text FROM generate_series(1, 320) i;
INSERT INTO srv SELECT 'ulidflake', v::ulidflake::text FROM unnest(ARRAY[0, 1, 1048575, 1048576, 9223372036854775807]) v;
INSERT INTO srv SELECT 'ulid', generate_ulid()::text FROM generate_series(1, 1000);
INSERT INTO srv SELECT 'ulid', generate_ulid_monotonic()::text FROM generate_series(1, 300);
INSERT INTO srv SELECT 'ulid', gen_random_uuid()::ulid::text FROM generate_series(1, 200);
INSERT INTO srv SELECT 'euid', generate_euid()::text FROM generate_series(1, 1000);
INSERT INTO srv SELECT 'euid', generate_euid(e)::text FROM generate_series(1, 20) i, unnest(ARRAY[0, 1, 2, 3, 15, 16, 1000, 16383, 16384, 32767]) e;
INSERT INTO srv SELECT 'euid', gen_random_uuid()::euid::text FROM generate_series(1, 300);
INSERT INTO srv SELECT 'ulid', v::uuid::ulid::text
	FROM unnest(ARRAY['00000000-0000-0000-0000-000000000000', '00000000-0000-0000-0000-000000000001',
		'7fffffff-ffff-ffff-ffff-ffffffffffff', 'ffffffff-ffff-ffff-ffff-ffffffffffff']) v;
INSERT INTO srv SELECT 'euid', v::uuid::euid::text
	FROM unnest(ARRAY['00000000-0000-0000-0000-000000000000', '00000000-0000-0000-0000-000000000001',
		'7fffffff-ffff-ffff-ffff-ffffffffffff', 'ffffffff-ffff-ffff-ffff-ffffffffffff']) v;

-- 4. inputs: accepted non-canonical forms of server-made IDs, and texts both must reject
CREATE TABLE inp (type text, t text);
INSERT INTO inp SELECT type, lower(t) FROM srv WHERE type IN ('ulidflake', 'ulid', 'euid') AND random() < 0.05;
INSERT INTO inp SELECT 'timeid', timeid_dashed(t::timeid) FROM srv WHERE type = 'timeid' AND random() < 0.05;
INSERT INTO inp SELECT 'euid', translate(t, '10', 'IO') FROM srv WHERE type = 'euid' AND random() < 0.05;
INSERT INTO inp SELECT 'euid', translate(lower(t), '10', 'lo') FROM srv WHERE type = 'euid' AND random() < 0.05;
-- The check 127 ("no check"): the 26th symbol's low two bits and the 27th symbol all ones.
INSERT INTO inp SELECT 'euid', left(t, 25)
		|| substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((strpos('0123456789ABCDEFGHJKMNPQRSTVWXYZ', substr(t, 26, 1)) - 1) | 3) + 1, 1)
		|| 'Z'
	FROM srv WHERE type = 'euid' AND random() < 0.05;
-- A wrong check symbol (never 127: the last symbol becomes 0 or 1).
INSERT INTO inp SELECT 'euid', left(t, 26) || CASE right(t, 1) WHEN '0' THEN '1' ELSE '0' END
	FROM srv WHERE type = 'euid' AND random() < 0.05;
-- The sibling's text, a UUID's, a timeid in upper case, a first symbol out of range.
INSERT INTO inp SELECT 'ulid', t FROM srv WHERE type = 'euid' AND random() < 0.01;
INSERT INTO inp SELECT 'euid', t FROM srv WHERE type = 'ulid' AND random() < 0.01;
INSERT INTO inp SELECT 'ulid', gen_random_uuid()::text FROM generate_series(1, 3);
INSERT INTO inp SELECT 'timeid', upper(t) FROM srv WHERE type = 'timeid' AND random() < 0.01;
INSERT INTO inp SELECT type, c || substr(t, 2) FROM srv, unnest(ARRAY['8', 'Z', 'z']) c
	WHERE type IN ('ulidflake', 'ulid') AND random() < 0.01;
INSERT INTO inp SELECT 'timeid', c || substr(t, 2) FROM srv, unnest(ARRAY['c', 'z', '8', '1']) c
	WHERE type = 'timeid' AND random() < 0.01;
INSERT INTO inp VALUES
	('uid11', ''), ('uid11', '1111111111'), ('uid11', '111111111111'), ('uid11', '0bcdefghijk'),
	('uid11', 'Obcdefghijk'), ('uid11', 'Ibcdefghijk'), ('uid11', 'lbcdefghijk'), ('uid11', 'jpXCZedGfVR'),
	('uid11', 'zzzzzzzzzzz'), ('uid11', 'jpXCZedGfVQ'), ('uid11', ' 1111111111'), ('uid11', '1111111111 '),
	('uid11', E'11111\t11111'), ('uid11', '1111111111é'), ('uid11', '11111111111'), ('uid11', '1111111NVpb'),
	('timeid', '3kxn-lhr-3gxq-23'), ('timeid', '3kxnlhr3gxq23'), ('timeid', '3iso-34e-qpw2'),
	('timeid', '222222222222'), ('timeid', '22222222222222'), ('timeid', 'A222222222222'),
	('timeid', '3JZFCIJPJ2Z2A'), ('timeid', '1222222222222'), ('timeid', '0222222222222'),
	('timeid', 'bzzzzzzzzzzzz'), ('timeid', 'czzzzzzzzzzzz'), ('timeid', '3jzf-cij-pj2z2a'),
	('timeid', '3jzfcij-pj2z-2a'), ('timeid', '3jzf-cijp-j2z-2a'), ('timeid', '3jzfcijpj2z2a222'),
	('timeid', '3jzf-cij-pj2z-2A'), ('timeid', 'cjzf-cij-pj2z-2a'), ('timeid', '3jzf-cij-pj2z-2'),
	('timeid', '3jzf cij pj2z 2a'), ('timeid', '3jzf-cij-pj2z-2a '), ('timeid', '3jzf-cij-pj2z--'),
	('timeid', '-3jz-fci-jpj2-z2'), ('timeid', '3jzfcijpj2z2-'),
	('ulidflake', '00CMXB6TAK4SA'), ('ulidflake', '00cmxb6tak4sa'), ('ulidflake', '00CMXB6TAK4S'),
	('ulidflake', '00CMXB6TAK4SAA'), ('ulidflake', '00CMXB6TAK4SI'), ('ulidflake', '00CMXB6TAK4SL'),
	('ulidflake', '00CMXB6TAK4SO'), ('ulidflake', '00CMXB6TAK4SU'), ('ulidflake', '00cmxb6tak4su'),
	('ulidflake', '00cmxb6tak4si'), ('ulidflake', '80CMXB6TAK4SA'), ('ulidflake', '7ZZZZZZZZZZZZ'),
	('ulidflake', '00CMXB6TAK4S-'), ('ulidflake', '00CMXB6TAK4S '),
	('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAV'), ('ulid', '01arz3ndektsv4rrffq69g5fav'),
	('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FA'), ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAVV'),
	('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAI'), ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAL'),
	('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAO'), ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAU'),
	('ulid', '01arz3ndektsv4rrffq69g5fal'), ('ulid', '81ARZ3NDEKTSV4RRFFQ69G5FAV'),
	('ulid', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'), ('ulid', 'ZZZZZZZZZZZZZZZZZZZZZZZZZZ'),
	('ulid', '01563e3a-b5d3-d676-4c61-efb99302bd5b'), ('ulid', E'01ARZ3NDEKTSV4RRFFQ69G5FA\n'),
	('euid', '000000000000000000000000000'), ('euid', 'OOOOOOOOOOOOOOOOOOOOOOOOOOO'),
	('euid', 'ooooooooooooooooooooooooooo'), ('euid', '00000000000000000000000000'),
	('euid', '0000000000000000000000000000'), ('euid', '00000000000000000000000000U'),
	('euid', '00000000000000000000000000u'), ('euid', '0000000000000000000000000-0'),
	('euid', '000000000000000000000000001'), ('euid', '00000000000000000000000003Z'),
	('euid', 'ZZZZZZZZZZZZZZZZZZZZZZZZZZZ'), ('euid', ' 00000000000000000000000000');
