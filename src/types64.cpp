/* types64.cpp: the three 8-byte types uid11, timeid and ulidflake: I/O, operators, casts, accessors. */
#include <cinttypes>
#include <cstdio>

#include "glue.h"
#include "traits.h"

extern "C" {
#include "access/hash.h"
#include "libpq/pqformat.h"
#include "utils/builtins.h"
#include "utils/sortsupport.h"
#include "utils/timestamp.h"
}

namespace
{

/* The payload is unsigned: compare as uint64, whatever the sign bit of the int8 Datum says. */
inline std::uint64_t
arg64(FunctionCallInfo fcinfo, int n)
{
	return static_cast<std::uint64_t>(PG_GETARG_INT64(n));
}

inline int
cmp64(std::uint64_t a, std::uint64_t b)
{
	return a < b ? -1 : (a > b ? 1 : 0);
}

/*
 * The sort comparator. Where the Datum holds the 64 bits as they are (passed by value), comparing
 * Datums as unsigned integers is the type's order: on 15+ that is the server's own comparator,
 * with which the sort runs its specialised quicksort. Passed by reference (32-bit platforms before
 * 19), the Datum is a pointer: compare what it points to.
 */
#if IDT_HAVE_SSUP_DATUM_CMP && IDT_INT8_BYVAL
constexpr auto id64_comparator = ssup_datum_unsigned_cmp;
#else
int
id64_comparator(Datum a, Datum b, SortSupport)
{
	return cmp64(static_cast<std::uint64_t>(DatumGetInt64(a)),
				 static_cast<std::uint64_t>(DatumGetInt64(b)));
}
#endif

template <class T>
Datum
id64_in(FunctionCallInfo fcinfo)
{
	const char *str = PG_GETARG_CSTRING(0);
	const std::size_t len = strlen(str);
	const idt::parse64 r = T::parse(str, len);
	if (r.error != idt::errc::ok)
	{
		glue::report_parse_error(fcinfo->context, glue::input_spec<T>(), str, len, r.error,
								 r.offset);
		PG_RETURN_NULL();
	}
	PG_RETURN_INT64(static_cast<int64>(r.value));
}

template <class T>
Datum
id64_out(FunctionCallInfo fcinfo)
{
	char *out = static_cast<char *>(palloc(T::text_len + 1));
	T::format(arg64(fcinfo, 0), out);
	out[T::text_len] = '\0';
	PG_RETURN_CSTRING(out);
}

template <class T>
std::uint64_t
checked(std::uint64_t v)
{
	if (v > T::max)
		glue::report_binary_range(T::name);
	return v;
}

template <class T>
Datum
id64_recv(FunctionCallInfo fcinfo)
{
	StringInfo buf = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
	if (buf->len - buf->cursor != 8)
		glue::report_binary_length(T::name, 8, buf->len - buf->cursor);
	PG_RETURN_INT64(
		static_cast<int64>(checked<T>(static_cast<std::uint64_t>(pq_getmsgint64(buf)))));
}

Datum
id64_send(FunctionCallInfo fcinfo)
{
	StringInfoData buf;
	pq_begintypsend(&buf);
	pq_sendint64(&buf, PG_GETARG_INT64(0));
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

Datum
id64_to_bytea(FunctionCallInfo fcinfo)
{
	bytea *b = static_cast<bytea *>(palloc(VARHDRSZ + 8));
	SET_VARSIZE(b, VARHDRSZ + 8);
	glue::store_be64(arg64(fcinfo, 0), reinterpret_cast<unsigned char *>(VARDATA(b)));
	PG_RETURN_BYTEA_P(b);
}

template <class T>
Datum
id64_from_bytea(FunctionCallInfo fcinfo)
{
	bytea *b = PG_GETARG_BYTEA_PP(0);
	const int len = static_cast<int>(VARSIZE_ANY_EXHDR(b));
	if (len != 8)
		glue::report_binary_length(T::name, 8, len);
	const auto *p = reinterpret_cast<const unsigned char *>(VARDATA_ANY(b));
	PG_RETURN_INT64(static_cast<int64>(checked<T>(glue::load_be64(p))));
}

/* bigint -> timeid/ulidflake: the integer itself, which must not be negative. */
template <class T>
Datum
id64_from_bigint(FunctionCallInfo fcinfo)
{
	const int64 v = PG_GETARG_INT64(0);
	if (v < 0)
		ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
						errmsg("value %" PRId64 " is out of range for type %s",
							   static_cast<int64_t>(v), T::name),
						errdetail("A %s is a non-negative integer.", T::name)));
	PG_RETURN_INT64(v);
}

