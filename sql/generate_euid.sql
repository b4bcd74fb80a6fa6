-- generate_euid(extension): tenants with different extensions in the same millisecond do not wait
-- on each other (an overflow would be an error here), and each extension's IDs increase in the
-- order they were made; IDs of different extensions are distinct.
SET idtypes.on_overflow = 'error';
CREATE TEMP TABLE ge AS
SELECT i, CASE WHEN i % 3 = 0 THEN NULL ELSE i % 3 END AS ext,
       CASE WHEN i % 3 = 0 THEN generate_euid() ELSE generate_euid(i % 3) END AS id
FROM generate_series(1, 30000) i;
SELECT count(*) AS made, count(DISTINCT id) AS distinct_ids,
       count(DISTINCT euid_extension(id)) AS extensions
FROM ge;
-- In one millisecond the three tenants interleave.
SELECT count(*) > 1000 AS interleaved FROM (
	SELECT euid_timestamp(id) AS ms, ext, lag(ext) OVER (ORDER BY i) AS prev_ext,
	       lag(euid_timestamp(id)) OVER (ORDER BY i) AS prev_ms FROM ge) s
WHERE ms = prev_ms AND ext IS DISTINCT FROM prev_ext;
-- Per extension: strictly increasing in the order of the calls; the extension kept.
SELECT ext, bool_and(id > prev) AS increasing, bool_and(euid_extension(id) IS NOT DISTINCT FROM ext) AS kept
FROM (SELECT i, ext, id, lag(id) OVER (PARTITION BY ext ORDER BY i) AS prev FROM ge) s
WHERE prev IS NOT NULL
GROUP BY ext ORDER BY ext;
RESET idtypes.on_overflow;
