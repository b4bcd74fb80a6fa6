-- soft_errors (PostgreSQL 16+): every reject class of every type's text input is a soft error:
-- pg_input_is_valid() says false, and pg_input_error_info() gives the message, detail, hint and
-- SQLSTATE of the hard error, which hard() catches here for comparison (a missing detail or hint
-- reads '' there). The range types read their bounds through the same input functions, so their
-- reject classes are soft too.

-- The hard error's fields, or '00000' and the canonical text when the input is accepted.
CREATE FUNCTION hard(typ text, input text, OUT result text, OUT state text, OUT message text,
                     OUT detail text, OUT hint text)
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('SELECT %L::%s::text', input, typ) INTO result;
	state := '00000';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT,
	                        detail = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT;
END
$$;

CREATE TABLE cases (typ text, class text, input text);
INSERT INTO cases VALUES
	-- uid11
	('uid11', 'valid', 'NQm6nKp8qFD'), ('uid11', 'valid max', 'jpXCZedGfVQ'),
	('uid11', 'short', '1111111111'), ('uid11', 'long', '111111111111'), ('uid11', 'empty', ''),
	('uid11', 'symbol', 'NQm6nKl8qFD'), ('uid11', 'symbol 0', '0jpXCZedGfV'),
	('uid11', 'whitespace', ' NQm6nKp8qF'), ('uid11', 'non-ASCII', 'ééééé'),
	('uid11', 'out of range', 'jpXCZedGfVR'), ('uid11', 'out of range', 'zzzzzzzzzzz'),
	-- timeid
	('timeid', 'valid', '3kxnlhr3gxq23'), ('timeid', 'valid dashed', '3kxn-lhr-3gxq-23'),
	('timeid', 'short', '222222222222'), ('timeid', 'long', '22222222222222'), ('timeid', 'empty', ''),
	('timeid', 'symbol', '1kxnlhr3gxq23'), ('timeid', 'upper case', '3KXNLHR3GXQ23'),
	('timeid', 'dash position', '3kxnl-hr-3gxq-23'), ('timeid', 'dash missing', '3kxn-lhr-3gxq23'),
	('timeid', 'non-ASCII', '3kxn-lhr-3gxq-2é'),
	('timeid', 'out of range', 'c222222222222'), ('timeid', 'out of range dashed', 'c222-222-2222-22'),
	-- ulidflake
	('ulidflake', 'valid', '00CMXB6TAK4SA'), ('ulidflake', 'valid lower', '00cmxb6tak4sa'),
	('ulidflake', 'short', '000000000000'), ('ulidflake', 'long', '00000000000000'),
	('ulidflake', 'empty', ''), ('ulidflake', 'symbol', '00CMXB6TAK4S*'),
	('ulidflake', 'alias O', '0OCMXB6TAK4SA'), ('ulidflake', 'alias I', '00CMXB6TAK4SI'),
	('ulidflake', 'U', '00CMXB6TAK4SU'), ('ulidflake', 'non-ASCII', '00CMXB6TAK4😀'),
	('ulidflake', 'out of range', '8000000000000'),
	-- ulid
	('ulid', 'valid', '01ARZ3NDEKTSV4RRFFQ69G5FAV'), ('ulid', 'valid lower', '01arz3ndektsv4rrffq69g5fav'),
	('ulid', 'short', '0000000000000000000000000'), ('ulid', 'long', '000000000000000000000000000'),
	('ulid', 'empty', ''), ('ulid', 'symbol', '01ARZ3NDEKTSV4RRFFQ69G5FA-'),
	('ulid', 'alias L', '0LARZ3NDEKTSV4RRFFQ69G5FAV'), ('ulid', 'U', '01ARZ3NDEKTSV4RRFFQ69G5FAU'),
	('ulid', 'non-ASCII', '01ARZ3NDEKTSV4RRFFQ69G5Fé'),
	('ulid', 'out of range', '80000000000000000000000000'),
	('ulid', 'malformed and too large', '8ZZZZZZZZZZZZZZZZZZZZZZZZ'),
	('ulid', 'uuid text', '0190b6f4-8b5c-7d2a-9f3e-1a2b3c4d5e6f'),
	-- euid
	('euid', 'valid', 'C8EE934SR007G5Q94QKKXFRFV8B'), ('euid', 'valid aliases', 'C8EE934SRoo7G5Q94QKKXFRFV8B'),
	('euid', 'valid no check', 'C8EE934SR007G5Q94QKKXFRFVBZ'),
	('euid', 'short', '00000000000000000000000000'), ('euid', 'long', '0000000000000000000000000000'),
	('euid', 'empty', ''), ('euid', 'symbol', 'C8EE934SR007G5Q94QKKXFRFV8#'),
	('euid', 'U', 'C8EE934SR007G5Q94QKKXFRFU8B'), ('euid', 'check', 'C8EE934SR007G5Q94QKKXFRFV8C'),
	('euid', 'non-ASCII', 'C8EE934SR007G5Q94QKKXFRFV8é'),
	('euid', 'uuid text', '0190B6F48B5C7D2A9F3E1A2B3C4D5E6F'),
	-- the range types: bounds go through the types' input functions
	('uid11range', 'valid', '[NQm6nKp8qFC,NQm6nKp8qFD]'), ('uid11range', 'bad bound', '[NQm6nKp8qFC,NQm6nKp8qFI]'),
	('uid11range', 'out of range bound', '[NQm6nKp8qFC,jpXCZedGfVR]'),
	('timeidrange', 'valid', '[3kxnlhr3gxq23,)'), ('timeidrange', 'bad bound', '[3kxn-lhr3-gxq-23,)'),
	('ulidflakerange', 'bad bound', '(,00CMXB6TAK4SU]'),
	('ulidrange', 'bad bound', '[01ARZ3NDEKTSV4RRFFQ69G5FAV,01ARZ3NDEKTSV4RRFFQ69G5FA)'),
	('euidrange', 'bad bound', '[C8EE934SR007G5Q94QKKXFRFV8C,]');