/* The comparison operators and btree support, on the unsigned payloads. */
Datum
id64_eq(FunctionCallInfo fcinfo)
{
	PG_RETURN_BOOL(arg64(fcinfo, 0) == arg64(fcinfo, 1));
}

Datum
id64_ne(FunctionCallInfo fcinfo)
{
	PG_RETURN_BOOL(arg64(fcinfo, 0) != arg64(fcinfo, 1));
}

Datum
id64_lt(FunctionCallInfo fcinfo)
{
	PG_RETURN_BOOL(arg64(fcinfo, 0) < arg64(fcinfo, 1));
}

Datum
id64_le(FunctionCallInfo fcinfo)
{
	PG_RETURN_BOOL(arg64(fcinfo, 0) <= arg64(fcinfo, 1));
}

Datum
id64_gt(FunctionCallInfo fcinfo)
{
	PG_RETURN_BOOL(arg64(fcinfo, 0) > arg64(fcinfo, 1));
}

Datum
id64_ge(FunctionCallInfo fcinfo)
{
	PG_RETURN_BOOL(arg64(fcinfo, 0) >= arg64(fcinfo, 1));
}

Datum
id64_cmp(FunctionCallInfo fcinfo)
{
	PG_RETURN_INT32(cmp64(arg64(fcinfo, 0), arg64(fcinfo, 1)));
}

/* max() and min(): the larger (smaller) argument; the first of two equal ones. */
Datum
id64_larger(FunctionCallInfo fcinfo)
{
	PG_RETURN_DATUM(arg64(fcinfo, 0) >= arg64(fcinfo, 1) ? PG_GETARG_DATUM(0) : PG_GETARG_DATUM(1));
}

Datum
id64_smaller(FunctionCallInfo fcinfo)
{
	PG_RETURN_DATUM(arg64(fcinfo, 0) <= arg64(fcinfo, 1) ? PG_GETARG_DATUM(0) : PG_GETARG_DATUM(1));
}

Datum
id64_sortsupport(FunctionCallInfo fcinfo)
{
	reinterpret_cast<SortSupport>(PG_GETARG_POINTER(0))->comparator = id64_comparator;
	PG_RETURN_VOID();
}

/* Fold the halves, as hashint8 does, so the hash is the same on every CPU. */
Datum
id64_hash(FunctionCallInfo fcinfo)
{
	const std::uint64_t v = arg64(fcinfo, 0);
	return hash_uint32(static_cast<uint32>(v ^ (v >> 32)));
}

Datum
id64_hash_extended(FunctionCallInfo fcinfo)
{
	const std::uint64_t v = arg64(fcinfo, 0);
	return hash_uint32_extended(static_cast<uint32>(v ^ (v >> 32)), PG_GETARG_INT64(1));
}

/* BRIN minmax-multi: the distance between two values, as float8. */
Datum
id64_brin_distance(FunctionCallInfo fcinfo)
{
	const std::uint64_t a = arg64(fcinfo, 0), b = arg64(fcinfo, 1);
	PG_RETURN_FLOAT8(static_cast<double>(a > b ? a - b : b - a));
}

} /* namespace */

/*
 * The fmgr entry points, each named after its SQL object, one block per type: I/O, the operators,
 * the btree, hash and BRIN support and the bytea casts (calls of the templates and shared
 * functions above), then its other casts and its accessors.
 */
