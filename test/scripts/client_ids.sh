#!/usr/bin/env bash
# client_ids.sh: IDs made in the application (clients/python/idtypes/ids.py with id_text.py, and clients/node/ids.js)
# agree with the server, both ways, for the five types and both languages (the client side is
# test/clients/ids_client.py and ids_client.mjs, which import the packages as users do: Python's
# `idtypes` from clients/python, Node's `idtypes/ids` through package.json's "exports"):
#  1. client-made IDs (each generator with and without its node id, clock id, sid, extension or
#     monotonic mode) parse in the server: its canonical text, value, <type>_timestamp() and field
#     (xid_random, timeid_clock_id, ulidflake_sid, euid_extension) equal the client's reading, the
#     time lies between the server's clock before and after they were made, and the requested
#     fields read back (uid11's and ulidflake's node id in the top 5 bits of the field);
#     and a ulid's 12 bits after the ms are the ms's fraction (in 4096ths) at the call;
#  2. client-made IDs sort in time order among server-made ones: 50 of each type from the type's
#     generator, then (after a pause) 50 from the client, then 50 from the server again: ordered by
#     the type's btree order, the three groups come out in that order;
#  3. server-made IDs (1,000 from each type's generator, plus its variants: clock ids, sids,
#     extensions, generate_ulid_monotonic(), random values, and the minimum and maximum) read in the
#     client with the same value, time and field, and the client's canonical text is the server's;
#  4. inputs: each text of a list of malformed and out-of-range inputs (wrong length, bad symbols,
#     wrong case where the type is case-sensitive, misplaced dashes, a wrong EUID check symbol, a
#     first symbol out of range, pasted spaces) and of accepted non-canonical ones (lower case, the
#     TID display form, EUID aliases and the "no check" symbol) gets the same answer from both: the
#     same value, or rejected by both with the same SQLSTATE (22P02 or 22003);
#  5. the monotonic generators: 10,000 IDs in a row from one process are strictly increasing (in
#     the server's order) and distinct, with their clock id, sid, node id or extension read back.
# Exits 77 where python3, or node 18 or later, is missing.
#
# Run by test/run_tests.sh (PGHOST, PGPORT, PGUSER, PGBIN set).
set -euo pipefail
trap '' PIPE
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/report.sh"

if ! command -v python3 >/dev/null; then
	echo "client_ids.sh: no python3"
	exit 77
fi
if ! command -v node >/dev/null || [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 18 ]; then
	echo "client_ids.sh: no node 18 or later"
	exit 77
fi

