-- casts: every cast of docs/reference.md, and the accessors with known values.
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';
\set VERBOSITY terse

-- ---- the cast catalogue: contexts and functions ------------------------------------------------

-- e = explicit, a = assignment, i = implicit (there must be none).
SELECT format_type(castsource, NULL) AS source, format_type(casttarget, NULL) AS target,
       castcontext AS context, castmethod AS method, castfunc::regproc AS func
FROM pg_cast
WHERE castsource IN ('uid11'::regtype, 'timeid'::regtype, 'ulidflake'::regtype,
                     'ulid'::regtype, 'euid'::regtype)
   OR casttarget IN ('uid11'::regtype, 'timeid'::regtype, 'ulidflake'::regtype,
                     'ulid'::regtype, 'euid'::regtype)
ORDER BY 1, 2;

-- ---- uid11 <-> bigint: the 64 bits unchanged ----------------------------------------------------

SELECT u, u::bigint AS i, u::bigint::uid11 = u AS back, u::numeric AS n
FROM (VALUES ('11111111111'::uid11), ('11111111112'), ('NQm6nKp8qFC'), ('NQm6nKp8qFD'),
             ('NQm6nKp8qFE'), ('jpXCZedGfVQ'), ('1111111NVpb')) v(u);

SELECT i, i::uid11 AS u, i::uid11::bigint = i AS back
FROM (VALUES (0::bigint), (1), (9223372036854775807), (-9223372036854775808), (-1), (4194304)) v(i);

-- uid11 -> numeric is the unsigned value: it agrees with the big-endian bytes
SELECT count(*) AS n,
       count(*) FILTER (WHERE u::numeric =
           ('x' || encode(u::bytea, 'hex'))::bit(64)::bigint::numeric
           + CASE WHEN u::bigint < 0 THEN 18446744073709551616 ELSE 0 END) AS agree
FROM (SELECT ('x' || substr(md5(i::text), 1, 16))::bit(64)::bigint::uid11 AS u
      FROM generate_series(1, 1000) i) s;

-- ---- timeid, ulidflake <-> bigint: the integer --------------------------------------------------

SELECT t, t::bigint AS i, t::bigint::timeid = t AS back
FROM (VALUES ('2222222222222'::timeid), ('2222222222223'), ('3kxnlhr3gxq23'),
             ('bzzzzzzzzzzzz')) v(t);
SELECT f, f::bigint AS i, f::bigint::ulidflake = f AS back
FROM (VALUES ('0000000000000'::ulidflake), ('0000000000001'), ('00CMXB6TAK4SA'),
             ('7ZZZZZZZZZZZZ')) v(f);
-- the ULID-Flake spec's example: ulidflake.New().Int() = 14246757444195114
SELECT 14246757444195114::bigint::ulidflake;
SELECT 1762721020395837441::bigint::timeid;
-- negative bigints are out of range (22003)
SELECT (-1)::bigint::timeid;
SELECT (-1)::bigint::ulidflake;
-- no implicit cast: bigint arithmetic needs an explicit cast
SELECT '3kxnlhr3gxq23'::timeid + 1;
SELECT ('3kxnlhr3gxq23'::timeid::bigint + 1)::timeid;

-- ---- ulid, euid <-> uuid: assignment casts, the 16 bytes unchanged ------------------------------

SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid,
       '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid::ulid,
       'C8EE934SR007G5Q94QKKXFRFV8B'::euid::uuid,
       '621ce48c-99c0-0078-16e9-25e73ebf0fda'::uuid::euid;
SELECT '00000000-0000-0000-0000-000000000000'::uuid::ulid AS ulid_min,
       'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid::ulid AS ulid_max,
       'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid::euid AS euid_max;

