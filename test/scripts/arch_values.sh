#!/usr/bin/env bash
# arch_values.sh: values are portable between CPU architectures. The files in test/arch/ were made
# on amd64 (IDTYPES_ARCH_WRITE=1 makes them anew); on every architecture this script checks that
#   - the binary COPY file made on amd64 loads and prints the same text as there, and a binary COPY
#     made here is that file byte for byte (so amd64 loads what this architecture writes);
#   - <type>_hash and <type>_hash_extended give amd64's values, hash partitions hold the same rows,
#     and the cross-type hash functions of the operator families (uuid_hash_as_ulid, ...) equal the
#     types' own; core's uuid_hash of the same bytes equals ours on a little-endian CPU only (it
#     hashes the bytes in the CPU's order: the difference is core's, and documented);
#   - pg_dump prints amd64's dump (the same on every major, but for its session settings).
#
# Run by test/run_tests.sh (PGHOST, PGPORT, PGUSER, PGBIN set).
set -euo pipefail
trap '' PIPE
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/report.sh"
. "$here/../lib/nodes.sh"

fixtures=$(cd "$here/../arch" && pwd)
major=$(server_major)
write=${IDTYPES_ARCH_WRITE:-0}
db=idt_arch_$$
work=$(mktemp -d)
export PGTZ=UTC
q() { "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -At -d "$db" "$@"; }
trap '"$PGBIN/psql" -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

# The server's architecture and byte order, from its program's ELF header (byte 5: 1 little-endian,
# 2 big-endian; bytes 18-19: the machine): this script may run on another CPU than the server
# (scripts/sysroot.sh runs the tests on the host and the server under qemu-user).
elf_byte() { od -An -tu1 -j "$1" -N 1 "$PGBIN/postgres" | tr -d ' '; }
if [ "$(elf_byte 5)" = 1 ]; then endian=little; else endian=big; fi
case $(elf_byte 18).$(elf_byte 19) in
62.0) server_arch=amd64 ;; 3.0) server_arch=i386 ;; 183.0) server_arch=arm64 ;; 0.22) server_arch=s390x ;;
*) server_arch="ELF machine $(elf_byte 18).$(elf_byte 19)" ;;
esac
echo "architecture: $server_arch, $endian-endian; PostgreSQL $major"

"$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE $db TEMPLATE template0"
q <<'SQL'
CREATE EXTENSION idtypes;
CREATE TABLE vals (n int PRIMARY KEY, a uid11, b timeid, c ulidflake, d ulid, e euid);
SQL
q -v tab=vals -f "$here/../../t/boundary_rows.sql"
q <<'SQL'
-- 300 rows of every bit pattern (md5 of n), each 64-bit one across the whole range
INSERT INTO vals
SELECT 100 + i,
       ('x' || substr(m, 1, 16))::bit(64)::bigint::uid11,
       (('x' || substr(m, 1, 16))::bit(64)::bigint & 9223372036854775807)::timeid,
       (('x' || substr(m, 17, 16))::bit(64)::bigint & 9223372036854775807)::ulidflake,
       m::uuid::ulid,
       m::uuid::euid
FROM (SELECT i, md5(i::text) AS m FROM generate_series(1, 300) i) s;
CREATE INDEX vals_a ON vals (a);
CREATE INDEX vals_d ON vals USING hash (d);
CREATE INDEX vals_e ON vals USING brin (e);
-- hash partitions on a 64-bit and a 128-bit type
CREATE TABLE hp_a (n int, a uid11) PARTITION BY HASH (a);
CREATE TABLE hp_d (n int, d ulid) PARTITION BY HASH (d);
DO $$
BEGIN
	FOR r IN 0..3 LOOP
		EXECUTE format('CREATE TABLE hp_a_%s PARTITION OF hp_a FOR VALUES WITH (MODULUS 4, REMAINDER %s)', r, r);
		EXECUTE format('CREATE TABLE hp_d_%s PARTITION OF hp_d FOR VALUES WITH (MODULUS 4, REMAINDER %s)', r, r);
	END LOOP;
END $$;
INSERT INTO hp_a SELECT n, a FROM vals;
INSERT INTO hp_d SELECT n, d FROM vals;
SQL

q -c "COPY (SELECT * FROM vals ORDER BY n) TO STDOUT" >"$work/values.txt"
q -c "COPY (SELECT * FROM vals ORDER BY n) TO STDOUT (FORMAT binary)" >"$work/values.bin"
# Our hashes (and the operator families' cross-type ones), and where the hash partitions put rows.
q >"$work/hashes.txt" <<'SQL'
SELECT n, uid11_hash(a), uid11_hash_extended(a, 42), timeid_hash(b), timeid_hash_extended(b, 42),
       ulidflake_hash(c), ulidflake_hash_extended(c, 42), ulid_hash(d), ulid_hash_extended(d, 42),
       euid_hash(e), euid_hash_extended(e, 42)
