-- members: the planner support calls only the extension's own functions, found by OID among its
-- members (pg_depend), and sees a change of membership (ALTER EXTENSION ADD and DROP, which
-- invalidate no cache) in the next plan. A prefix that is a stable expression on a partitioned
-- table is rewritten for run-time pruning with ulidrange_lo and ulidrange_hi.
CREATE TABLE mem_p (id ulid) PARTITION BY RANGE (id);
CREATE TABLE mem_p_0 PARTITION OF mem_p FOR VALUES FROM (MINVALUE) TO ('40000000000000000000000000');
CREATE TABLE mem_p_4 PARTITION OF mem_p FOR VALUES FROM ('40000000000000000000000000') TO (MAXVALUE);
SET idtypes_test.prefix = '4B';
-- Whether the plan has the rewrite.
CREATE FUNCTION mem_rewritten() RETURNS bool LANGUAGE plpgsql AS $$
DECLARE line text; found bool := false;
BEGIN
	FOR line IN EXPLAIN (COSTS OFF) SELECT * FROM mem_p WHERE id ^@ current_setting('idtypes_test.prefix') LOOP
		found := found OR line LIKE '%ulidrange_lo%';
	END LOOP;
	RETURN found;
END $$;
SELECT mem_rewritten() AS member;
-- No longer a member: not called.
ALTER EXTENSION idtypes DROP FUNCTION ulidrange_lo(ulidrange);
SELECT mem_rewritten() AS dropped;
-- After an unrelated change to pg_proc (the list is read again), added back: called again.
CREATE FUNCTION mem_unrelated() RETURNS int LANGUAGE sql AS 'SELECT 1';
SELECT mem_rewritten() AS still_dropped;
ALTER EXTENSION idtypes ADD FUNCTION ulidrange_lo(ulidrange);
SELECT mem_rewritten() AS added;
DROP FUNCTION mem_unrelated();
DROP FUNCTION mem_rewritten();
DROP TABLE mem_p;
RESET idtypes_test.prefix;
