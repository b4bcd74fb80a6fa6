/*
 * selectivity.cpp: the estimates of ^@ and <@, from the histogram extended to the index's end and
 * the rows added since ANALYZE.
 *
 * A condition is the interval [lo, hi] of the IDs' order (index_support.cpp's bounds), so its
 * share of the analyzed rows is the histogram's share between lo and hi, as core's
 * ineq_histogram_selectivity reads it, plus the most common values that fall in. Rows inserted
 * since ANALYZE have IDs above the histogram when their IDs were made in time order (the
 * column's correlation says how many): they are spread from the histogram's last bound (or the
 * first ID at or above the ANALYZE's time) to the index's actual largest ID. Example: 19,900 rows
 * over 20 days, analyzed, then 2,000 in the last 10 minutes; "the last hour" is then about 2,000
 * rows, where the histogram alone, which ends before the new rows, would say about none.
 */
#include "planner/planner.h"

extern "C" {
#include "access/htup_details.h"
#include "catalog/pg_statistic.h"
}

namespace planning
{

namespace
{

/* Fraction of the histogram's population at or below x, interpolated within a bucket. */
double
histogram_fraction(const double *bounds, int n, double x)
{
	if (x < bounds[0])
		return 0.0;
	if (x >= bounds[n - 1])
		return 1.0;
	int lo = 0, hi = n - 1; /* bounds[lo] <= x < bounds[hi] */
	while (hi - lo > 1)
	{
		const int mid = lo + (hi - lo) / 2;
		if (bounds[mid] <= x)
			lo = mid;
		else
			hi = mid;
	}
	const double width = bounds[hi] - bounds[lo];
	const double within = width > 0 ? (x - bounds[lo]) / width : 0.5;
	return (lo + within) / (n - 1);
}

} /* namespace */

/*
 * Selectivity of "id op const" from the column's statistics: the MCVs inside [lo, hi] exactly,
 * plus the histogram's share of [lo, hi] by linear interpolation of the IDs' values (as
 * convert_to_scalar does for numbers; PostgreSQL cannot do it for a type it does not know),
 * never below one distinct value's share. IDs are made in time order, and the newest rows are
 * the ones the statistics have not seen yet:
 *  - past the histogram's ends, the index's actual smallest and largest values extend it (as
 *    core does for its own types);
 *  - the rows the table has gained since ANALYZE (growth.cpp's row_counts) lie
 *    between the histogram's last bound and the actual largest value, in the share the column's
 *    physical order follows its value order (pg_stats.correlation; ~1 for IDs made as rows are
 *    inserted, ~0 for random ones), and are spread like the histogram otherwise.
 * No statistics: the default range estimate.
 */
template <class T, op_kind K>
double
restriction_selectivity(PlannerInfo *root, List *args, int varRelid)
{
	using V = typename T::value_type;
	VariableStatData vardata;
	Node *other;
	bool varonleft;
	if (!get_restriction_variable(root, args, varRelid, &vardata, &other, &varonleft))
		return DEFAULT_RANGE_INEQ_SEL;
	if (!varonleft || !IsA(other, Const))
	{
		ReleaseVariableStats(vardata);
		return DEFAULT_RANGE_INEQ_SEL;
	}
	const Const *c = reinterpret_cast<const Const *>(other);
	if (c->constisnull)
	{
		ReleaseVariableStats(vardata);
		return 0.0;
	}
	const Oid typid = vardata.atttype;
	const typename T::range_type r = const_bounds<T, K>(c, typid);
	if (r.error != idt::errc::ok)
	{
		ReleaseVariableStats(vardata);
		return DEFAULT_RANGE_INEQ_SEL;
	}
	if (r.empty)
	{
		ReleaseVariableStats(vardata);
		return 0.0;
	}
	const bool whole = r.lo == T::min && r.hi == T::max;
	if (!HeapTupleIsValid(vardata.statsTuple))
	{
		ReleaseVariableStats(vardata);
		return whole ? 1.0 : DEFAULT_RANGE_INEQ_SEL;
	}

	const double nullfrac =
		reinterpret_cast<Form_pg_statistic>(GETSTRUCT(vardata.statsTuple))->stanullfrac;
	double mcv_sel = 0.0, sumcommon = 0.0;
	AttStatsSlot sslot;
	if (get_attstatsslot(&sslot, vardata.statsTuple, STATISTIC_KIND_MCV, InvalidOid,
						 ATTSTATSSLOT_VALUES | ATTSTATSSLOT_NUMBERS))
	{
		for (int i = 0; i < sslot.nvalues && i < sslot.nnumbers; i++)
		{
			const V v = id_from_datum<V>(sslot.values[i]);
			sumcommon += sslot.numbers[i];
			if (!(v < r.lo) && !(r.hi < v))
				mcv_sel += sslot.numbers[i];
		}
		free_attstatsslot(&sslot);
	}
	const double ordered = ordered_share(vardata.statsTuple);
	/*
	 * Statistics extended by relation_stats() below hold the new rows already, and their last
	 * bound is the index's largest ID.
	 */
	const bool extended = is_extended_stats(&vardata);
	double now_rows = 0, described_rows = 0;
	if (!extended && new_row_estimates)
		row_counts(root, &vardata, &now_rows, &described_rows);
	const double new_rows = now_rows > described_rows ? now_rows - described_rows : 0.0;

	double hist_sel = whole ? 1.0 : DEFAULT_RANGE_INEQ_SEL;
	double new_sel = hist_sel;
	if (!whole && get_attstatsslot(&sslot, vardata.statsTuple, STATISTIC_KIND_HISTOGRAM, InvalidOid,
								   ATTSTATSSLOT_VALUES))
	{
		const int n = sslot.nvalues;
		if (n >= 2)
		{
			double *bounds = static_cast<double *>(palloc(sizeof(double) * n));
			for (int i = 0; i < n; i++)
				bounds[i] = id_to_double(id_from_datum<V>(sslot.values[i]));
			const double lo = id_to_double(r.lo), hi = id_to_double(r.hi);
			const Oid opfamily = lookup_type_cache(typid, TYPECACHE_BTREE_OPFAMILY)->btree_opf;
			Datum extreme;
			if (lo < bounds[0] && actual_extreme(root, &vardata, opfamily, false, &extreme))
				bounds[0] = Min(bounds[0], id_to_double(id_from_datum<V>(extreme)));
			double top = bounds[n - 1];
			if (hi > bounds[n - 1] && !extended &&
				actual_extreme(root, &vardata, opfamily, true, &extreme))
				top = Max(top, id_to_double(id_from_datum<V>(extreme)));
			/* Rows above the histogram: new rows in time order, else the last bucket grows. */
			const double above = new_rows > 0 ? ordered : 0.0;
			if (above == 0.0)
				bounds[n - 1] = top;
			hist_sel = histogram_fraction(bounds, n, hi) - histogram_fraction(bounds, n, lo);
			if (r.lo == r.hi || hist_sel < 0)
				hist_sel = 0;
			bool isdefault;
			const double ndistinct = get_variable_numdistinct(&vardata, &isdefault);
			if (ndistinct >= 1 && hist_sel < 1.0 / ndistinct)
				hist_sel = 1.0 / ndistinct;
			double above_sel = 0.0;
			if (top > bounds[n - 1])
			{
				const double from = Max(lo, bounds[n - 1]), to = Min(hi, top);
				above_sel = to >= from ? (to - from) / (top - bounds[n - 1]) : 0.0;
			}
			new_sel = above * above_sel + (1.0 - above) * hist_sel;
			pfree(bounds);
		}
		free_attstatsslot(&sslot);
	}
	ReleaseVariableStats(vardata);

	double sel = hist_sel * (1.0 - nullfrac - sumcommon) + mcv_sel;
	if (new_rows > 0)
		sel = (sel * described_rows + new_sel * (1.0 - nullfrac) * new_rows) / now_rows;
	CLAMP_PROBABILITY(sel);
	return sel;
}

#define IDT_INSTANTIATE(T)                                                                         \
	template double restriction_selectivity<T##_traits, op_kind::starts_with>(PlannerInfo *,       \
																			  List *, int);        \
	template double restriction_selectivity<T##_traits, op_kind::contained>(PlannerInfo *, List *, \
																			int);
IDT_OPERATOR_TYPES(IDT_INSTANTIATE)

} /* namespace planning */
