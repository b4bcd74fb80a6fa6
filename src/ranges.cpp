/* ranges.cpp: prefix and time ranges, and the ^@ and <@ operators (their planner support is in src/planner/). */
#include "glue.h"
#include "ranges.h"
#include "traits.h"
#include "values.h"

extern "C" {
#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rangetypes.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"
}

namespace
{

using namespace glue;

/* ---- bounds of the operators' right sides ------------------------------------------------ */

/* The prefix's bounds, or a 22P02 error naming the type and saying it is a prefix. */
template <class T>
typename T::range_type
checked_prefix(const char *p, std::size_t n)
{
	const typename T::range_type r = T::prefix(p, n);
	if (r.error != idt::errc::ok)
		glue::report_parse_error(nullptr, {T::name, T::prefix_hint, T::symbols, true, false},
								 pnstrdup(p, n), n, r.error, r.offset);
	return r;
}

/* A range type's cache entry, for the function's declared result type (kept in fn_extra). */
TypeCacheEntry *
result_range_typcache(FunctionCallInfo fcinfo)
{
	auto *typcache = static_cast<TypeCacheEntry *>(fcinfo->flinfo->fn_extra);
	if (typcache == nullptr)
	{
		const Oid rngtypid = get_func_rettype(fcinfo->flinfo->fn_oid);
		typcache = lookup_type_cache(rngtypid, TYPECACHE_RANGE_INFO);
		if (typcache->rngelemtype == nullptr)
			elog(ERROR, "type %u is not a range type", rngtypid);
		fcinfo->flinfo->fn_extra = typcache;
	}
	return typcache;
}

/* '[lo,hi]' or 'empty' as a value of the function's result type. */
template <class T>
Datum
make_id_range(FunctionCallInfo fcinfo, const typename T::range_type &r)
{
	PG_RETURN_RANGE_P(closed_range<T>(result_range_typcache(fcinfo), r));
}

/* PostgreSQL timestamps reach ~294276 AD, past int64 Unix microseconds: clamp first. Every
 * format's era ends long before the clamp, so it changes no result. */
std::int64_t
pg_to_unix_us(TimestampTz t)
{
	constexpr std::int64_t top = PG_INT64_MAX - glue::unix_to_pg_us;
	return (t > top ? top : t) + glue::unix_to_pg_us;
}

/* ---- SQL-callable bodies ----------------------------------------------------------------- */

template <class T>
Datum
id_prefix_range(FunctionCallInfo fcinfo)
{
	text *prefix = PG_GETARG_TEXT_PP(0);
	const typename T::range_type r =
		checked_prefix<T>(VARDATA_ANY(prefix), VARSIZE_ANY_EXHDR(prefix));
	return make_id_range<T>(fcinfo, r);
}

template <class T>
Datum
id_time_range(FunctionCallInfo fcinfo)
{
	RangeType *window = PG_GETARG_RANGE_P(0);
	TypeCacheEntry *tstz = lookup_type_cache(RangeTypeGetOid(window), TYPECACHE_RANGE_INFO);
	RangeBound lower, upper;
	bool empty;
	range_deserialize(tstz, window, &lower, &upper, &empty);
	if (empty)
		return make_id_range<T>(fcinfo, empty_range<T>());
	idt::time_window w = {};
	w.lo_infinite = lower.infinite;
	w.hi_infinite = upper.infinite;
	w.lo_inclusive = lower.inclusive;
	w.hi_inclusive = upper.inclusive;
	if (!lower.infinite)
		w.lo_us = pg_to_unix_us(DatumGetTimestampTz(lower.val));
	if (!upper.infinite)
		w.hi_us = pg_to_unix_us(DatumGetTimestampTz(upper.val));
	return make_id_range<T>(fcinfo, T::time_range(w));
}

template <class T>
Datum
id_starts_with(FunctionCallInfo fcinfo, typename T::value_type v)
{
	text *prefix = PG_GETARG_TEXT_PP(1);
	const char *p = VARDATA_ANY(prefix);
	const std::size_t n = VARSIZE_ANY_EXHDR(prefix);
	const typename T::range_type r = checked_prefix<T>(p, n);
	if (r.empty || v < r.lo || r.hi < v)
		PG_RETURN_BOOL(false);
	if constexpr (T::may_be_inexact)
	{
		if (!r.exact)
			PG_RETURN_BOOL(T::text_starts_with(v, p, n));
	}
	PG_RETURN_BOOL(true);
}

template <class T>
Datum
id_contained(FunctionCallInfo fcinfo, typename T::value_type v)
{
	RangeType *range = PG_GETARG_RANGE_P(1);
	TypeCacheEntry *typcache = range_get_typcache(fcinfo, RangeTypeGetOid(range));
	const typename T::range_type r = closed_bounds<T>(typcache, range);
	PG_RETURN_BOOL(!r.empty && !(v < r.lo) && !(r.hi < v));
}

/* The first (first = true) or last ID of the range; NULL when it holds none. */
template <class T>
Datum
id_range_end(FunctionCallInfo fcinfo, bool first)
{
	RangeType *range = PG_GETARG_RANGE_P(0);
	TypeCacheEntry *typcache = range_get_typcache(fcinfo, RangeTypeGetOid(range));
	const typename T::range_type r = closed_bounds<T>(typcache, range);
	if (r.empty)
		PG_RETURN_NULL();
	return id_to_datum(first ? r.lo : r.hi);
}

/* The lower (lower = true) or upper end of the range's closed [lo, hi]; for an empty range the
 * type's maximum and minimum, so that "lo <= id AND id <= hi" holds for no id (and is false,
 * not NULL, as "id <@ r" is). */
template <class T>
Datum
id_range_bound(FunctionCallInfo fcinfo, bool lower)
{
	RangeType *range = PG_GETARG_RANGE_P(0);
	TypeCacheEntry *typcache = range_get_typcache(fcinfo, RangeTypeGetOid(range));
	const typename T::range_type r = closed_bounds<T>(typcache, range);
	if (r.empty)
		return id_to_datum(lower ? T::max : T::min);
	return id_to_datum(lower ? r.lo : r.hi);
}

/* The smallest ID whose time is at or after ts (at the format's unit); NULL past the format's
 * era. The start of a time partition: [first_at(a), first_at(b)) holds the IDs of [a, b). */
template <class T>
Datum
id_first_at(FunctionCallInfo fcinfo)
{
	idt::time_window w = {};
	w.lo_inclusive = true;
	w.hi_infinite = true;
	w.lo_us = pg_to_unix_us(PG_GETARG_TIMESTAMPTZ(0));
	const typename T::range_type r = T::time_range(w);
	if (r.empty)
		PG_RETURN_NULL();
	return id_to_datum(r.lo);
}

template <class T>
typename T::value_type
arg_id(FunctionCallInfo fcinfo, int n)
{
	return id_from_datum<typename T::value_type>(PG_GETARG_DATUM(n));
}

/* The range type's subtype_diff: a - b as float8. */
template <class T>
Datum
id_range_subdiff(FunctionCallInfo fcinfo)
{
	PG_RETURN_FLOAT8(id_to_double(arg_id<T>(fcinfo, 0)) - id_to_double(arg_id<T>(fcinfo, 1)));
}

} /* namespace */