FROM vals ORDER BY n;
SELECT 'hp_a', n, tableoid::regclass FROM hp_a ORDER BY n;
SELECT 'hp_d', n, tableoid::regclass FROM hp_d ORDER BY n;
SQL
# Without what differs between majors and runs: the version lines, the session settings, psql's
# \restrict key.
dump() { "$PGBIN/pg_dump" --no-owner --no-privileges -d "$db" | grep -vE '^(-- Dumped (from|by)|SET |\\(un)?restrict )'; }
dump >"$work/dump.sql"

if [ "$write" = 1 ]; then
	cp "$work/values.txt" "$work/values.bin" "$work/hashes.txt" "$fixtures/"
	cp "$work/dump.sql" "$fixtures/dump.sql"
	echo "arch_values.sh: wrote the fixtures in $fixtures (from $server_arch, PostgreSQL $major)"
	exit 0
fi

# The text, and the binary file amd64 made, loaded here.
if cmp -s "$work/values.txt" "$fixtures/values.txt"; then
	ok "the values print as on amd64 ($(wc -l <"$work/values.txt") rows)"
else
	bad "the values print otherwise than on amd64: $(diff "$fixtures/values.txt" "$work/values.txt" | head -n 6)"
fi
q -c "CREATE TABLE loaded (LIKE vals)"
q -c "COPY loaded FROM STDIN (FORMAT binary)" <"$fixtures/values.bin"
q -c "COPY (SELECT * FROM loaded ORDER BY n) TO STDOUT" >"$work/loaded.txt"
if cmp -s "$work/loaded.txt" "$fixtures/values.txt"; then
	ok "amd64's binary COPY loads here and prints amd64's text"
else
	bad "amd64's binary COPY loaded here prints: $(diff "$fixtures/values.txt" "$work/loaded.txt" | head -n 6)"
fi
if cmp -s "$work/values.bin" "$fixtures/values.bin"; then
	ok "the binary COPY made here is amd64's byte for byte ($(wc -c <"$work/values.bin") bytes)"
else
	bad "the binary COPY made here differs from amd64's: $(cmp "$fixtures/values.bin" "$work/values.bin" 2>&1 | head -n 1)"
fi
# Binary send of what came in through binary receive: the round trip here.
if [ "$(q -c "SELECT count(*) FROM loaded l JOIN vals v USING (n)
	WHERE (l.a, l.b, l.c, l.d, l.e) IS NOT DISTINCT FROM (v.a, v.b, v.c, v.d, v.e)")" = "$(q -c "SELECT count(*) FROM vals")" ]; then
	ok "every loaded row equals the row made here from text"
else
	bad "loaded rows differ from the rows made here from text"
fi

# Hashes.
if cmp -s "$work/hashes.txt" "$fixtures/hashes.txt"; then
	ok "every type's hash and hash_extended, and the hash partitions' rows, are amd64's"
else
	bad "hashes or hash partitions differ from amd64's: $(diff "$fixtures/hashes.txt" "$work/hashes.txt" | head -n 6)"
fi
families=$(q <<'SQL'
SELECT count(*) FILTER (WHERE ulid_hash(d) <> uuid_hash_as_ulid(d::uuid)
                        OR ulid_hash_extended(d, 7) <> uuid_hash_extended_as_ulid(d::uuid, 7)
                        OR euid_hash(e) <> uuid_hash_as_euid(e::uuid)
                        OR euid_hash_extended(e, 7) <> uuid_hash_extended_as_euid(e::uuid, 7))
FROM vals WHERE d IS NOT NULL;
SQL
)
if [ "$families" = 0 ]; then
	ok "the hash families' uuid functions equal ulid's and euid's hashes"
else
	bad "$families rows: a uuid hashed in ulid_ops/euid_ops differs from the ID's hash"
fi
core_differs=$(q -c "SELECT count(*) FILTER (WHERE ulid_hash(d) <> uuid_hash(d::uuid)) FROM vals WHERE d IS NOT NULL")
if [ "$endian" = little ] && [ "$core_differs" = 0 ]; then
	ok "core's uuid_hash of the same bytes equals ulid_hash (little-endian)"
elif [ "$endian" = big ] && [ "$core_differs" -gt 0 ]; then
	ok "core's uuid_hash differs from ulid_hash on $core_differs rows (big-endian: core hashes the bytes in the CPU's order; ours, amd64's values)"
else
	bad "core's uuid_hash differs from ulid_hash on $core_differs rows on a $endian-endian CPU"
fi

# pg_dump.
if cmp -s "$work/dump.sql" "$fixtures/dump.sql"; then
	ok "pg_dump prints amd64's dump ($(wc -l <"$work/dump.sql") lines)"
else
	bad "pg_dump prints otherwise than on amd64: $(diff "$fixtures/dump.sql" "$work/dump.sql" | head -n 8)"
fi
finish 8
