/* skipsupport.cpp: btree skip support (PostgreSQL 18+) for the five types: next and previous ID. */
#include "glue.h"
#include "traits.h"
#include "values.h"

#if IDT_HAVE_SKIP_SUPPORT

extern "C" {
#include "utils/skipsupport.h"
}

namespace
{

/*
 * A skip scan over a leading ID column steps from one value to the next possible one; with these
 * functions it probes the index for exactly that value instead of the next value that exists.
 * The values are the type's whole domain [T::min, T::max] in index order; the 16-byte results
 * are palloc'd in the caller's context, as the API asks.
 */
template <class T>
Datum
id_decrement(Relation, Datum existing, bool *underflow)
{
	const auto v = glue::id_from_datum<typename T::value_type>(existing);
	*underflow = v == T::min;
	return *underflow ? existing : glue::id_to_datum(glue::id_pred(v));
}

template <class T>
Datum
id_increment(Relation, Datum existing, bool *overflow)
{
	const auto v = glue::id_from_datum<typename T::value_type>(existing);
	*overflow = v == T::max;
	return *overflow ? existing : glue::id_to_datum(glue::id_succ(v));
}

template <class T>
Datum
id_skipsupport(FunctionCallInfo fcinfo)
{
	SkipSupport sksup = reinterpret_cast<SkipSupport>(PG_GETARG_POINTER(0));
	sksup->decrement = id_decrement<T>;
	sksup->increment = id_increment<T>;
	sksup->low_elem = glue::id_to_datum(T::min);
	sksup->high_elem = glue::id_to_datum(T::max);
	PG_RETURN_VOID();
}

} /* namespace */

/* The fmgr entry points, each named after its SQL object: one per type. */
extern "C" {

PG_FUNCTION_INFO_V1(uid11_skipsupport);
Datum
uid11_skipsupport(PG_FUNCTION_ARGS)
{
	return id_skipsupport<uid11_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_skipsupport);
Datum
timeid_skipsupport(PG_FUNCTION_ARGS)
{
	return id_skipsupport<timeid_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_skipsupport);
Datum
ulidflake_skipsupport(PG_FUNCTION_ARGS)
{
	return id_skipsupport<ulidflake_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_skipsupport);
Datum
ulid_skipsupport(PG_FUNCTION_ARGS)
{
	return id_skipsupport<ulid_traits>(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_skipsupport);
Datum
euid_skipsupport(PG_FUNCTION_ARGS)
{
	return id_skipsupport<euid_traits>(fcinfo);
}

} /* extern "C" */

#endif /* IDT_HAVE_SKIP_SUPPORT */