db=idt_client_ids_$$
work=$(mktemp -d)
q() { "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -At -d "$db" "$@"; }
trap '"$PGBIN/psql" -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
"$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE $db"

# The Node.js package as an installed one: idtypes/ids resolves through its "exports".
mkdir -p "$work/node_modules"
ln -s "$top/clients/node" "$work/node_modules/idtypes"
cp "$here/../clients/ids_client.mjs" "$work/"
client() { # client <python|node> <args>...
	local lang=$1
	shift
	if [ "$lang" = python ]; then
		PYTHONPATH="$top/clients/python" python3 "$here/../clients/ids_client.py" "$@"
	else
		node "$work/ids_client.mjs" "$@"
	fi
}
types="uid11 timeid ulidflake ulid euid"

# sv(type, text): what the server reads in a text, written as the clients write theirs:
# canonical|hex of the value|time in Unix µs|field ("-" for NULL), or ERR:<SQLSTATE>.
q <<'SQL'
CREATE EXTENSION idtypes;
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
CREATE FUNCTION us(v text) RETURNS bigint IMMUTABLE LANGUAGE sql AS $$
	SELECT CASE WHEN v ~ '^[^|]+\|[0-9a-f]+\|-?[0-9]+\|' THEN split_part(v, '|', 3)::bigint END $$;
CREATE TABLE c1 (lang text, type text, kind text, t text, cview text);
CREATE TABLE s (lang text, type text, g int, t text);
CREATE TABLE m (lang text, type text, kind text, seq int, t text);
SQL

now_us() { q -c "SELECT floor(extract(epoch FROM clock_timestamp()) * 1000000)::bigint"; }

# ---- 1. client-made IDs in the server -----------------------------------------------------------

# type, the generator's options, what must hold of each of its IDs (id: the value in SQL; ~ for a
# space).
kinds="uid11 - true
uid11 node=7 xid_random(id)>>17=7
timeid - timeid_clock_id(id)>=512~AND~timeid_clock_id(id)<=991
timeid clock=0 timeid_clock_id(id)=0
timeid clock=1023 timeid_clock_id(id)=1023
ulidflake - true
ulidflake sid=31 ulidflake_sid(id)=31
ulidflake node=7 (id::bigint&1048575)>>15=7
ulidflake sid=5,node=30 ulidflake_sid(id)=5~AND~(id::bigint&1048575)>>15=30
ulid - true
ulid monotonic true
euid - euid_extension(id)~IS~NULL
euid ext=0 euid_extension(id)=0
euid ext=1 euid_extension(id)=1
euid ext=16383 euid_extension(id)=16383
euid ext=16384 euid_extension(id)=16384
euid ext=32767 euid_extension(id)=32767"

for lang in python node; do
	t0=$(now_us)
	awk '{ print $1, $2, 100 }' <<<"$kinds" | client "$lang" make | cut -f1,2,4 >"$work/made"
	t1=$(now_us)
	cut -f1,3 "$work/made" | client "$lang" view plain | cut -f3 | paste "$work/made" - |
		awk -v l="$lang" '{ print l "\t" $0 }' | q -c "\copy c1 FROM pstdin"
	sql=""
	for type in $types; do
		checks=$(grep "^$type " <<<"$kinds" | awk '{ gsub("~", " ", $3); printf " WHEN %s THEN %s", "'"'"'" $2 "'"'"'", $3 }')
		sql+="${sql:+ UNION ALL }SELECT '$type', count(*), count(*) FILTER (WHERE sv IS DISTINCT FROM cview),
				count(*) FILTER (WHERE NOT coalesce(us(cview) BETWEEN floor($t0 / 1000.0) * 1000 AND $t1, false)),
				count(*) FILTER (WHERE NOT coalesce(CASE kind $checks END, false))
			FROM (SELECT *, CASE WHEN sv NOT LIKE 'ERR:%' THEN t::$type END AS id
				FROM (SELECT *, sv(type, t) FROM c1 WHERE lang = '$lang' AND type = '$type') a) s"
	done
	while read -r type n wrong outside fields; do
		want=$((100 * $(grep -c "^$type " <<<"$kinds")))
		if [ "$n" = "$want" ] && [ "$wrong" = 0 ] && [ "$outside" = 0 ] && [ "$fields" = 0 ]; then
			ok "$lang: $n client-made ${type}s ($(grep "^$type " <<<"$kinds" | cut -d' ' -f2 | paste -sd' ' -)) parse in the server with the client's text, value, time and field; times within the generation's, fields as asked"
		else
			q -c "SELECT t, cview, sv(type, t) FROM c1 WHERE lang = '$lang' AND type = '$type' AND sv(type, t) IS DISTINCT FROM cview LIMIT 3" | sed 's/^/    /'
			bad "$lang: client-made ${type}s: $n of $want made, $wrong read otherwise by the server, $outside with a time outside [$t0, $t1] µs, $fields without the fields asked for"
		fi
	done <<<"$(q -F' ' -c "$sql")"
done

# A ulid's 12 bits after the ms are the ms's fraction at the call (in 4096ths): each of 2,000 in a
# row is at or after the wall clock just before its call, and at most the clock just before the
# next call (or the last one's + 1, where two calls fall in one 4096th).
q -c "CREATE TABLE uf (lang text, seq int, t ulid, before_us bigint)"
for lang in python node; do
	echo "ulid - 2000" | client "$lang" make | awk -v l="$lang" '{ print l "\t" $3 "\t" $4 "\t" $5 }' |
		q -c "\copy uf FROM pstdin"
	# Floor and ceiling by div() on numeric: microseconds since 1970 times 4096 pass 2^63 in 2041
	# (bigint out of range), and from 2047 numeric's "/" rounds that product's quotient to an integer
	# (it keeps 16 significant digits), so floor() of it could be one too high.
	got=$(q -c "SELECT count(*), count(*) FILTER (WHERE NOT (v >= div(before_us::numeric * 4096, 1000)
			AND (after_us IS NULL OR v <= greatest(div(after_us::numeric * 4096 + 999, 1000), pv + 1))))
		FROM (SELECT *, lead(before_us) OVER w AS after_us, lag(v) OVER w AS pv
			FROM (SELECT *, ('x' || substr(encode(t::bytea, 'hex'), 1, 15))::bit(60)::bigint AS v
				FROM uf WHERE lang = '$lang') a WINDOW w AS (ORDER BY seq)) b")
	if [ "$got" = "2000|0" ]; then
		ok "$lang: 2,000 ulids: the 12 bits after the ms are the ms's fraction at the call"
	else
		bad "$lang: ulids: (made, with a fraction outside the call's time) = $got"
	fi