-- One row per case: a valid input is valid and has no error; a rejected one is not valid, and
-- its soft error equals its hard error field by field.
SELECT c.typ, c.class, pg_input_is_valid(c.input, c.typ) AS valid, e.sql_error_code AS state,
       e.message IS NOT DISTINCT FROM h.message AND e.detail IS NOT DISTINCT FROM nullif(h.detail, '')
         AND e.hint IS NOT DISTINCT FROM nullif(h.hint, '')
         AND coalesce(e.sql_error_code, '00000') = h.state AS same_as_hard
FROM cases c, LATERAL pg_input_error_info(c.input, c.typ) e, LATERAL hard(c.typ, c.input) h
ORDER BY c.typ, c.class, c.input;

-- What a soft error says, for one case of each type.
SELECT c.typ, e.message, e.detail
FROM (VALUES ('uid11', 'jpXCZedGfVR'), ('timeid', '3kxnl-hr-3gxq-23'), ('ulidflake', '00CMXB6TAK4SU'),
             ('ulid', '0000000000000000000000000'), ('euid', 'C8EE934SR007G5Q94QKKXFRFV8C')) c(typ, input),
     LATERAL pg_input_error_info(c.input, c.typ) e;

-- A UUID in text, softly rejected with the same hint as the hard error.
SELECT c.typ, e.detail, e.hint
FROM (VALUES ('ulid', '0190b6f4-8b5c-7d2a-9f3e-1a2b3c4d5e6f'), ('euid', '0190B6F48B5C7D2A9F3E1A2B3C4D5E6F')) c(typ, input),
     LATERAL pg_input_error_info(c.input, c.typ) e;

-- A 1 MB input is rejected softly too, and names its length.
SELECT typ, pg_input_is_valid(repeat('1', 1000000), typ) AS valid,
       (pg_input_error_info(repeat('1', 1000000), typ)).detail
FROM (VALUES ('uid11'), ('timeid'), ('ulidflake'), ('ulid'), ('euid')) v(typ);
