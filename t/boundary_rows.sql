-- t/boundary_rows.sql: rows 1-8 of the five types for a table (n int, a uid11, b timeid, c ulidflake,
-- d ulid, e euid) named by psql's variable tab: 0, 1, the largest, around 2^63 (uid11) and 2^127
-- (ulid, euid), spec examples (in the timeid display form and lower case too), NULLs. Read by
-- t/140_dump_restore.pl and test/scripts/arch_values.sh.
INSERT INTO :tab VALUES
	(1, '11111111111', '2222222222222', '0000000000000', '00000000000000000000000000',
	    '000000000000000000000000000'),
	(2, '11111111112', '2222222222223', '0000000000001', '00000000000000000000000001',
	    '000000000000000000000000041'),
	(3, 'NQm6nKp8qFC', '6222222222222', '4000000000000', '3ZZZZZZZZZZZZZZZZZZZZZZZZZ',
	    'FZZZZZZZZZZZZZZZZZZZZZZZZW1'),
	(4, 'NQm6nKp8qFD', 'bzzzzzzzzzzzz', '7ZZZZZZZZZZZZ', '40000000000000000000000000',
	    'G00000000000000000000000002'),
	(5, 'jpXCZedGfVQ', '3kxnlhr3gxq23', '00CMXB6TAK4SA', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ',
	    'ZZZZZZZZZZZZZZZZZZZZZZZZZW3'),
	(6, '1111111NVpb', '3kxn-lhr-3gxq-23', '00cmxb6tak4sa', '01ARZ3NDEKTSV4RRFFQ69G5FAV',
	    'C8EE934SR007G5Q94QKKXFRFV8B'),
	(7, NULL, NULL, NULL, NULL, NULL),
	(8, 'NQm6nKp8qFD', NULL, '7ZZZZZZZZZZZZ', NULL, 'c8ee934sr0o7g5q94qkkxfrfvbz');