done

echo "client_ids.sh: client-made IDs in the server: $SECONDS s"

# ---- 2. time order among server-made IDs --------------------------------------------------------

server_group() { # server_group <lang> <group>
	local sql=""
	for type in $types; do
		sql+="INSERT INTO s SELECT '$1', '$type', $2, generate_$([ "$type" = uid11 ] && echo uid11_xid || echo "$type")()::text FROM generate_series(1, 50);"
	done
	q -c "$sql"
}
for lang in python node; do
	server_group "$lang" 1
	sleep 0.05
	for type in $types; do echo "$type - 50"; done | client "$lang" make |
		awk -F'\t' -v l="$lang" '{ print l "\t" $1 "\t2\t" $4 }' | q -c "\copy s FROM pstdin"
	sleep 0.05
	server_group "$lang" 3
	sql=""
	for type in $types; do
		sql+="${sql:+ UNION ALL }SELECT '$type', count(*), count(*) FILTER (WHERE g < p), string_agg(DISTINCT g::text, ',')
			FROM (SELECT g, lag(g) OVER (ORDER BY id) AS p
				FROM (SELECT g, CASE WHEN sv(type, t) NOT LIKE 'ERR:%' THEN t::$type END AS id
					FROM s WHERE lang = '$lang' AND type = '$type') a) x"
	done
	while read -r type n inversions order; do
		if [ "$n" = 150 ] && [ "$inversions" = 0 ]; then
			ok "$lang: 50 client-made ${type}s sort between the server's made before and after (ORDER BY the $type)"
		else
			bad "$lang: $type: of $n IDs in groups $order, $inversions sort before an ID of an earlier group"
		fi
	done <<<"$(q -F' ' -c "$sql")"
done

echo "client_ids.sh: time order: $SECONDS s"

# ---- 3. server-made IDs in the client, and 4. inputs both read alike ----------------------------

q -c "CREATE TABLE srv (type text, t text); CREATE TABLE inp (type text, t text)"
q <<'SQL'
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

-- Inputs: accepted non-canonical forms of server-made IDs, and texts both must reject.
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
SQL
q -c "COPY (SELECT type, encode(convert_to(t, 'UTF8'), 'hex'), sv(type, t) FROM srv ORDER BY type) TO STDOUT" >"$work/srv"
q -c "COPY (SELECT type, encode(convert_to(t, 'UTF8'), 'hex'), sv(type, t) FROM inp ORDER BY type) TO STDOUT" >"$work/inp"

