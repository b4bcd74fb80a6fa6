-- aliases: the functions named after xid and tid have aliases named after their types (xid and
-- tid are also PostgreSQL's system types), and generate_uid11() (random, not time-ordered) one
-- that says so: generate_uid11_random(). Each alias is the same C function as its original,
-- with the same arguments, result and properties, a comment naming the original, and gives the
-- same results.

SELECT a.proname AS alias, pg_get_function_identity_arguments(a.oid) AS args, o.proname AS original,
       a.prosrc = o.prosrc AND a.probin = o.probin AS same_c_function,
       a.prorettype = o.prorettype AND a.provolatile = o.provolatile
         AND a.proisstrict = o.proisstrict AND a.proparallel = o.proparallel
         AND a.proleakproof = o.proleakproof AND a.procost = o.procost AND a.prorows = o.prorows
         AS same_properties,
       a.provolatile, a.proparallel,
       obj_description(a.oid, 'pg_proc') LIKE 'alias of ' || o.proname || '(%' AS comment_names_original
FROM (VALUES ('generate_uid11_xid', 'generate_xid'), ('generate_uid11_xid_at', 'generate_xid_at'),
             ('uid11_timestamp', 'xid_timestamp'), ('uid11_random', 'xid_random'),
             ('uid11_prefix_time_range', 'xid_prefix_time_range'),
             ('generate_uid11_random', 'generate_uid11'),
             ('generate_timeid', 'generate_tid'), ('generate_timeid_at', 'generate_tid_at')) v(alias, original)
JOIN pg_proc a ON a.proname = v.alias
JOIN pg_proc o ON o.proname = v.original AND o.proargtypes = a.proargtypes
ORDER BY 1, 2;

-- the same results
SELECT uid11_timestamp('NQm6nKp8qFD') = xid_timestamp('NQm6nKp8qFD') AS same_timestamp,
       uid11_random('NQm6nKp8qFD') = xid_random('NQm6nKp8qFD') AS same_random,
       uid11_prefix_time_range('5cr') = xid_prefix_time_range('5cr') AS same_time_range,
       timeid_clock_id(generate_timeid(7)) AS clock_id,
       timeid_timestamp(generate_timeid_at('2024-07-19 16:40:46.480310+00', 5))
         = '2024-07-19 16:40:46.480310+00' AS timeid_at,
       timeid_clock_id(generate_timeid_at('2024-07-19 16:40:46.480310+00', 5)) AS clock_id_at,
       abs(extract(epoch FROM uid11_timestamp(generate_uid11_xid()) - clock_timestamp())) < 60 AS xid_now,
       uid11_timestamp(generate_uid11_xid_at('2026-01-02 03:04:05.678+00'))
         = '2026-01-02 03:04:05.678+00' AS xid_at,
       abs(extract(epoch FROM timeid_timestamp(generate_timeid()) - clock_timestamp())) < 60 AS timeid_now;
-- monotonic with the original: one state behind both names
SELECT generate_xid() < generate_uid11_xid() AND generate_uid11_xid() < generate_xid() AS xid_increasing,
       generate_tid() < generate_timeid() AND generate_timeid() < generate_tid() AS tid_increasing;

-- generate_uid11()'s comment names its alias, and says its IDs are not time-ordered
SELECT obj_description('generate_uid11()'::regprocedure, 'pg_proc') AS uid11_comment;
