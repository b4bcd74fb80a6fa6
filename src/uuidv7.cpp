/*
 * uuidv7.cpp: the functions of the extension idtypes_uuidv7: PostgreSQL 18's uuidv7(),
 * uuidv7(interval), uuid_extract_timestamp() and uuid_extract_version() for 15 to 17, with 18's
 * bytes. From 18 on they call core's own (compat.h: IDT_CORE_HAS_UUIDV7), so a database moved to
 * 18 by pg_upgrade or a dump keeps one uuidv7() clock per backend, core's.
 */
#include <ctime>

#include "glue.h"
#include "generate/state.h"
#include "idtypes/formats.hpp"

extern "C" {
#include "datatype/timestamp.h"
#include "utils/fmgrprotos.h"
#include "utils/timestamp.h"
}

#if !IDT_CORE_HAS_UUIDV7
namespace
{

constexpr std::int64_t ns_per_us = 1000;
constexpr std::int64_t ns_per_ms = 1000000;
/* Unix epoch in PostgreSQL's TimestampTz (µs since 2000-01-01) */
constexpr TimestampTz unix_epoch_ts = -glue::unix_to_pg_us;
/* the last ms a UUIDv7 holds, in TimestampTz */
constexpr TimestampTz uuidv7_max_ts =
	static_cast<TimestampTz>(idt::ulid_max_ms) * 1000 + unix_epoch_ts;

/*
 * The time for a UUIDv7: CLOCK_REALTIME in ns, at least idt::uuidv7_min_step_ns past the one this
 * backend read before (core 18's rule, so that a backend's UUIDv7s increase).
 */
std::int64_t
ascending_ns()
{
	static std::int64_t previous_ns = 0;
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	previous_ns = idt::uuidv7_ascending_ns(
		previous_ns, static_cast<std::int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec);
	return previous_ns;
}

/*
 * The UUIDv7 of a Unix time in ms and the ns past it. The 62 random bits come from the
 * generators' ChaCha20 stream keyed from pg_strong_random() (generate/random.cpp), as
 * generate_ulid()'s do: core 18 calls pg_strong_random() for each, a system call that makes
 * uuidv7() cost as much as gen_random_uuid().
 */
Datum
uuidv7_of(std::int64_t unix_ms, std::int64_t sub_ms_ns)
{
	return PointerGetDatum(
		glue::make_id128(idt::uuidv7_at(static_cast<std::uint64_t>(unix_ms),
										static_cast<std::uint32_t>(sub_ms_ns), gen::random64())));
}

} // namespace
#endif

extern "C" {

PG_FUNCTION_INFO_V1(idtypes_uuidv7);
Datum
idtypes_uuidv7(PG_FUNCTION_ARGS)
{
#if IDT_CORE_HAS_UUIDV7
	return uuidv7(fcinfo);
#else
	(void) fcinfo;
	const std::int64_t ns = ascending_ns();
	return uuidv7_of(ns / ns_per_ms, ns % ns_per_ms);
#endif
}

PG_FUNCTION_INFO_V1(idtypes_uuidv7_interval);
Datum
idtypes_uuidv7_interval(PG_FUNCTION_ARGS)
{
#if IDT_CORE_HAS_UUIDV7
	return uuidv7_interval(fcinfo);
#else
	const Interval *shift = PG_GETARG_INTERVAL_P(0);
	const std::int64_t ns = ascending_ns();
	if (!idt_interval_is_finite(shift))
		ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
						errmsg("interval out of range for UUID version 7"),
						errdetail("UUID version 7 does not support infinite intervals.")));
	/* The shift as timestamptz + interval does it (the session's time zone for days and months),
	 * at µs; the ns below the µs carried over. */
	const TimestampTz ts = DatumGetTimestampTz(DirectFunctionCall2(
		timestamptz_pl_interval, TimestampTzGetDatum(ns / ns_per_us + unix_epoch_ts),
		PG_GETARG_DATUM(0)));
	if (ts < unix_epoch_ts || ts > uuidv7_max_ts)
		ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
						errmsg("timestamp out of range for UUID version 7"),
						errdetail("UUID version 7 supports timestamps from 1970-01-01 to "
								  "approximately year 10889.")));
	/* in ms and ns past it: the ns of years after 2262 overflow 64 bits */
	const std::int64_t unix_us = ts - unix_epoch_ts;
	return uuidv7_of(unix_us / 1000, unix_us % 1000 * ns_per_us + ns % ns_per_us);
#endif
}

PG_FUNCTION_INFO_V1(idtypes_uuid_extract_timestamp);
Datum
idtypes_uuid_extract_timestamp(PG_FUNCTION_ARGS)
{
#if IDT_CORE_HAS_UUIDV7
	return uuid_extract_timestamp(fcinfo);
#else
	std::int64_t unix_us;
	if (!idt::uuid_time_unix_us(glue::to_u128(PG_GETARG_ID128_P(0)), unix_us))
		PG_RETURN_NULL();
	PG_RETURN_TIMESTAMPTZ(unix_us + unix_epoch_ts);
#endif
}

PG_FUNCTION_INFO_V1(idtypes_uuid_extract_version);
Datum
idtypes_uuid_extract_version(PG_FUNCTION_ARGS)
{
#if IDT_CORE_HAS_UUIDV7
	return uuid_extract_version(fcinfo);
#else
	const int version = idt::uuid_rfc_version(glue::to_u128(PG_GETARG_ID128_P(0)));
	if (version < 0)
		PG_RETURN_NULL();
	PG_RETURN_INT16(static_cast<int16>(version));
#endif
}

} /* extern "C" */