for lang in python node; do
	for set in srv inp; do
		cut -f1,2 "$work/$set" | client "$lang" view >"$work/$set.$lang"
		for type in $types; do
			# type, the server's view, the client's view of each text
			paste <(grep -P "^$type\t" "$work/$set" | cut -f3) <(grep -P "^$type\t" "$work/$set.$lang" | cut -f3) >"$work/pair"
			n=$(wc -l <"$work/pair")
			differ=$(awk -F'\t' '$1 != $2' "$work/pair" | wc -l)
			rejected=$(awk -F'\t' '$1 ~ /^ERR:/ && $1 == $2' "$work/pair" | wc -l)
			if [ "$set" = srv ]; then
				if [ "$n" -ge 1000 ] && [ "$differ" = 0 ] && [ "$rejected" = 0 ]; then
					ok "$lang: $n server-made ${type}s (generators and edge values) read in the client with the server's text, value, time and field"
				else
					awk -F'\t' '$1 != $2 && ++c <= 3 { print "    server " $1 "  client " $2 }' "$work/pair"
					bad "$lang: server-made ${type}s: $differ of $n read otherwise in the client"
				fi
			elif [ "$n" -ge 10 ] && [ "$differ" = 0 ] && [ "$rejected" -ge 5 ] && [ "$rejected" -lt "$n" ]; then
				ok "$lang: $n ${type} inputs read alike: $rejected rejected by both with the same SQLSTATE, $((n - rejected)) accepted by both with the same value"
			else
				paste <(grep -P "^$type\t" "$work/$set" | cut -f2) "$work/pair" | awk -F'\t' '$2 != $3 && ++c <= 5 { print "    " $1 ": server " $2 "  client " $3 }'
				bad "$lang: $type inputs: $differ of $n read otherwise by the client ($rejected rejected by both)"
			fi
		done
	done
done

echo "client_ids.sh: server-made IDs and inputs in the clients: $SECONDS s"

# ---- 5. monotonic within a process --------------------------------------------------------------

mono="uid11 - true
uid11 node=3 xid_random(id)>>17=3
timeid - true
timeid clock=777 timeid_clock_id(id)=777
ulidflake - true
ulidflake sid=13 ulidflake_sid(id)=13
ulidflake sid=13,node=9 ulidflake_sid(id)=13~AND~(id::bigint&1048575)>>15=9
ulid - true
ulid monotonic true
euid - euid_extension(id)~IS~NULL
euid ext=4242 euid_extension(id)=4242"
for lang in python node; do
	awk '{ print $1, $2, 10000 }' <<<"$mono" | client "$lang" make | cut -f1-4 | awk -v l="$lang" '{ print l "\t" $0 }' |
		q -c "\copy m FROM pstdin"
	# One statement a kind: a text the server rejects fails its own kind only.
	sql=""
	while read -r type kind check; do
		sql+="SELECT '$type', '$kind', count(*), count(DISTINCT id),
				count(*) FILTER (WHERE id <= p), count(*) FILTER (WHERE NOT coalesce(${check//\~/ }, false))
			FROM (SELECT t::$type AS id, lag(t::$type) OVER (ORDER BY seq) AS p FROM m
				WHERE lang = '$lang' AND type = '$type' AND kind = '$kind') s;
"
	done <<<"$mono"
	results=$(q -v ON_ERROR_STOP=0 -F' ' <<<"$sql")
	while read -r type kind check; do
		read -r _ _ n distinct down fields <<<"$(grep "^$type $kind " <<<"$results")"
		if [ -z "${n:-}" ]; then
			bad "$lang: $type ($kind): the server rejects some of the 10,000 (above)"
		elif [ "$n" = 10000 ] && [ "$distinct" = 10000 ] && [ "$down" = 0 ] && [ "$fields" = 0 ]; then
			ok "$lang: 10,000 ${type}s ($kind) in a row strictly increase, all distinct$([ "$check" = true ] || echo ", fields read back")"
		else
			bad "$lang: $type ($kind): $n made, $distinct distinct, $down not above the one before, $fields without the fields asked for"
		fi
	done <<<"$mono"
done
echo "client_ids.sh: monotonic generators: $SECONDS s"

finish $((2 * (5 + 1 + 5 + 5 + 5 + 11)))
