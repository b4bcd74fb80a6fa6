-- io: text and binary round trips of boundary values for every type.
--
-- Each value is shown with its canonical text and its big-endian bytes (the bytea cast), so the
-- expected output pins the value itself, not only that text comes back unchanged.

-- ---- text -> type -> text ----------------------------------------------------------------------

-- uid11: 0, 1, 2^63-1, 2^63, 2^64-1 and the spec's xid vectors; case-sensitive Base58.
SELECT input, input::uid11 AS value, input::uid11::bytea AS bytes,
       input::uid11::text::uid11 = input::uid11 AS again
FROM (VALUES ('11111111111'), ('11111111112'), ('NQm6nKp8qFC'), ('NQm6nKp8qFD'),
             ('jpXCZedGfVQ'), ('1111111NVpb'), ('113q8KFkAEs')) v(input);

-- timeid: 0, 1, 2^62, 2^63-1 (the largest: first symbol 'b'), the TID draft's example, and the
-- display form with dashes (accepted, printed plain).
SELECT input, input::timeid AS value, input::timeid::bytea AS bytes,
       input::timeid::text::timeid = input::timeid AS again
FROM (VALUES ('2222222222222'), ('2222222222223'), ('6222222222222'), ('bzzzzzzzzzzzz'),
             ('3kxnlhr3gxq23'), ('3kxn-lhr-3gxq-23'), ('bzzz-zzz-zzzz-zz'),
             ('2222-222-2222-22')) v(input);

-- ulidflake: 0, 1, 2^62, 2^63-1 (the largest: first symbol '7'), the spec's example; lower case
-- input is accepted and printed upper case.
SELECT input, input::ulidflake AS value, input::ulidflake::bytea AS bytes,
       input::ulidflake::text::ulidflake = input::ulidflake AS again
FROM (VALUES ('0000000000000'), ('0000000000001'), ('4000000000000'), ('7ZZZZZZZZZZZZ'),
             ('7zzzzzzzzzzzz'), ('00CMXB6TAK4SA'), ('00cmxb6tak4sa')) v(input);

-- ulid: 0, 1, 2^127, 2^128-1 (first symbol '7'), the spec's example, lower and mixed case.
SELECT input, input::ulid AS value, input::ulid::bytea AS bytes,
       input::ulid::text::ulid = input::ulid AS again
FROM (VALUES ('00000000000000000000000000'), ('00000000000000000000000001'),
             ('40000000000000000000000000'), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ'),
             ('7zzzzzzzzzzzzzzzzzzzzzzzzz'), ('01ARZ3NDEKTSV4RRFFQ69G5FAV'),
             ('01arz3ndektsv4rrffq69g5fav'), ('01ArZ3nDeKtSv4RrFfQ69g5FaV')) v(input);

-- euid: 0, 1, 2^64, 2^127, 2^128-1, an example with an extension; lower case; the aliases
-- I i L l -> 1 and O o -> 0; the check value 127 ("no check": printed with the real check).
SELECT input, input::euid AS value, input::euid::bytea AS bytes,
       input::euid::text::euid = input::euid AS again
FROM (VALUES ('000000000000000000000000000'), ('000000000000000000000000041'),
             ('000000000000200000000000002'), ('G00000000000000000000000002'),
             ('ZZZZZZZZZZZZZZZZZZZZZZZZZW3'), ('C8EE934SR007G5Q94QKKXFRFV8B'),
             ('c8ee934sr007g5q94qkkxfrfv8b'),
             ('OOOOOOOOOOOOOOOOOOOOOOOOO4I'), ('ooooooooooooooooooooooooo4i'),
             ('000000000000000000000000O4L'), ('000000000000000000000000o4l'),
             ('C8EE934SR0O7G5Q94QKKXFRFV8B'), ('C8EE934SR007G5Q94QKKXFRFVBZ'),
             ('00000000000000000000000003Z')) v(input);