/*
 * The fmgr entry points, each named after its SQL object, one block per type (core's uuid too,
 * for ^@ on hex prefixes and <@ on UUIDv7 time ranges): the range type's subtype_diff, the prefix
 * and time ranges, ^@ and <@, the range's ends and bounds and first_at, each a call of the
 * template above.
 */
extern "C" {

/* ---- uid11 ----------------------------------------------------------------------------------- */

PG_FUNCTION_INFO_V1(uid11_range_subdiff);
Datum
uid11_range_subdiff(PG_FUNCTION_ARGS)
{
	return id_range_subdiff<uid11_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(uid11_prefix_range);
Datum
uid11_prefix_range(PG_FUNCTION_ARGS)
{
	return id_prefix_range<uid11_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(uid11_time_range);
Datum
uid11_time_range(PG_FUNCTION_ARGS)
{
	return id_time_range<uid11_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(uid11_starts_with);
Datum
uid11_starts_with(PG_FUNCTION_ARGS)
{
	return id_starts_with<uid11_traits>(fcinfo, arg_id<uid11_traits>(fcinfo, 0));
}

PG_FUNCTION_INFO_V1(uid11_contained);
Datum
uid11_contained(PG_FUNCTION_ARGS)
{
	return id_contained<uid11_traits>(fcinfo, arg_id<uid11_traits>(fcinfo, 0));
}

PG_FUNCTION_INFO_V1(uid11range_first);
Datum
uid11range_first(PG_FUNCTION_ARGS)
{
	return id_range_end<uid11_traits>(fcinfo, true);
}

PG_FUNCTION_INFO_V1(uid11range_last);
Datum
uid11range_last(PG_FUNCTION_ARGS)
{
	return id_range_end<uid11_traits>(fcinfo, false);
}

PG_FUNCTION_INFO_V1(uid11range_lo);
Datum
uid11range_lo(PG_FUNCTION_ARGS)
{
	return id_range_bound<uid11_traits>(fcinfo, true);
}

PG_FUNCTION_INFO_V1(uid11range_hi);
Datum
uid11range_hi(PG_FUNCTION_ARGS)
{
	return id_range_bound<uid11_traits>(fcinfo, false);
}

PG_FUNCTION_INFO_V1(uid11_first_at);
Datum
uid11_first_at(PG_FUNCTION_ARGS)
{
	return id_first_at<uid11_traits>(fcinfo);
}

/*
 * The uid11 spec's prefix-aware xid parsing: the xid times of a uid11 prefix, '[ts_lo, ts_hi]' with
 * ts = epoch + (bound >> 22) ms; empty when the prefix lies beyond 2^64-1.
 */
PG_FUNCTION_INFO_V1(xid_prefix_time_range);
Datum
xid_prefix_time_range(PG_FUNCTION_ARGS)
{
	text *prefix = PG_GETARG_TEXT_PP(0);
	const idt::range64 r =
		checked_prefix<uid11_traits>(VARDATA_ANY(prefix), VARSIZE_ANY_EXHDR(prefix));
	TypeCacheEntry *typcache = result_range_typcache(fcinfo);
	if (r.empty)
		PG_RETURN_RANGE_P(make_empty_range(typcache));
	const auto at = [](std::uint64_t v) {
		return TimestampTzGetDatum(glue::unix_ms_to_timestamptz(
			idt::xid_epoch_ms + static_cast<std::int64_t>(idt::xid_ms(v))));
	};
	RangeBound lower = {at(r.lo), false, true, true};
	RangeBound upper = {at(r.hi), false, true, false};
	PG_RETURN_RANGE_P(idt_make_range(typcache, &lower, &upper));
}

/* ---- timeid ---------------------------------------------------------------------------------- */

PG_FUNCTION_INFO_V1(timeid_range_subdiff);
Datum
timeid_range_subdiff(PG_FUNCTION_ARGS)
{
	return id_range_subdiff<timeid_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_prefix_range);
Datum
timeid_prefix_range(PG_FUNCTION_ARGS)
{
	return id_prefix_range<timeid_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_time_range);
Datum
timeid_time_range(PG_FUNCTION_ARGS)
{
	return id_time_range<timeid_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_starts_with);
Datum
timeid_starts_with(PG_FUNCTION_ARGS)
{
	return id_starts_with<timeid_traits>(fcinfo, arg_id<timeid_traits>(fcinfo, 0));
}

PG_FUNCTION_INFO_V1(timeid_contained);
Datum
timeid_contained(PG_FUNCTION_ARGS)
{
	return id_contained<timeid_traits>(fcinfo, arg_id<timeid_traits>(fcinfo, 0));
}

PG_FUNCTION_INFO_V1(timeidrange_first);
Datum
timeidrange_first(PG_FUNCTION_ARGS)
{
	return id_range_end<timeid_traits>(fcinfo, true);
}

PG_FUNCTION_INFO_V1(timeidrange_last);
Datum
timeidrange_last(PG_FUNCTION_ARGS)
{
	return id_range_end<timeid_traits>(fcinfo, false);
}

PG_FUNCTION_INFO_V1(timeidrange_lo);
Datum
timeidrange_lo(PG_FUNCTION_ARGS)
{
	return id_range_bound<timeid_traits>(fcinfo, true);
}

PG_FUNCTION_INFO_V1(timeidrange_hi);
Datum
timeidrange_hi(PG_FUNCTION_ARGS)
{
	return id_range_bound<timeid_traits>(fcinfo, false);
}

PG_FUNCTION_INFO_V1(timeid_first_at);
Datum
timeid_first_at(PG_FUNCTION_ARGS)
{
	return id_first_at<timeid_traits>(fcinfo);
}

/* ---- ulidflake ------------------------------------------------------------------------------- */

PG_FUNCTION_INFO_V1(ulidflake_range_subdiff);
Datum
ulidflake_range_subdiff(PG_FUNCTION_ARGS)
{
	return id_range_subdiff<ulidflake_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_prefix_range);
Datum
ulidflake_prefix_range(PG_FUNCTION_ARGS)
{
	return id_prefix_range<ulidflake_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_time_range);
Datum
ulidflake_time_range(PG_FUNCTION_ARGS)
{
	return id_time_range<ulidflake_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_starts_with);
Datum
ulidflake_starts_with(PG_FUNCTION_ARGS)
{
	return id_starts_with<ulidflake_traits>(fcinfo, arg_id<ulidflake_traits>(fcinfo, 0));
}

PG_FUNCTION_INFO_V1(ulidflake_contained);
Datum
ulidflake_contained(PG_FUNCTION_ARGS)
{
	return id_contained<ulidflake_traits>(fcinfo, arg_id<ulidflake_traits>(fcinfo, 0));
}

PG_FUNCTION_INFO_V1(ulidflakerange_first);
Datum
ulidflakerange_first(PG_FUNCTION_ARGS)
{
	return id_range_end<ulidflake_traits>(fcinfo, true);
}

PG_FUNCTION_INFO_V1(ulidflakerange_last);
Datum
ulidflakerange_last(PG_FUNCTION_ARGS)
{
	return id_range_end<ulidflake_traits>(fcinfo, false);
}

PG_FUNCTION_INFO_V1(ulidflakerange_lo);
Datum
ulidflakerange_lo(PG_FUNCTION_ARGS)
{
	return id_range_bound<ulidflake_traits>(fcinfo, true);
}

PG_FUNCTION_INFO_V1(ulidflakerange_hi);
Datum
ulidflakerange_hi(PG_FUNCTION_ARGS)
{
	return id_range_bound<ulidflake_traits>(fcinfo, false);
}

PG_FUNCTION_INFO_V1(ulidflake_first_at);
Datum
ulidflake_first_at(PG_FUNCTION_ARGS)
{
	return id_first_at<ulidflake_traits>(fcinfo);
}

/* ---- ulid ------------------------------------------------------------------------------------ */

PG_FUNCTION_INFO_V1(ulid_range_subdiff);
Datum
ulid_range_subdiff(PG_FUNCTION_ARGS)
{
	return id_range_subdiff<ulid_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_prefix_range);
Datum
ulid_prefix_range(PG_FUNCTION_ARGS)
{
	return id_prefix_range<ulid_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_time_range);
Datum
ulid_time_range(PG_FUNCTION_ARGS)
{
	return id_time_range<ulid_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_starts_with);
Datum
ulid_starts_with(PG_FUNCTION_ARGS)
{
	return id_starts_with<ulid_traits>(fcinfo, arg_id<ulid_traits>(fcinfo, 0));
}

PG_FUNCTION_INFO_V1(ulid_contained);
Datum
ulid_contained(PG_FUNCTION_ARGS)
{
	return id_contained<ulid_traits>(fcinfo, arg_id<ulid_traits>(fcinfo, 0));
}

PG_FUNCTION_INFO_V1(ulidrange_first);
Datum
ulidrange_first(PG_FUNCTION_ARGS)
{
	return id_range_end<ulid_traits>(fcinfo, true);
}

PG_FUNCTION_INFO_V1(ulidrange_last);
Datum
ulidrange_last(PG_FUNCTION_ARGS)
{
	return id_range_end<ulid_traits>(fcinfo, false);
}

PG_FUNCTION_INFO_V1(ulidrange_lo);
Datum
ulidrange_lo(PG_FUNCTION_ARGS)
{
	return id_range_bound<ulid_traits>(fcinfo, true);
}

PG_FUNCTION_INFO_V1(ulidrange_hi);
Datum
ulidrange_hi(PG_FUNCTION_ARGS)
{
	return id_range_bound<ulid_traits>(fcinfo, false);
}

PG_FUNCTION_INFO_V1(ulid_first_at);
Datum
ulid_first_at(PG_FUNCTION_ARGS)
{
	return id_first_at<ulid_traits>(fcinfo);
}

/* ---- euid ------------------------------------------------------------------------------------ */

PG_FUNCTION_INFO_V1(euid_range_subdiff);
Datum
euid_range_subdiff(PG_FUNCTION_ARGS)
{
	return id_range_subdiff<euid_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_prefix_range);
Datum
euid_prefix_range(PG_FUNCTION_ARGS)
{
	return id_prefix_range<euid_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_time_range);
Datum
euid_time_range(PG_FUNCTION_ARGS)
{
	return id_time_range<euid_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_starts_with);
Datum
euid_starts_with(PG_FUNCTION_ARGS)
{
	return id_starts_with<euid_traits>(fcinfo, arg_id<euid_traits>(fcinfo, 0));
}

PG_FUNCTION_INFO_V1(euid_contained);
Datum
euid_contained(PG_FUNCTION_ARGS)
{
	return id_contained<euid_traits>(fcinfo, arg_id<euid_traits>(fcinfo, 0));
}

PG_FUNCTION_INFO_V1(euidrange_first);
Datum
euidrange_first(PG_FUNCTION_ARGS)
{
	return id_range_end<euid_traits>(fcinfo, true);
}

PG_FUNCTION_INFO_V1(euidrange_last);
Datum
euidrange_last(PG_FUNCTION_ARGS)
{
	return id_range_end<euid_traits>(fcinfo, false);
}

PG_FUNCTION_INFO_V1(euidrange_lo);
Datum
euidrange_lo(PG_FUNCTION_ARGS)
{
	return id_range_bound<euid_traits>(fcinfo, true);
}

PG_FUNCTION_INFO_V1(euidrange_hi);
Datum
euidrange_hi(PG_FUNCTION_ARGS)
{
	return id_range_bound<euid_traits>(fcinfo, false);
}

PG_FUNCTION_INFO_V1(euid_first_at);
Datum
euid_first_at(PG_FUNCTION_ARGS)
{
	return id_first_at<euid_traits>(fcinfo);
}

/* ---- uuid ------------------------------------------------------------------------------------ */

PG_FUNCTION_INFO_V1(uuid_range_subdiff);
Datum
uuid_range_subdiff(PG_FUNCTION_ARGS)
{
	return id_range_subdiff<uuid_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(uuid_prefix_range);
Datum
uuid_prefix_range(PG_FUNCTION_ARGS)
{
	return id_prefix_range<uuid_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(uuid_time_range);
Datum
uuid_time_range(PG_FUNCTION_ARGS)
{
	return id_time_range<uuid_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(uuid_starts_with);
Datum
uuid_starts_with(PG_FUNCTION_ARGS)
{
	return id_starts_with<uuid_traits>(fcinfo, arg_id<uuid_traits>(fcinfo, 0));
}

PG_FUNCTION_INFO_V1(uuid_contained);
Datum
uuid_contained(PG_FUNCTION_ARGS)
{
	return id_contained<uuid_traits>(fcinfo, arg_id<uuid_traits>(fcinfo, 0));
}

PG_FUNCTION_INFO_V1(uuidrange_first);
Datum
uuidrange_first(PG_FUNCTION_ARGS)
{
	return id_range_end<uuid_traits>(fcinfo, true);
}

PG_FUNCTION_INFO_V1(uuidrange_last);
Datum
uuidrange_last(PG_FUNCTION_ARGS)
{
	return id_range_end<uuid_traits>(fcinfo, false);
}

PG_FUNCTION_INFO_V1(uuidrange_lo);
Datum
uuidrange_lo(PG_FUNCTION_ARGS)
{
	return id_range_bound<uuid_traits>(fcinfo, true);
}

PG_FUNCTION_INFO_V1(uuidrange_hi);
Datum
uuidrange_hi(PG_FUNCTION_ARGS)
{
	return id_range_bound<uuid_traits>(fcinfo, false);
}

PG_FUNCTION_INFO_V1(uuid_first_at);
Datum
uuid_first_at(PG_FUNCTION_ARGS)
{
	return id_first_at<uuid_traits>(fcinfo);
}

} /* extern "C" */