CREATE TABLE casts_t (u ulid, e euid, x uuid);
-- a uuid goes into ulid and euid columns (assignment), an ID into a uuid column
INSERT INTO casts_t VALUES ('01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid,
                            '621ce48c-99c0-0078-16e9-25e73ebf0fda'::uuid,
                            '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid);
INSERT INTO casts_t (u, e, x) SELECT x, x, u FROM casts_t;
INSERT INTO casts_t (x) SELECT e FROM casts_t WHERE e IS NOT NULL LIMIT 1;
SELECT * FROM casts_t;
-- assignment casts are not implicit, but ulid and euid compare with uuid directly (uuid_cross)
SELECT u = x FROM casts_t LIMIT 1;
SELECT u::uuid = x AS same FROM casts_t;
DROP TABLE casts_t;

-- ---- every type <-> bytea: big-endian bytes ----------------------------------------------------

SELECT 'NQm6nKp8qFD'::uid11::bytea AS uid11, '3kxnlhr3gxq23'::timeid::bytea AS timeid,
       '00CMXB6TAK4SA'::ulidflake::bytea AS ulidflake;
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::bytea AS ulid,
       'C8EE934SR007G5Q94QKKXFRFV8B'::euid::bytea AS euid;
SELECT '\x8000000000000000'::bytea::uid11 AS uid11, '\x1876716dc2ced801'::bytea::timeid AS timeid,
       '\x00329d59b4a9932a'::bytea::ulidflake AS ulidflake;
SELECT '\x01563e3ab5d3d6764c61efb99302bd5b'::bytea::ulid AS ulid,
       '\x621ce48c99c0007816e925e73ebf0fda'::bytea::euid AS euid;
-- the bytes are the bigint's big-endian bytes, and the uuid's bytes
SELECT ('x' || encode('3kxnlhr3gxq23'::timeid::bytea, 'hex'))::bit(64)::bigint
       = '3kxnlhr3gxq23'::timeid::bigint AS timeid_be,
       encode('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::bytea, 'hex')
       = replace('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid::text, '-', '') AS ulid_be;
-- other lengths are rejected (22P03)
SELECT '\x80000000000000'::bytea::uid11;
SELECT '\x800000000000000000'::bytea::timeid;
SELECT '\x'::bytea::ulidflake;
SELECT '\x01563e3ab5d3d6764c61efb99302bd'::bytea::ulid;
SELECT '\x01563e3ab5d3d6764c61efb99302bd5b00'::bytea::euid;
-- and the top bit of timeid and ulidflake must be clear (22003)
SELECT '\x8000000000000000'::bytea::timeid;
SELECT '\x8000000000000000'::bytea::ulidflake;

-- ---- accessors (section 6) with known values ---------------------------------------------------

-- the TID draft's example is 2024-07-19T16:40:46.480310Z, clock id 1
SELECT timeid_timestamp('3kxnlhr3gxq23'), timeid_clock_id('3kxnlhr3gxq23'),
       timeid_dashed('3kxnlhr3gxq23');
SELECT timeid_timestamp('2222222222222'), timeid_clock_id('2222222222222'),
       timeid_dashed('2222222222222');
SELECT timeid_timestamp('bzzzzzzzzzzzz'), timeid_clock_id('bzzzzzzzzzzzz'),
       timeid_dashed('bzzzzzzzzzzzz');
-- the dashed form reads back as the same value
SELECT timeid_dashed('3kxnlhr3gxq23')::timeid = '3kxnlhr3gxq23'::timeid AS dashed_back;

-- xid profile: the uid11 spec's test vectors, and the last instant (2151-03-25T18:46:22.214Z)
SELECT u, xid_timestamp(u), xid_random(u)
FROM (VALUES ('11111111111'::uid11), ('1111111NVpb'), ('113q8KFkAEs'), ('11111111112'),
             ('jpXCZedGfVQ')) v(u);

-- ulidflake: the spec's example, its epoch (2024-01-01) and its last millisecond
SELECT f, ulidflake_timestamp(f), ulidflake_sid(f)
FROM (VALUES ('00CMXB6TAK4SA'::ulidflake), ('0000000000000'), ('000000000001Z'),
             ('7ZZZZZZZZZZZZ')) v(f);

-- ulid: the spec's example, 0 and the last millisecond (10889-08-02T05:31:50.655Z)
SELECT u, ulid_timestamp(u)
FROM (VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid), ('00000000000000000000000000'),
             ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ')) v(u);

-- euid: the extension (NULL when the length field is 0; extension 0 has length 1) and time
SELECT e, euid_timestamp(e), euid_extension(e)
FROM (VALUES ('C8EE934SR007G5Q94QKKXFRFV8B'::euid), ('000000000000000000000000000'),
             ('ZZZZZZZZZZZZZZZZZZZZZZZZZW3'),
             ('\x00000000000000010000000000000000'::bytea::euid),
             ('\x000000000000000f0000000000000000'::bytea::euid),
             ('\x0000000000007fff0000000000000000'::bytea::euid),
             ('\x000000000007fff80000000000000000'::bytea::euid),
             ('\x000000000007fff10000000000000000'::bytea::euid)) v(e);

-- ---- every type -> timestamptz equals its accessor ---------------------------------------------

SELECT u::timestamptz AS uid11, '3kxnlhr3gxq23'::timeid::timestamptz AS timeid,
       '00CMXB6TAK4SA'::ulidflake::timestamptz AS ulidflake
FROM (VALUES ('1111111NVpb'::uid11)) v(u);
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::timestamptz AS ulid,
       'C8EE934SR007G5Q94QKKXFRFV8B'::euid::timestamptz AS euid;

-- 1000 pseudo-random values of each type (md5 of 1..1000; timeid and ulidflake with the top
-- bit cleared)
SELECT count(*) AS n,
       count(*) FILTER (WHERE a::timestamptz = xid_timestamp(a)) AS uid11,
       count(*) FILTER (WHERE b::timestamptz = timeid_timestamp(b)) AS timeid,
       count(*) FILTER (WHERE c::timestamptz = ulidflake_timestamp(c)) AS ulidflake,
       count(*) FILTER (WHERE d::timestamptz = ulid_timestamp(d)) AS ulid,
       count(*) FILTER (WHERE e::timestamptz = euid_timestamp(e)) AS euid
FROM (SELECT h1::uid11 AS a, (h1 & 9223372036854775807)::timeid AS b,
             (h2 & 9223372036854775807)::ulidflake AS c, m::uuid::ulid AS d, m::uuid::euid AS e
      FROM (SELECT ('x' || substr(md5(i::text), 1, 16))::bit(64)::bigint AS h1,
                   ('x' || substr(md5(i::text), 17, 16))::bit(64)::bigint AS h2,
                   md5(i::text) AS m
            FROM generate_series(1, 1000) i) h) s;