-- ---- binary: send, and COPY (FORMAT binary) out and back in ------------------------------------

-- send writes the same big-endian bytes as the bytea cast.
SELECT uid11_send('NQm6nKp8qFD'), uid11_send('jpXCZedGfVQ'), timeid_send('bzzzzzzzzzzzz'),
       ulidflake_send('00CMXB6TAK4SA');
SELECT ulid_send('01ARZ3NDEKTSV4RRFFQ69G5FAV'), euid_send('C8EE934SR007G5Q94QKKXFRFV8B');

CREATE TABLE io_ids (n int, a uid11, b timeid, c ulidflake, d ulid, e euid);
INSERT INTO io_ids VALUES
	(1, '11111111111', '2222222222222', '0000000000000', '00000000000000000000000000',
	    '000000000000000000000000000'),
	(2, '11111111112', '2222222222223', '0000000000001', '00000000000000000000000001',
	    '000000000000000000000000041'),
	(3, 'NQm6nKp8qFC', '6222222222222', '4000000000000', '40000000000000000000000000',
	    'G00000000000000000000000002'),
	(4, 'NQm6nKp8qFD', 'bzzzzzzzzzzzz', '7ZZZZZZZZZZZZ', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ',
	    'ZZZZZZZZZZZZZZZZZZZZZZZZZW3'),
	(5, 'jpXCZedGfVQ', '3kxnlhr3gxq23', '00CMXB6TAK4SA', '01ARZ3NDEKTSV4RRFFQ69G5FAV',
	    'C8EE934SR007G5Q94QKKXFRFV8B'),
	(6, NULL, NULL, NULL, NULL, NULL);

-- The server writes the file into its own data directory: a path that is unique per cluster
-- and always writable by the server. (psql echoes the command before it substitutes :'f'.)
SELECT current_setting('data_directory') || '/idtypes_io.copy' AS f \gset
COPY io_ids TO :'f' (FORMAT binary);
CREATE TABLE io_back (LIKE io_ids);
COPY io_back FROM :'f' (FORMAT binary);
SELECT * FROM io_back ORDER BY n;

-- Row for row the same values, NULLs included.
SELECT count(*) AS rows,
       count(*) FILTER (WHERE (i.a, i.b, i.c, i.d, i.e) IS NOT DISTINCT FROM
                              (o.a, o.b, o.c, o.d, o.e)) AS equal
FROM io_ids i JOIN io_back o USING (n);

-- recv reads what a bytea column holding the big-endian bytes sends: the binary format is the
-- bytes of the bytea cast.
CREATE TABLE io_bytes (a bytea, b bytea, c bytea, d bytea, e bytea);
INSERT INTO io_bytes SELECT a::bytea, b::bytea, c::bytea, d::bytea, e::bytea FROM io_ids;
COPY io_bytes TO :'f' (FORMAT binary);
CREATE TABLE io_from_bytes (a uid11, b timeid, c ulidflake, d ulid, e euid);
COPY io_from_bytes FROM :'f' (FORMAT binary);
SELECT (SELECT count(*) FROM io_from_bytes) AS rows,
       (SELECT count(*) FROM (SELECT a, b, c, d, e FROM io_ids
                              EXCEPT ALL SELECT * FROM io_from_bytes) x) AS missing,
       (SELECT count(*) FROM (SELECT * FROM io_from_bytes
                              EXCEPT ALL SELECT a, b, c, d, e FROM io_ids) x) AS extra;

-- Text COPY round trip as well.
COPY io_ids TO :'f';
TRUNCATE io_back;
COPY io_back FROM :'f';
SELECT count(*) AS rows,
       count(*) FILTER (WHERE (i.a, i.b, i.c, i.d, i.e) IS NOT DISTINCT FROM
                              (o.a, o.b, o.c, o.d, o.e)) AS equal
FROM io_ids i JOIN io_back o USING (n);

DROP TABLE io_ids, io_back, io_bytes, io_from_bytes;
