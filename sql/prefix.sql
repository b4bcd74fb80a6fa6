-- prefix: <type>_prefix_range, xid_prefix_time_range, ^@ and <@ on single values.
--
-- The bounds are checked against the specs' formula computed here in numeric, independently of
-- the C code: scale = base^(width - N), lo = value(P) * scale, hi = lo + scale - 1, hi clamped to
-- the type's maximum, empty when lo is beyond it (euid: the 135-bit text space shifted right by
-- its 7 check bits).
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';

-- value of a prefix in base length(alphabet); NULL when a symbol is not in the alphabet
CREATE FUNCTION pfx_value(p text, alphabet text) RETURNS numeric
LANGUAGE sql IMMUTABLE STRICT AS $$
	SELECT CASE WHEN bool_and(d > 0) OR p = '' THEN
		trunc(coalesce(sum((d - 1)::numeric * length(alphabet)::numeric ^ (length(p) - i)), 0)) END
	FROM unnest(string_to_array(p, NULL)) WITH ORDINALITY AS s(c, i),
		LATERAL (SELECT strpos(alphabet, c) AS d) x
$$;

-- big-endian bytes as an unsigned number
CREATE FUNCTION pfx_bytes(b bytea) RETURNS numeric
LANGUAGE sql IMMUTABLE STRICT AS $$
	SELECT trunc(coalesce(sum(get_byte(b, i)::numeric * 256::numeric ^ (length(b) - 1 - i)), 0))
	FROM generate_series(0, length(b) - 1) i
$$;

