/* in_range.cpp: btree in_range support (function 3) with an interval offset, by the IDs' time. */
#include "glue.h"

extern "C" {
#include "utils/builtins.h" /* in_range_timestamptz_interval */
}

/*
 * The time accessors of types64.cpp and types128.cpp: each gives an ID's time at its format's
 * unit (ms; microseconds for timeid; the xid profile's ms for uid11), which is what a window
 * offset is measured against.
 */
extern "C" {
PGDLLEXPORT Datum xid_timestamp(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum timeid_timestamp(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum ulidflake_timestamp(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum ulid_timestamp(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum euid_timestamp(PG_FUNCTION_ARGS);
}

namespace
{

/*
 * in_range(val, base, offset, sub, less) is core's timestamptz in_range applied to the two IDs'
 * times: val's time <= (or >=, when !less) base's time - (or +, when !sub) offset. So a negative
 * offset raises core's error (22013) and month and day offsets are calendar steps in the session's
 * time zone, as for timestamptz. It agrees with the btree order because the time is the most
 * significant part of every ID: a larger ID never has an earlier time.
 */
template <PGFunction time_of>
Datum
id_in_range_interval(FunctionCallInfo fcinfo)
{
	const Datum val = DirectFunctionCall1(time_of, PG_GETARG_DATUM(0));
	const Datum base = DirectFunctionCall1(time_of, PG_GETARG_DATUM(1));
	return DirectFunctionCall5(in_range_timestamptz_interval, val, base, PG_GETARG_DATUM(2),
							   PG_GETARG_DATUM(3), PG_GETARG_DATUM(4));
}

} /* namespace */

/* The fmgr entry points, each named after its SQL object: one per type, with its time accessor. */
extern "C" {

PG_FUNCTION_INFO_V1(uid11_in_range_interval);
Datum
uid11_in_range_interval(PG_FUNCTION_ARGS)
{
	return id_in_range_interval<xid_timestamp>(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_in_range_interval);
Datum
timeid_in_range_interval(PG_FUNCTION_ARGS)
{
	return id_in_range_interval<timeid_timestamp>(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_in_range_interval);
Datum
ulidflake_in_range_interval(PG_FUNCTION_ARGS)
{
	return id_in_range_interval<ulidflake_timestamp>(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_in_range_interval);
Datum
ulid_in_range_interval(PG_FUNCTION_ARGS)
{
	return id_in_range_interval<ulid_timestamp>(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_in_range_interval);
Datum
euid_in_range_interval(PG_FUNCTION_ARGS)
{
	return id_in_range_interval<euid_timestamp>(fcinfo);
}

} /* extern "C" */