extern "C" {

/* ---- uid11 ----------------------------------------------------------------------------------- */

PG_FUNCTION_INFO_V1(uid11_in);
Datum
uid11_in(PG_FUNCTION_ARGS)
{
	return id64_in<uid11_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(uid11_out);
Datum
uid11_out(PG_FUNCTION_ARGS)
{
	return id64_out<uid11_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(uid11_recv);
Datum
uid11_recv(PG_FUNCTION_ARGS)
{
	return id64_recv<uid11_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(uid11_send);
Datum
uid11_send(PG_FUNCTION_ARGS)
{
	return id64_send(fcinfo);
}

PG_FUNCTION_INFO_V1(uid11_eq);
Datum
uid11_eq(PG_FUNCTION_ARGS)
{
	return id64_eq(fcinfo);
}

PG_FUNCTION_INFO_V1(uid11_ne);
Datum
uid11_ne(PG_FUNCTION_ARGS)
{
	return id64_ne(fcinfo);
}

PG_FUNCTION_INFO_V1(uid11_lt);
Datum
uid11_lt(PG_FUNCTION_ARGS)
{
	return id64_lt(fcinfo);
}

PG_FUNCTION_INFO_V1(uid11_le);
Datum
uid11_le(PG_FUNCTION_ARGS)
{
	return id64_le(fcinfo);
}

PG_FUNCTION_INFO_V1(uid11_gt);
Datum
uid11_gt(PG_FUNCTION_ARGS)
{
	return id64_gt(fcinfo);
}

PG_FUNCTION_INFO_V1(uid11_ge);
Datum
uid11_ge(PG_FUNCTION_ARGS)
{
	return id64_ge(fcinfo);
}

PG_FUNCTION_INFO_V1(uid11_cmp);
Datum
uid11_cmp(PG_FUNCTION_ARGS)
{
	return id64_cmp(fcinfo);
}

PG_FUNCTION_INFO_V1(uid11_larger);
Datum
uid11_larger(PG_FUNCTION_ARGS)
{
	return id64_larger(fcinfo);
}

PG_FUNCTION_INFO_V1(uid11_smaller);
Datum
uid11_smaller(PG_FUNCTION_ARGS)
{
	return id64_smaller(fcinfo);
}

PG_FUNCTION_INFO_V1(uid11_sortsupport);
Datum
uid11_sortsupport(PG_FUNCTION_ARGS)
{
	return id64_sortsupport(fcinfo);
}

PG_FUNCTION_INFO_V1(uid11_hash);
Datum
uid11_hash(PG_FUNCTION_ARGS)
{
	return id64_hash(fcinfo);
}

PG_FUNCTION_INFO_V1(uid11_hash_extended);
Datum
uid11_hash_extended(PG_FUNCTION_ARGS)
{
	return id64_hash_extended(fcinfo);
}

PG_FUNCTION_INFO_V1(uid11_brin_distance);
Datum
uid11_brin_distance(PG_FUNCTION_ARGS)
{
	return id64_brin_distance(fcinfo);
}

PG_FUNCTION_INFO_V1(uid11_to_bytea);
Datum
uid11_to_bytea(PG_FUNCTION_ARGS)
{
	return id64_to_bytea(fcinfo);
}

PG_FUNCTION_INFO_V1(uid11_from_bytea);
Datum
uid11_from_bytea(PG_FUNCTION_ARGS)
{
	return id64_from_bytea<uid11_traits>(fcinfo);
}

/* uid11 -> bigint: the 64 bits unchanged. */
PG_FUNCTION_INFO_V1(uid11_to_bigint);
Datum
uid11_to_bigint(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(PG_GETARG_DATUM(0));
}

/* bigint -> uid11: the 64 bits unchanged; negative bigints are payloads >= 2^63. */
PG_FUNCTION_INFO_V1(uid11_from_bigint);
Datum
uid11_from_bigint(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(PG_GETARG_DATUM(0));
}

/* uid11 -> numeric: the unsigned payload, which may exceed bigint. */
PG_FUNCTION_INFO_V1(uid11_to_numeric);
Datum
uid11_to_numeric(PG_FUNCTION_ARGS)
{
	char buf[24];
	snprintf(buf, sizeof(buf), "%" PRIu64, arg64(fcinfo, 0));
	return DirectFunctionCall3(numeric_in, CStringGetDatum(buf), ObjectIdGetDatum(InvalidOid),
							   Int32GetDatum(-1));
}

/* The xid profile's time: ms since 2011-11-11T11:11:11.111Z in the top 42 bits. */
PG_FUNCTION_INFO_V1(xid_timestamp);
Datum
xid_timestamp(PG_FUNCTION_ARGS)
{
	const std::int64_t ms = static_cast<std::int64_t>(idt::xid_ms(arg64(fcinfo, 0)));
	PG_RETURN_TIMESTAMPTZ(glue::unix_ms_to_timestamptz(idt::xid_epoch_ms + ms));
}

PG_FUNCTION_INFO_V1(xid_random);
Datum
xid_random(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(static_cast<int32>(idt::xid_random(arg64(fcinfo, 0))));
}

/* ---- timeid ---------------------------------------------------------------------------------- */

PG_FUNCTION_INFO_V1(timeid_in);
Datum
timeid_in(PG_FUNCTION_ARGS)
{
	return id64_in<timeid_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_out);
Datum
timeid_out(PG_FUNCTION_ARGS)
{
	return id64_out<timeid_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_recv);
Datum
timeid_recv(PG_FUNCTION_ARGS)
{
	return id64_recv<timeid_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_send);
Datum
timeid_send(PG_FUNCTION_ARGS)
{
	return id64_send(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_eq);
Datum
timeid_eq(PG_FUNCTION_ARGS)
{
	return id64_eq(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_ne);
Datum
timeid_ne(PG_FUNCTION_ARGS)
{
	return id64_ne(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_lt);
Datum
timeid_lt(PG_FUNCTION_ARGS)
{
	return id64_lt(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_le);
Datum
timeid_le(PG_FUNCTION_ARGS)
{
	return id64_le(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_gt);
Datum
timeid_gt(PG_FUNCTION_ARGS)
{
	return id64_gt(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_ge);
Datum
timeid_ge(PG_FUNCTION_ARGS)
{
	return id64_ge(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_cmp);
Datum
timeid_cmp(PG_FUNCTION_ARGS)
{
	return id64_cmp(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_larger);
Datum
timeid_larger(PG_FUNCTION_ARGS)
{
	return id64_larger(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_smaller);
Datum
timeid_smaller(PG_FUNCTION_ARGS)
{
	return id64_smaller(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_sortsupport);
Datum
timeid_sortsupport(PG_FUNCTION_ARGS)
{
	return id64_sortsupport(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_hash);
Datum
timeid_hash(PG_FUNCTION_ARGS)
{
	return id64_hash(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_hash_extended);
Datum
timeid_hash_extended(PG_FUNCTION_ARGS)
{
	return id64_hash_extended(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_brin_distance);
Datum
timeid_brin_distance(PG_FUNCTION_ARGS)
{
	return id64_brin_distance(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_to_bytea);
Datum
timeid_to_bytea(PG_FUNCTION_ARGS)
{
	return id64_to_bytea(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_from_bytea);
Datum
timeid_from_bytea(PG_FUNCTION_ARGS)
{
	return id64_from_bytea<timeid_traits>(fcinfo);
}

/* timeid -> bigint: the 64 bits unchanged. */
PG_FUNCTION_INFO_V1(timeid_to_bigint);
Datum
timeid_to_bigint(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(PG_GETARG_DATUM(0));
}

PG_FUNCTION_INFO_V1(timeid_from_bigint);
Datum
timeid_from_bigint(PG_FUNCTION_ARGS)
{
	return id64_from_bigint<timeid_traits>(fcinfo);
}

/* TID time is exact: microseconds since 1970. */
PG_FUNCTION_INFO_V1(timeid_timestamp);
Datum
timeid_timestamp(PG_FUNCTION_ARGS)
{
	const std::int64_t us = static_cast<std::int64_t>(idt::timeid_micros(arg64(fcinfo, 0)));
	PG_RETURN_TIMESTAMPTZ(glue::unix_us_to_timestamptz(us));
}

PG_FUNCTION_INFO_V1(timeid_clock_id);
Datum
timeid_clock_id(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(static_cast<int32>(idt::timeid_clock_id(arg64(fcinfo, 0))));
}

/* The display form STTT-TTT-TTTT-CC. */
PG_FUNCTION_INFO_V1(timeid_dashed);
Datum
timeid_dashed(PG_FUNCTION_ARGS)
{
	char out[16];
	idt::timeid_format_dashed(arg64(fcinfo, 0), out);
	PG_RETURN_TEXT_P(cstring_to_text_with_len(out, 16));
}

/* ---- ulidflake ------------------------------------------------------------------------------- */

PG_FUNCTION_INFO_V1(ulidflake_in);
Datum
ulidflake_in(PG_FUNCTION_ARGS)
{
	return id64_in<ulidflake_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_out);
Datum
ulidflake_out(PG_FUNCTION_ARGS)
{
	return id64_out<ulidflake_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_recv);
Datum
ulidflake_recv(PG_FUNCTION_ARGS)
{
	return id64_recv<ulidflake_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_send);
Datum
ulidflake_send(PG_FUNCTION_ARGS)
{
	return id64_send(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_eq);
Datum
ulidflake_eq(PG_FUNCTION_ARGS)
{
	return id64_eq(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_ne);
Datum
ulidflake_ne(PG_FUNCTION_ARGS)
{
	return id64_ne(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_lt);
Datum
ulidflake_lt(PG_FUNCTION_ARGS)
{
	return id64_lt(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_le);
Datum
ulidflake_le(PG_FUNCTION_ARGS)
{
	return id64_le(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_gt);
Datum
ulidflake_gt(PG_FUNCTION_ARGS)
{
	return id64_gt(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_ge);
Datum
ulidflake_ge(PG_FUNCTION_ARGS)
{
	return id64_ge(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_cmp);
Datum
ulidflake_cmp(PG_FUNCTION_ARGS)
{
	return id64_cmp(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_larger);
Datum
ulidflake_larger(PG_FUNCTION_ARGS)
{
	return id64_larger(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_smaller);
Datum
ulidflake_smaller(PG_FUNCTION_ARGS)
{
	return id64_smaller(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_sortsupport);
Datum
ulidflake_sortsupport(PG_FUNCTION_ARGS)
{
	return id64_sortsupport(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_hash);
Datum
ulidflake_hash(PG_FUNCTION_ARGS)
{
	return id64_hash(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_hash_extended);
Datum
ulidflake_hash_extended(PG_FUNCTION_ARGS)
{
	return id64_hash_extended(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_brin_distance);
Datum
ulidflake_brin_distance(PG_FUNCTION_ARGS)
{
	return id64_brin_distance(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_to_bytea);
Datum
ulidflake_to_bytea(PG_FUNCTION_ARGS)
{
	return id64_to_bytea(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_from_bytea);
Datum
ulidflake_from_bytea(PG_FUNCTION_ARGS)
{
	return id64_from_bytea<ulidflake_traits>(fcinfo);
}

/* ulidflake -> bigint: the 64 bits unchanged. */
PG_FUNCTION_INFO_V1(ulidflake_to_bigint);
Datum
ulidflake_to_bigint(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(PG_GETARG_DATUM(0));
}

PG_FUNCTION_INFO_V1(ulidflake_from_bigint);
Datum
ulidflake_from_bigint(PG_FUNCTION_ARGS)
{
	return id64_from_bigint<ulidflake_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_timestamp);
Datum
ulidflake_timestamp(PG_FUNCTION_ARGS)
{
	const std::int64_t ms = static_cast<std::int64_t>(idt::ulidflake_ms(arg64(fcinfo, 0)));
	PG_RETURN_TIMESTAMPTZ(glue::unix_ms_to_timestamptz(idt::ulidflake_epoch_ms + ms));
}

/* The scalable variant's sid (low five bits); meaningless for stand-alone IDs. */
PG_FUNCTION_INFO_V1(ulidflake_sid);
Datum
ulidflake_sid(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(static_cast<int32>(idt::ulidflake_sid(arg64(fcinfo, 0))));
}

} /* extern "C" */