-- the specs' [lo, hi] of a prefix: '[lo,hi]' of numbers, 'empty', or NULL for a bad symbol
CREATE FUNCTION pfx_expected(typ text, p text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
	alphabet text := CASE typ
		WHEN 'uid11' THEN '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
		WHEN 'timeid' THEN '234567abcdefghijklmnopqrstuvwxyz'
		ELSE '0123456789ABCDEFGHJKMNPQRSTVWXYZ' END;
	width int := CASE typ WHEN 'uid11' THEN 11 WHEN 'ulid' THEN 26 WHEN 'euid' THEN 27 ELSE 13 END;
	maxv numeric := CASE typ WHEN 'uid11' THEN 2::numeric ^ 64 - 1
		WHEN 'ulid' THEN 2::numeric ^ 128 - 1 WHEN 'euid' THEN 2::numeric ^ 135 - 1
		ELSE 2::numeric ^ 63 - 1 END;
	q text := CASE typ
		WHEN 'timeid' THEN replace(p, '-', '')
		WHEN 'euid' THEN translate(upper(p), 'ILO', '110')
		WHEN 'uid11' THEN p ELSE upper(p) END;
	scale numeric := length(alphabet)::numeric ^ (width - length(q));
	lo numeric := pfx_value(q, alphabet) * scale;
	hi numeric := lo + scale - 1;
BEGIN
	IF lo IS NULL THEN RETURN NULL; END IF;
	IF lo > maxv THEN RETURN 'empty'; END IF;
	hi := least(hi, maxv);
	IF typ = 'euid' THEN lo := div(lo, 128); hi := div(hi, 128); END IF;
	RETURN format('[%s,%s]', trunc(lo), trunc(hi));
END $$;

-- the same range as built by the extension, in numbers
CREATE FUNCTION pfx_actual(typ text, p text) RETURNS text
LANGUAGE plpgsql STRICT AS $$
DECLARE
	lo numeric;
	hi numeric;
	e bool;
BEGIN
	EXECUTE format('SELECT isempty(r), %s, %s FROM %s_prefix_range(%L) r', CASE
		WHEN typ = 'uid11' THEN 'lower(r)::numeric' WHEN typ IN ('ulid', 'euid') THEN
		'pfx_bytes(lower(r)::bytea)' ELSE 'lower(r)::bigint::numeric' END, CASE
		WHEN typ = 'uid11' THEN 'upper(r)::numeric' WHEN typ IN ('ulid', 'euid') THEN
		'pfx_bytes(upper(r)::bytea)' ELSE 'upper(r)::bigint::numeric' END, typ, p)
		INTO e, lo, hi;
	RETURN CASE WHEN e THEN 'empty' ELSE format('[%s,%s]', lo, hi) END;
END $$;

-- SQLSTATE, message and detail of a statement's error
CREATE FUNCTION pfx_error(stmt text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	st text;
	msg text;
	det text;
BEGIN
	EXECUTE stmt;
	RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
	RETURN st || ': ' || msg || ' | ' || det;
END $$;

-- ---- bounds of documented prefixes -------------------------------------------------------------

-- uid11 (the spec's prefix rule): '' is the whole domain; '2' is [58^10, 2*58^10-1];
-- 'jp' and 'jpXCZedGfV' reach past 2^64-1 (= 'jpXCZedGfVQ') and are clamped; 'jpXCZedGfVR',
-- 'jq', 'k' and 'z' begin beyond it and are empty. Case-sensitive: 'a' and 'A' differ.
SELECT p, uid11_prefix_range(p) AS range, pfx_actual('uid11', p) AS bounds,
       pfx_actual('uid11', p) = pfx_expected('uid11', p) AS as_spec
FROM (VALUES (''), ('1'), ('2'), ('A'), ('a'), ('113q8KF'), ('1111111NVpb'), ('jp'),
             ('jpXCZedGfV'), ('jpXCZedGfVQ'), ('jpXCZedGfVR'), ('jq'), ('k'), ('z')) v(p);

-- timeid (atproto TID): 13 base32-sortable symbols, max 2^63-1 ('bzzzzzzzzzzzz'); a first symbol
-- past 'b' is empty. Display dashes may be kept.
SELECT p, timeid_prefix_range(p) AS range, pfx_actual('timeid', p) AS bounds,
       pfx_actual('timeid', p) = pfx_expected('timeid', p) AS as_spec
FROM (VALUES (''), ('2'), ('b'), ('bz'), ('c'), ('z'), ('3k'), ('3kxn'), ('3kxn-'), ('3kxn-lhr'),
             ('3kxnlhr'), ('3kxn-lhr-3gxq'), ('3kxn-lhr-3gxq-'), ('3kxn-lhr-3gxq-23'),
             ('3kxnlhr3gxq23')) v(p);

-- The TID draft's prefix table, read as UTC-7 (docs/formats.md): '3kxn-lhr' is
-- 16:40:46.434304 .. 16:40:47.482879 UTC, '3kxn' 11:28:52.498432 .. 21:01:32.236799,
-- '3k' 2023-07-08 20:57:40.263936 .. 2024-08-19 02:23:52.352767; '3kxn-lhr-3gxq' is the one
-- microsecond of the draft's example (16:40:46.480310 UTC) with every clock id.
SELECT p, timeid_timestamp(lower(r)) AS first_time, timeid_clock_id(lower(r)) AS first_clock,
       timeid_timestamp(upper(r)) AS last_time, timeid_clock_id(upper(r)) AS last_clock
FROM (VALUES ('3kxn-lhr-3gxq'), ('3kxn-lhr'), ('3kxn'), ('3k')) v(p),
     LATERAL timeid_prefix_range(p) r;

-- ulidflake (ULID-Flake): Crockford, either case, max 2^63-1 ('7ZZZZZZZZZZZZ'); '8' and up are empty.
SELECT p, ulidflake_prefix_range(p) AS range, pfx_actual('ulidflake', p) AS bounds,
       pfx_actual('ulidflake', p) = pfx_expected('ulidflake', p) AS as_spec
FROM (VALUES (''), ('0'), ('00cm'), ('00CM'), ('7'), ('7z'), ('7ZZZZZZZZZZZZ'), ('8'),
             ('Z')) v(p);

-- ulid (ULID spec): 26 Crockford symbols (130 bits): '7' holds the top of 2^128-1, '8' and up
-- are empty.
SELECT p, ulid_prefix_range(p) AS range, pfx_actual('ulid', p) AS bounds,
       pfx_actual('ulid', p) = pfx_expected('ulid', p) AS as_spec
FROM (VALUES (''), ('0'), ('01an4z07by'), ('01AN4Z07BY'), ('7'), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ'),
             ('8'), ('z')) v(p);

-- euid (EUID): 27 symbols with the 7-bit check: the bounds are those of the 135-bit text
-- space shifted right by 7, never empty. Aliases: I, i, L, l are 1 and O, o are 0.
SELECT p, euid_prefix_range(p) AS range, pfx_actual('euid', p) AS bounds,
       pfx_actual('euid', p) = pfx_expected('euid', p) AS as_spec
FROM (VALUES (''), ('0'), ('01'), ('OI'), ('ol'), ('0L'), ('Z'), ('ZZZZZZZZZZZZZZZZZZZZZZZZZ'),
             ('ZZZZZZZZZZZZZZZZZZZZZZZZZZ'), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ')) v(p);

-- The formula holds for every length of a few IDs of every type (count of mismatches).
SELECT typ, count(*) AS prefixes,
       count(*) FILTER (WHERE pfx_actual(typ, left(id, n)) IS DISTINCT FROM
                              pfx_expected(typ, left(id, n))) AS wrong
FROM (VALUES ('uid11', 'NQm6nKp8qFD'), ('uid11', 'jpXCZedGfVQ'), ('uid11', 'jpXCZedGfVR'),
             ('timeid', '3kxnlhr3gxq23'), ('timeid', 'bzzzzzzzzzzzz'), ('timeid', 'c2222222'),
             ('ulidflake', '00CMXB6TAK4SA'), ('ulidflake', '7zzzzzzzzzzzz'),
             ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAV'), ('ulid', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'),
             ('ulid', '8'), ('euid', 'W5KHF5Y55RAZERSR1D2YGGFC69Z'),
             ('euid', 'ZZZZZZZZZZZZZZZZZZZZZZZZZZ'), ('euid', 'oilOIL'))
     v(typ, id),
     generate_series(0, length(id)) n
GROUP BY typ ORDER BY typ;

-- ---- errors: 22P02 with the type, the prefix and the reason --------------------------------------

SELECT stmt, pfx_error(stmt) AS error
FROM (VALUES
	('SELECT uid11_prefix_range(''jpXCZedGfVQ1'')'),     -- 12 symbols
	('SELECT uid11_prefix_range(''0'')'),                -- not Base58
	('SELECT uid11_prefix_range(''11l'')'),              -- l is not Base58 either
	('SELECT uid11_prefix_range(''ab€c'')'),             -- position counted in characters
	('SELECT timeid_prefix_range(''3kxnlhr3gxq232'')'),  -- 14 symbols
	('SELECT timeid_prefix_range(''3kxn-lhr-3gxq-232'')'), -- 17 with dashes
	('SELECT timeid_prefix_range(''3KXN'')'),            -- case-sensitive
	('SELECT timeid_prefix_range(''31'')'),              -- 1 is not in the alphabet
	('SELECT timeid_prefix_range(''3kx-n'')'),           -- dash at position 4
	('SELECT timeid_prefix_range(''3kxn-lhr3'')'),       -- the second dash missing
	('SELECT timeid_prefix_range(''3kxnlhr-'')'),        -- a dash where a symbol belongs
	('SELECT timeid_prefix_range(''-'')'),
	('SELECT ulidflake_prefix_range(''00CMXB6TAK4SA0'')'),
	('SELECT ulidflake_prefix_range(''0I'')'),           -- no aliases
	('SELECT ulid_prefix_range(''01ARZ3NDEKTSV4RRFFQ69G5FAV0'')'),
	('SELECT ulid_prefix_range(''01arz3ndektsv4rrffq69g5fau'')'), -- U
	('SELECT ulid_prefix_range(''0L'')'),
	('SELECT euid_prefix_range(''W5KHF5Y55RAZERSR1D2YGGFC69Z0'')'), -- 28 symbols
	('SELECT euid_prefix_range(''W5KHF5Y55RAZERSR1D2YGGFC69Y'')'),  -- 27 with a wrong check
	('SELECT euid_prefix_range(''U'')'),
	('SELECT euid_prefix_range(''0-'')'),
	('SELECT ''11111111111''::uid11 ^@ ''0'''),          -- the operator reports the same
	('SELECT ''2222222222222''::timeid ^@ ''2-'''),
	('SELECT xid_prefix_time_range(''0'')')
) v(stmt);

-- ---- case and alias rules: the same range --------------------------------------------------------

SELECT ulidflake_prefix_range('00cmxb') = ulidflake_prefix_range('00CMXB') AS ulidflake_case,
       ulid_prefix_range('01arz3') = ulid_prefix_range('01ARZ3') AS ulid_case,
       euid_prefix_range('oIlL1') = euid_prefix_range('01111') AS euid_aliases,
       euid_prefix_range('w5khf5') = euid_prefix_range('W5KHF5') AS euid_case,
       uid11_prefix_range('a') <> uid11_prefix_range('A') AS uid11_case_sensitive,
       timeid_prefix_range('3kxn-lhr') = timeid_prefix_range('3kxnlhr') AS timeid_dashes;

-- ---- xid_prefix_time_range (the uid11 spec's prefix-aware xid parsing) -------------------------

-- [epoch + (lo >> 22) ms, epoch + (hi >> 22) ms], epoch 2011-11-11T11:11:11.111Z: the spec's
-- vectors '1111111NVpb' (+1 ms) and '113q8KFkAEs' (+1 day) are single instants; 7 symbols are a
-- 2.70 ms bucket (here it touches 4 ms), 6 symbols 156.5 ms (docs/formats.md, not the spec's
-- figures); the last xid instant is 2151-03-25T18:46:22.214Z; beyond 2^64-1 it is empty.
SELECT p, xid_prefix_time_range(p) AS times,
       xid_prefix_time_range(p) = tstzrange(
           '2011-11-11 11:11:11.111+00'::timestamptz
               + div(lower(uid11_prefix_range(p))::numeric, 2::numeric ^ 22) * interval '1 ms',
           '2011-11-11 11:11:11.111+00'::timestamptz
               + div(upper(uid11_prefix_range(p))::numeric, 2::numeric ^ 22) * interval '1 ms',
           '[]') AS as_spec
FROM (VALUES (''), ('2'), ('1111111NVpb'), ('1111111NVp'), ('113q8KFkAEs'), ('113q8KF'),
             ('113q8K'), ('jpXCZedGfVQ')) v(p);
SELECT xid_prefix_time_range('jq') AS beyond, xid_prefix_time_range('jpXCZedGfVR') AS beyond;

-- Every xid of the prefix has its time inside: the time range of the times covers the prefix.
SELECT bool_and(uid11_time_range(xid_prefix_time_range(p)) @> uid11_prefix_range(p)) AS covers
FROM (VALUES ('2'), ('113q8KF'), ('113q8K'), ('jpXCZedGfVQ'), ('Hx')) v(p);

-- ---- ^@ on values: true exactly when the canonical text starts with the prefix ------------------

SELECT '1111111NVpb'::uid11 ^@ '' AS empty_prefix, '1111111NVpb'::uid11 ^@ '1111111' AS p7,
       '1111111NVpb'::uid11 ^@ '1111111NVpb' AS full, '1111111NVpb'::uid11 ^@ '1111111NVpc' AS other,
       '1111111NVpb'::uid11 ^@ '1111111nVpb' AS wrong_case, 'jpXCZedGfVQ'::uid11 ^@ 'jp' AS top;
SELECT '3kxnlhr3gxq23'::timeid ^@ '3kxn-lhr' AS dashed, '3kxnlhr3gxq23'::timeid ^@ '3kxnlhr' AS plain,
       '3kxnlhr3gxq23'::timeid ^@ '3kxn-lhr-3gxq-23' AS full, '3kxnlhr3gxq23'::timeid ^@ '3kxo' AS other,
       '3kxnlhr3gxq23'::timeid ^@ 'c' AS beyond_max;
SELECT '00CMXB6TAK4SA'::ulidflake ^@ '00cmx' AS lower_case, '00CMXB6TAK4SA'::ulidflake ^@ '00CMY' AS other,
       '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid ^@ '01arz3ndektsv4rrffq69g5fav' AS ulid_full,
       '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid ^@ '01ARZ3NDEKTSV4RRFFQ69G5FAW' AS ulid_next;

-- euid: up to 25 symbols the prefix is an exact range; the 26th and 27th symbols carry the check
-- bits, so there the text itself decides. W5KHF5Y55RAZERSR1D2YGGFC69Z: its 26th symbol 9 is
-- 010 (value) 01 (check). The 26-symbol prefix ending in 8 (010 00) has the same value bits, so
-- its range holds the ID, but the ID's text does not start with it; ...6BZ is check 127 ("no
-- check"): its range holds the ID too, but no canonical text ends that way.
SELECT e::text AS euid, e ^@ left(e::text, 25) AS p25, e ^@ left(e::text, 26) AS p26,
       e ^@ e::text AS p27, e ^@ lower(translate(e::text, '01', 'OL')) AS aliases,
       e ^@ 'W5KHF5Y55RAZERSR1D2YGGFC68' AS other_check,
       e <@ euid_prefix_range('W5KHF5Y55RAZERSR1D2YGGFC68') AS in_its_range,
       e ^@ 'W5KHF5Y55RAZERSR1D2YGGFC6BZ' AS no_check,
       e <@ euid_prefix_range('W5KHF5Y55RAZERSR1D2YGGFC6BZ') AS in_no_check_range,
       euid_prefix_range('W5KHF5Y55RAZERSR1D2YGGFC68') AS range_26
FROM (SELECT 'W5KHF5Y55RAZERSR1D2YGGFC69Z'::euid AS e) s;

-- ---- <@ and the range ends: closed and open bounds of a continuous range ------------------------

SELECT r, '1111111112A'::uid11 <@ r AS holds_2a, '1111111112B'::uid11 <@ r AS holds_2b,
       uid11range_first(r) AS first, uid11range_last(r) AS last
FROM (VALUES ('[1111111112A,1111111112C]'::uid11range), ('(1111111112A,1111111112C)'),
             ('(1111111112A,1111111112B)'), ('[1111111112B,1111111112B]'), ('(,1111111112B)'),
             ('(jpXCZedGfVP,)'), ('(jpXCZedGfVQ,)'), ('(,11111111111)'), ('(,)'), ('empty')) v(r);
SELECT ulidrange_first('(01ARZ3NDEKTSV4RRFFQ69G5FAV,)') AS after_ulid,
       ulidrange_last('(,01ARZ3NDEKTSV4RRFFQ69G5FA0)') AS before_ulid_carry,
       euidrange_last('(,W5KHF5Y55RAZERSR1D2YGGFC69Z)') AS before_euid,
       timeidrange_first('(3kxnlhr3gxq23,]') AS next_tid,
       timeidrange_first('(bzzzzzzzzzzzz,)') AS nothing_after,
       ulidflakerange_last('[0000000000001,0000000000002)') AS one;

-- subtype_diff (for GiST): a - b as float8
SELECT uid11_range_subdiff('jpXCZedGfVQ', '11111111111') AS uid11_span,
       timeid_range_subdiff('2222222222222', '2222222222223') AS minus_one,
       ulid_range_subdiff('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '00000000000000000000000000') AS ulid_span,
       euid_range_subdiff('000000000000000000000000041', '0000000000000000000000000C3') AS euid_minus_two;

DROP FUNCTION pfx_value(text, text), pfx_bytes(bytea), pfx_expected(text, text),
	pfx_actual(text, text), pfx_error(text);
