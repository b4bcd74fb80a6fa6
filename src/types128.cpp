/* types128.cpp: the two 16-byte types ulid and euid: I/O, operators, sort support, casts, accessors. */
#include "glue.h"
#include "traits.h"
#include "idtypes/abbrev.hpp"
#include "idtypes/wide.hpp"

#include <new>

extern "C" {
#include "access/hash.h"
#include "lib/hyperloglog.h"
#include "libpq/pqformat.h"
#include "utils/builtins.h"
#include "utils/sortsupport.h"
#include "utils/timestamp.h"
}

namespace
{

/*
 * Big-endian bytes: memcmp order is value order (= text order). Compared as two 64-bit words
 * (each one load and a byte swap) rather than by a call to memcmp.
 */
inline int
cmp_id128(const id128 *a, const id128 *b)
{
	const std::uint64_t ah = glue::load_be64(a->data), bh = glue::load_be64(b->data);
	if (ah != bh)
		return ah < bh ? -1 : 1;
	const std::uint64_t al = glue::load_be64(a->data + 8), bl = glue::load_be64(b->data + 8);
	return al < bl ? -1 : (al > bl ? 1 : 0);
}

inline int
cmp128(FunctionCallInfo fcinfo)
{
	return cmp_id128(PG_GETARG_ID128_P(0), PG_GETARG_ID128_P(1));
}

int
id128_fastcmp(Datum a, Datum b, SortSupport)
{
	return cmp_id128(DatumGetId128P(a), DatumGetId128P(b));
}

/*
 * Abbreviated key: on 64-bit Datums, idt::abbrev128 (core/include/idtypes/abbrev.hpp): the time
 * and the difference of the random bits from the first ID of the same millisecond, so that IDs a
 * monotonic generator made in one millisecond, which share their leading 8 bytes, still get
 * distinct keys; on 32-bit Datums, the leading 4 bytes. Like core's uuid, the distinct keys are
 * counted (HyperLogLog) while they are made, and abbreviation is abandoned when there are fewer
 * than one per 2,000 inputs.
 */
struct abbrev_state
{
	hyperLogLogState distinct;
	std::int64_t inputs;
	bool estimating;
#if SIZEOF_DATUM == 8
	idt::abbrev128 keys;
#endif
};
static_assert(std::is_trivially_destructible<abbrev_state>::value,
			  "the sort's memory context frees abbrev_state without a destructor");

#if SIZEOF_DATUM == 8
void *
abbrev_table_alloc(void *context, std::size_t bytes)
{
	return MemoryContextAllocExtended(static_cast<MemoryContext>(context), bytes,
									  MCXT_ALLOC_ZERO | MCXT_ALLOC_NO_OOM);
}

void
abbrev_table_release(void *, void *memory)
{
	pfree(memory);
}
#endif

Datum
id128_abbrev_convert(Datum original, SortSupport ssup)
{
	const id128 *id = DatumGetId128P(original);
	const std::uint64_t head = glue::load_be64(id->data);
	auto *st = static_cast<abbrev_state *>(ssup->ssup_extra);
#if SIZEOF_DATUM == 8
	const std::uint64_t key = st->keys.key(head, glue::load_be64(id->data + 8));
#else
	const std::uint64_t key = head;
#endif
	st->inputs++;
	if (st->estimating)
		addHyperLogLog(&st->distinct,
					   DatumGetUInt32(hash_uint32(static_cast<uint32>(key ^ (key >> 32)))));
#if SIZEOF_DATUM == 8
	return static_cast<Datum>(key);
#else
	return static_cast<Datum>(key >> 32);
#endif
}

#if IDT_HAVE_SSUP_DATUM_CMP
constexpr auto id128_abbrev_cmp = ssup_datum_unsigned_cmp;
#else
int
id128_abbrev_cmp(Datum a, Datum b, SortSupport)
{
	return a < b ? -1 : (a > b ? 1 : 0);
}
#endif

bool
id128_abbrev_abort(int memtupcount, SortSupport ssup)
{
	auto *st = static_cast<abbrev_state *>(ssup->ssup_extra);
	if (memtupcount < 10000 || st->inputs < 10000 || !st->estimating)
		return false;
	const double distinct = estimateHyperLogLog(&st->distinct);
	/* Past 100,000 distinct keys abbreviation pays whatever follows: stop counting. */
	if (distinct > 100000.0)
	{
		st->estimating = false;
		return false;
	}
	return distinct < static_cast<double>(st->inputs) / 2000.0 + 0.5;
}

Datum
id128_sortsupport(FunctionCallInfo fcinfo)
{
	SortSupport ssup = reinterpret_cast<SortSupport>(PG_GETARG_POINTER(0));
	ssup->comparator = id128_fastcmp;
	if (ssup->abbreviate)
	{
		/* The state and the HyperLogLog's registers live as long as the sort's comparators. */
		MemoryContext old = MemoryContextSwitchTo(ssup->ssup_cxt);
		void *mem = palloc(sizeof(abbrev_state));
		/* abbrev128 has no destructor: the memory context frees it with the sort. */
#if SIZEOF_DATUM == 8
		auto *st = new (mem) abbrev_state{
			{}, 0, true, idt::abbrev128(abbrev_table_alloc, abbrev_table_release, ssup->ssup_cxt)};
#else
		auto *st = new (mem) abbrev_state{{}, 0, true};
#endif
		initHyperLogLog(&st->distinct, 10);
		MemoryContextSwitchTo(old);
		ssup->ssup_extra = st;
		ssup->comparator = id128_abbrev_cmp;
		ssup->abbrev_converter = id128_abbrev_convert;
		ssup->abbrev_abort = id128_abbrev_abort;
		ssup->abbrev_full_comparator = id128_fastcmp;
	}
	PG_RETURN_VOID();
}

template <class T>
Datum
id128_in(FunctionCallInfo fcinfo)
{
	const char *str = PG_GETARG_CSTRING(0);
	const std::size_t len = strlen(str);
	const idt::parse128 r = T::parse(str, len);
	if (r.error != idt::errc::ok)
	{
		glue::report_parse_error(fcinfo->context, glue::input_spec<T>(), str, len, r.error,
								 r.offset);
		PG_RETURN_NULL();
	}
	PG_RETURN_POINTER(glue::make_id128(r.value));
}

template <class T>
Datum
id128_out(FunctionCallInfo fcinfo)
{
	char *out = static_cast<char *>(palloc(T::text_len + 1));
	T::format(glue::to_u128(PG_GETARG_ID128_P(0)), out);
	out[T::text_len] = '\0';
	PG_RETURN_CSTRING(out);
}

/* Read 16 bytes from the message, or raise 22P03 when there are not exactly 16. */
template <class T>
Datum
id128_recv(FunctionCallInfo fcinfo)
{
	StringInfo buf = reinterpret_cast<StringInfo>(PG_GETARG_POINTER(0));
	if (buf->len - buf->cursor != 16)
		glue::report_binary_length(T::name, 16, buf->len - buf->cursor);
	id128 *id = static_cast<id128 *>(palloc(sizeof(id128)));
	memcpy(id->data, pq_getmsgbytes(buf, 16), 16);
	PG_RETURN_POINTER(id);
}

Datum
id128_send(FunctionCallInfo fcinfo)
{
	StringInfoData buf;
	pq_begintypsend(&buf);
	pq_sendbytes(&buf, reinterpret_cast<const char *>(PG_GETARG_ID128_P(0)->data), 16);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

Datum
id128_to_bytea(FunctionCallInfo fcinfo)
{
	bytea *b = static_cast<bytea *>(palloc(VARHDRSZ + 16));
	SET_VARSIZE(b, VARHDRSZ + 16);
	memcpy(VARDATA(b), PG_GETARG_ID128_P(0)->data, 16);
	PG_RETURN_BYTEA_P(b);
}

template <class T>
Datum
id128_from_bytea(FunctionCallInfo fcinfo)
{
	bytea *b = PG_GETARG_BYTEA_PP(0);
	const int len = static_cast<int>(VARSIZE_ANY_EXHDR(b));
	if (len != 16)
		glue::report_binary_length(T::name, 16, len);
	id128 *id = static_cast<id128 *>(palloc(sizeof(id128)));
	memcpy(id->data, VARDATA_ANY(b), 16);
	PG_RETURN_POINTER(id);
}

/*
 * hash_any() loads the key as 4-byte words in the CPU's byte order, so hashing the stored bytes
 * directly would give other values on a big-endian CPU (and hash partitions restored there would
 * not match). Hash words holding each group of 4 bytes read little-endian instead: the same
 * values on every CPU, and the same as hashing the bytes on a little-endian one.
 */
struct hash_words
{
	uint32 w[4];
	const unsigned char *of(const id128 *id)
	{
		for (int i = 0; i < 4; i++)
		{
			const unsigned char *p = id->data + 4 * i;
			w[i] = static_cast<uint32>(p[0]) | static_cast<uint32>(p[1]) << 8 |
				   static_cast<uint32>(p[2]) << 16 | static_cast<uint32>(p[3]) << 24;
		}
		return reinterpret_cast<const unsigned char *>(w);
	}
};

/* BRIN minmax-multi: |a - b| as float8 (precision loss is fine for a distance). */
Datum
id128_brin_distance(FunctionCallInfo fcinfo)
{
	const idt::u128 a = glue::to_u128(PG_GETARG_ID128_P(0));
	const idt::u128 b = glue::to_u128(PG_GETARG_ID128_P(1));
	const idt::uwide x = idt::widen(a), y = idt::widen(b);
	PG_RETURN_FLOAT8(idt::to_double(x > y ? x - y : y - x));
}

/* The comparison operators and btree support, on the big-endian bytes. */
Datum
id128_eq(FunctionCallInfo fcinfo)
{
	PG_RETURN_BOOL(cmp128(fcinfo) == 0);
}

Datum
id128_ne(FunctionCallInfo fcinfo)
{
	PG_RETURN_BOOL(cmp128(fcinfo) != 0);
}

Datum
id128_lt(FunctionCallInfo fcinfo)
{
	PG_RETURN_BOOL(cmp128(fcinfo) < 0);
}

Datum
id128_le(FunctionCallInfo fcinfo)
{
	PG_RETURN_BOOL(cmp128(fcinfo) <= 0);
}

Datum
id128_gt(FunctionCallInfo fcinfo)
{
	PG_RETURN_BOOL(cmp128(fcinfo) > 0);
}

Datum
id128_ge(FunctionCallInfo fcinfo)
{
	PG_RETURN_BOOL(cmp128(fcinfo) >= 0);
}

Datum
id128_cmp(FunctionCallInfo fcinfo)
{
	const int c = cmp128(fcinfo);
	PG_RETURN_INT32(c < 0 ? -1 : (c > 0 ? 1 : 0));
}

/* max() and min(): the larger (smaller) argument; the first of two equal ones. */
Datum
id128_larger(FunctionCallInfo fcinfo)
{
	PG_RETURN_DATUM(cmp128(fcinfo) >= 0 ? PG_GETARG_DATUM(0) : PG_GETARG_DATUM(1));
}

Datum
id128_smaller(FunctionCallInfo fcinfo)
{
	PG_RETURN_DATUM(cmp128(fcinfo) <= 0 ? PG_GETARG_DATUM(0) : PG_GETARG_DATUM(1));
}

/* Hashed as hash_words, so the hash is the same on every CPU. */
Datum
id128_hash(FunctionCallInfo fcinfo)
{
	hash_words w;
	return hash_any(w.of(PG_GETARG_ID128_P(0)), 16);
}

Datum
id128_hash_extended(FunctionCallInfo fcinfo)
{
	hash_words w;
	return hash_any_extended(w.of(PG_GETARG_ID128_P(0)), 16, PG_GETARG_INT64(1));
}

} /* namespace */

/*
 * The fmgr entry points, each named after its SQL object, one block per type: I/O, the operators,
 * the btree, hash and BRIN support and the bytea and uuid casts (calls of the templates and
 * shared functions above), then its accessors.
 */
extern "C" {

/* ---- ulid ------------------------------------------------------------------------------------ */

PG_FUNCTION_INFO_V1(ulid_in);
Datum
ulid_in(PG_FUNCTION_ARGS)
{
	return id128_in<ulid_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_out);
Datum
ulid_out(PG_FUNCTION_ARGS)
{
	return id128_out<ulid_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_recv);
Datum
ulid_recv(PG_FUNCTION_ARGS)
{
	return id128_recv<ulid_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_send);
Datum
ulid_send(PG_FUNCTION_ARGS)
{
	return id128_send(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_eq);
Datum
ulid_eq(PG_FUNCTION_ARGS)
{
	return id128_eq(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_ne);
Datum
ulid_ne(PG_FUNCTION_ARGS)
{
	return id128_ne(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_lt);
Datum
ulid_lt(PG_FUNCTION_ARGS)
{
	return id128_lt(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_le);
Datum
ulid_le(PG_FUNCTION_ARGS)
{
	return id128_le(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_gt);
Datum
ulid_gt(PG_FUNCTION_ARGS)
{
	return id128_gt(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_ge);
Datum
ulid_ge(PG_FUNCTION_ARGS)
{
	return id128_ge(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_cmp);
Datum
ulid_cmp(PG_FUNCTION_ARGS)
{
	return id128_cmp(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_larger);
Datum
ulid_larger(PG_FUNCTION_ARGS)
{
	return id128_larger(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_smaller);
Datum
ulid_smaller(PG_FUNCTION_ARGS)
{
	return id128_smaller(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_sortsupport);
Datum
ulid_sortsupport(PG_FUNCTION_ARGS)
{
	return id128_sortsupport(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_hash);
Datum
ulid_hash(PG_FUNCTION_ARGS)
{
	return id128_hash(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_hash_extended);
Datum
ulid_hash_extended(PG_FUNCTION_ARGS)
{
	return id128_hash_extended(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_brin_distance);
Datum
ulid_brin_distance(PG_FUNCTION_ARGS)
{
	return id128_brin_distance(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_to_bytea);
Datum
ulid_to_bytea(PG_FUNCTION_ARGS)
{
	return id128_to_bytea(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_from_bytea);
Datum
ulid_from_bytea(PG_FUNCTION_ARGS)
{
	return id128_from_bytea<ulid_traits>(fcinfo);
}

/* uuid has the same 16 bytes: the casts to and from it change nothing. */
PG_FUNCTION_INFO_V1(ulid_to_uuid);
Datum
ulid_to_uuid(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(PG_GETARG_DATUM(0));
}

PG_FUNCTION_INFO_V1(ulid_from_uuid);
Datum
ulid_from_uuid(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(PG_GETARG_DATUM(0));
}

PG_FUNCTION_INFO_V1(ulid_timestamp);
Datum
ulid_timestamp(PG_FUNCTION_ARGS)
{
	const auto ms = static_cast<std::int64_t>(idt::ulid_ms(glue::to_u128(PG_GETARG_ID128_P(0))));
	PG_RETURN_TIMESTAMPTZ(glue::unix_ms_to_timestamptz(ms));
}

/* ---- euid ------------------------------------------------------------------------------------ */

PG_FUNCTION_INFO_V1(euid_in);
Datum
euid_in(PG_FUNCTION_ARGS)
{
	return id128_in<euid_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_out);
Datum
euid_out(PG_FUNCTION_ARGS)
{
	return id128_out<euid_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_recv);
Datum
euid_recv(PG_FUNCTION_ARGS)
{
	return id128_recv<euid_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_send);
Datum
euid_send(PG_FUNCTION_ARGS)
{
	return id128_send(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_eq);
Datum
euid_eq(PG_FUNCTION_ARGS)
{
	return id128_eq(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_ne);
Datum
euid_ne(PG_FUNCTION_ARGS)
{
	return id128_ne(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_lt);
Datum
euid_lt(PG_FUNCTION_ARGS)
{
	return id128_lt(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_le);
Datum
euid_le(PG_FUNCTION_ARGS)
{
	return id128_le(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_gt);
Datum
euid_gt(PG_FUNCTION_ARGS)
{
	return id128_gt(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_ge);
Datum
euid_ge(PG_FUNCTION_ARGS)
{
	return id128_ge(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_cmp);
Datum
euid_cmp(PG_FUNCTION_ARGS)
{
	return id128_cmp(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_larger);
Datum
euid_larger(PG_FUNCTION_ARGS)
{
	return id128_larger(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_smaller);
Datum
euid_smaller(PG_FUNCTION_ARGS)
{
	return id128_smaller(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_sortsupport);
Datum
euid_sortsupport(PG_FUNCTION_ARGS)
{
	return id128_sortsupport(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_hash);
Datum
euid_hash(PG_FUNCTION_ARGS)
{
	return id128_hash(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_hash_extended);
Datum
euid_hash_extended(PG_FUNCTION_ARGS)
{
	return id128_hash_extended(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_brin_distance);
Datum
euid_brin_distance(PG_FUNCTION_ARGS)
{
	return id128_brin_distance(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_to_bytea);
Datum
euid_to_bytea(PG_FUNCTION_ARGS)
{
	return id128_to_bytea(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_from_bytea);
Datum
euid_from_bytea(PG_FUNCTION_ARGS)
{
	return id128_from_bytea<euid_traits>(fcinfo);
}

/* uuid has the same 16 bytes: the casts to and from it change nothing. */
PG_FUNCTION_INFO_V1(euid_to_uuid);
Datum
euid_to_uuid(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(PG_GETARG_DATUM(0));
}

PG_FUNCTION_INFO_V1(euid_from_uuid);
Datum
euid_from_uuid(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(PG_GETARG_DATUM(0));
}

PG_FUNCTION_INFO_V1(euid_timestamp);
Datum
euid_timestamp(PG_FUNCTION_ARGS)
{
	const auto ms = static_cast<std::int64_t>(idt::euid_ms(glue::to_u128(PG_GETARG_ID128_P(0))));
	PG_RETURN_TIMESTAMPTZ(glue::unix_ms_to_timestamptz(ms));
}

/* The attached extension, or NULL when the EUID has none (extension length 0). */
PG_FUNCTION_INFO_V1(euid_extension);
Datum
euid_extension(PG_FUNCTION_ARGS)
{
	const int ext = idt::euid_extension(glue::to_u128(PG_GETARG_ID128_P(0)));
	if (ext < 0)
		PG_RETURN_NULL();
	PG_RETURN_INT32(ext);
}

/* ---- ulid and UUIDv7 ------------------------------------------------------------------------- */

/*
 * A UUIDv7 as a ULID and back, keeping the time, the millisecond's fraction (rand_a, in
 * generate_ulid()'s 12 bits) and the random bits; the version and variant bits are what is
 * dropped (core/include/idtypes/formats.hpp). A uuid of another version has no time to keep.
 */
PG_FUNCTION_INFO_V1(uuidv7_to_ulid);
Datum
uuidv7_to_ulid(PG_FUNCTION_ARGS)
{
	const idt::u128 v = glue::to_u128(PG_GETARG_ID128_P(0));
	if (!idt::uuid_is_v7(v))
		ereport(
			ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("uuid \"%s\" is not a UUIDv7",
					DatumGetCString(DirectFunctionCall1(uuid_out, PG_GETARG_DATUM(0)))),
			 errdetail("Its version is %d and its variant bits are %d%d; a UUIDv7 has version 7 "
					   "and variant bits 10.",
					   static_cast<int>((v.hi >> 12) & 0xF), static_cast<int>(v.lo >> 63),
					   static_cast<int>((v.lo >> 62) & 1)),
			 errhint("To keep all 128 bits as they are, cast it: id::ulid.")));
	PG_RETURN_POINTER(glue::make_id128(idt::ulid_from_uuidv7(v)));
}

PG_FUNCTION_INFO_V1(ulid_to_uuidv7);
Datum
ulid_to_uuidv7(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(glue::make_id128(idt::uuidv7_from_ulid(glue::to_u128(PG_GETARG_ID128_P(0)))));
}

} /* extern "C" */
