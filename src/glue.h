/* glue.h: what the type glue files share: byte order, time conversion, error reports. */
#ifndef IDTYPES_GLUE_H
#define IDTYPES_GLUE_H

#include <cstring>
#include <type_traits>

#include "idtypes/generate.hpp"

#include "compat.h"

extern "C" {
#include "datatype/timestamp.h"
#include "port/pg_bswap.h"
}

/* A 16-byte ID as stored: big-endian bytes, like pg_uuid_t, so memcmp order is value order. */
struct id128
{
	unsigned char data[16];
};

static_assert(sizeof(id128) == 16, "16-byte IDs are stored without padding");

#define DatumGetId128P(X) ((id128 *) DatumGetPointer(X))
#define PG_GETARG_ID128_P(n) DatumGetId128P(PG_GETARG_DATUM(n))

namespace glue
{

/* One load and a byte swap (gcc does not turn a loop over the bytes into that). */
inline std::uint64_t
load_be64(const unsigned char *p)
{
	std::uint64_t v;
	memcpy(&v, p, 8);
	return pg_ntoh64(v);
}

inline void
store_be64(std::uint64_t v, unsigned char *p)
{
	v = pg_hton64(v);
	memcpy(p, &v, 8);
}

inline idt::u128
to_u128(const id128 *id)
{
	return {load_be64(id->data), load_be64(id->data + 8)};
}

/* A palloc'd id128 holding v. */
id128 *make_id128(idt::u128 v);

/* Unix microseconds <-> PostgreSQL timestamps (microseconds since 2000-01-01). */
constexpr std::int64_t unix_to_pg_us =
	static_cast<std::int64_t>(POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * USECS_PER_DAY;

inline TimestampTz
unix_ms_to_timestamptz(std::int64_t unix_ms)
{
	return unix_ms * 1000 - unix_to_pg_us;
}

inline TimestampTz
unix_us_to_timestamptz(std::int64_t unix_us)
{
	return unix_us - unix_to_pg_us;
}

/* What a parse error report says about the text it rejects. */
struct text_spec
{
	const char *type_name;
	const char *length_hint; /* the accepted length(s): "26 characters" */
	const char *symbols;     /* the alphabet: "2-7 and lower-case a-z" */
	bool prefix;             /* a prefix (^@, *_prefix_range), not a whole value */
	bool uuid_hint;          /* a UUID-shaped text gets a hint to cast it from uuid */
	/* The detail of an out-of-range value, a full sentence ("The first symbol ... at most 7."). */
	const char *range_detail = nullptr;
	/* The first byte no text of the type may hold, or -1: named beside a wrong length. */
	int (*find_non_symbol)(const char *, std::size_t) = nullptr;
	/* A type whose text is often given for this one (ulid <-> euid), and whether it reads it. */
	const char *sibling = nullptr;
	bool (*sibling_reads)(const char *, std::size_t) = nullptr;
};

static_assert(std::is_trivially_destructible<text_spec>::value, "lives across ereport");

/* What the text input of the type of traits T reports. */
template <class T>
constexpr text_spec
input_spec()
{
	return {T::name,         T::length_hint,     T::symbols, false,           T::uuid_hint,
			T::range_detail, T::find_non_symbol, T::sibling, T::sibling_reads};
}

/*
 * Report a failed text parse of `input`: 22P02 with a detail naming the reason, the offending
 * character and its position, or 22003 for a well-formed value out of range. Soft (errsave) on
 * PG 16+, so the caller must return afterwards.
 */
void report_parse_error(Node *escontext, const text_spec &spec, const char *input,
						std::size_t input_len, idt::errc error, unsigned offset);

/* 22P03 for binary input (recv, bytea) of the wrong length. */
[[noreturn]] void report_binary_length(const char *type_name, int expected, int got);

/* 22003 for a binary value whose top bit the type keeps clear. */
[[noreturn]] void report_binary_range(const char *type_name);

} /* namespace glue */

/* Define the GUCs and, when preloaded, request the shared generator state (generate.cpp). */
void idt_generators_init();
/* Install the statistics hook for rows added since ANALYZE (src/planner/stats_hook.cpp). */
void idt_planner_init();
/*
 * For the LIKE rewrite (like.cpp): <type>_starts_with(<type>, text), the function of ^@, found
 * by OID among the members of support_fn's extension (src/planner/members.cpp); InvalidOid if
 * the catalog has none.
 */
Oid idt_starts_with_fn(Oid support_fn, const char *type_name, Oid typid);

#endif /* IDTYPES_GLUE_H */
