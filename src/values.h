/* values.h: the ID values as generic glue code sees them: Datums, order-preserving doubles, neighbours. */
#ifndef IDTYPES_VALUES_H
#define IDTYPES_VALUES_H

#include "glue.h"

namespace glue
{

inline Datum
id_to_datum(std::uint64_t v)
{
	return Int64GetDatum(static_cast<int64>(v));
}

inline Datum
id_to_datum(idt::u128 v)
{
	return PointerGetDatum(glue::make_id128(v));
}

template <class V>
V id_from_datum(Datum d);

template <>
inline std::uint64_t
id_from_datum<std::uint64_t>(Datum d)
{
	return static_cast<std::uint64_t>(DatumGetInt64(d));
}

template <>
inline idt::u128
id_from_datum<idt::u128>(Datum d)
{
	return glue::to_u128(DatumGetId128P(d));
}

/* Order-preserving (not injective) map to float8, for estimates and subtype_diff. */
inline double
id_to_double(std::uint64_t v)
{
	return static_cast<double>(v);
}

inline double
id_to_double(idt::u128 v)
{
	return static_cast<double>(v.hi) * 18446744073709551616.0 + static_cast<double>(v.lo);
}

inline std::uint64_t
id_succ(std::uint64_t v)
{
	return v + 1;
}

inline idt::u128
id_succ(idt::u128 v)
{
	return {v.hi + (v.lo == ~0ull ? 1 : 0), v.lo + 1};
}

inline std::uint64_t
id_pred(std::uint64_t v)
{
	return v - 1;
}

inline idt::u128
id_pred(idt::u128 v)
{
	return {v.hi - (v.lo == 0 ? 1 : 0), v.lo - 1};
}

} /* namespace glue */

#endif /* IDTYPES_VALUES_H */
