/* ranges.h: the closed [lo, hi] an ID range stands for, shared by the range functions and the planner support. */
#ifndef IDTYPES_RANGES_H
#define IDTYPES_RANGES_H

#include "glue.h"
#include "values.h"

extern "C" {
#include "utils/rangetypes.h"
#include "utils/typcache.h"
}

namespace glue
{

template <class T>
constexpr typename T::range_type
empty_range()
{
	return {T::min, T::min, true, idt::errc::ok, 0, true};
}

/*
 * The IDs of a range of the type as a closed [lo, hi], empty when it holds none. The ranges
 * are continuous, so an exclusive bound means the next ID inward, and '(a,a+1)' holds none.
 */
template <class T>
typename T::range_type
closed_bounds(TypeCacheEntry *typcache, const RangeType *range)
{
	using V = typename T::value_type;
	RangeBound lower, upper;
	bool empty;
	range_deserialize(typcache, range, &lower, &upper, &empty);
	if (empty)
		return empty_range<T>();
	V lo = T::min, hi = T::max;
	if (!lower.infinite)
	{
		lo = id_from_datum<V>(lower.val);
		if (!lower.inclusive)
		{
			if (lo == T::max)
				return empty_range<T>();
			lo = id_succ(lo);
		}
	}
	if (!upper.infinite)
	{
		hi = id_from_datum<V>(upper.val);
		if (!upper.inclusive)
		{
			if (hi == T::min)
				return empty_range<T>();
			hi = id_pred(hi);
		}
	}
	if (hi < lo)
		return empty_range<T>();
	return {lo, hi, false, idt::errc::ok, 0, true};
}

/* '[lo,hi]' or 'empty' as a value of the range type of typcache. */
template <class T>
RangeType *
closed_range(TypeCacheEntry *typcache, const typename T::range_type &r)
{
	if (r.empty)
		return make_empty_range(typcache);
	RangeBound lower = {id_to_datum(r.lo), false, true, true};
	RangeBound upper = {id_to_datum(r.hi), false, true, false};
	return idt_make_range(typcache, &lower, &upper);
}

} /* namespace glue */

#endif /* IDTYPES_RANGES_H */
