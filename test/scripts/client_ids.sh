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
# Exits 77 where python3, or node 18 or later, is missing. The checks are test/clients/client_ids.py
# (and client_ids.sql, the server's side).
#
# Run by test/run_tests.sh (PGHOST, PGPORT, PGUSER, PGBIN set).
set -euo pipefail
if ! command -v python3 >/dev/null; then
	echo "client_ids.sh: no python3"
	exit 77
fi
exec python3 "$(dirname "$0")/../clients/client_ids.py"
