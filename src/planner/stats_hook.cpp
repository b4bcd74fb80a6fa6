/*
 * stats_hook.cpp: get_relation_stats_hook: a column's statistics with the rows added since ANALYZE
 * in the histogram.
 *
 * Core's estimates of <, <=, >=, > (and of joins and GROUP BY) read pg_statistic's histogram,
 * which ends at the largest ID ANALYZE saw. For a column of our types in a table that has grown
 * since, the hook hands the planner a copy of the statistics tuple whose histogram keeps its
 * number of bounds but gives the new rows their share of them: placed between the old last bound
 * (or the first ID at or above the ANALYZE's time) and the index's largest ID. Example: a table
 * of 19,900 rows analyzed, then 2,000 rows more; of 101 bounds, about 9 now describe the new
 * rows, and id >= (the first ID of an hour ago) is estimated within 3x of the 2,000 rows instead
 * of a few dozen. pg_stats itself is unchanged.
 */
#include "planner/planner.h"

#include <cmath>

#include "idtypes/wide.hpp"

extern "C" {
#include "access/htup_details.h"
#include "access/sysattr.h"
#include "access/table.h"
#include "catalog/pg_statistic.h"
#include "utils/array.h"
#include "utils/guc.h"
#include "utils/rel.h"
#include "utils/syscache.h"
}

/*
 * Core estimates the btree operators (<, <=, >=, >, and the >= AND <= pair the pruning rewrite
 * leaves on a partitioned table) from the histogram ANALYZE made, which holds none of the rows
 * added since: on a table of time-ordered IDs those are the newest, the ones "the last hour"
 * asks for. While a table has grown since ANALYZE (growth.cpp), the planner's statistics hook
 * hands core (and our own estimators) the stored statistics with the histogram extended: the
 * rows added since, in the share pg_stats.correlation says follow the value order, spread
 * evenly between the histogram's last bound (or, after a quiet gap, the first ID at or above the
 * ANALYZE's time: new_rows_from) and the largest ID the btree index holds; the histogram keeps
 * its number of bounds. Only columns of our five types on plain tables and
 * partitions, only when an index gives the actual largest value, and only where core itself
 * would take statistics (all_rows_selectable). Everything else, and a server without
 * all_rows_selectable (compat.h), is left to core. The hook is installed when the library is
 * loaded: by any query with a constant or parameter of our types or a call of our functions, or
 * from the start with session_preload_libraries.
 */

namespace planning
{

namespace
{

get_relation_stats_hook_type prev_relation_stats_hook = nullptr;

/* The value j/k of the way from a to b (a <= b, 0 <= j <= k), exactly. */
std::uint64_t
id_between(std::uint64_t a, std::uint64_t b, int j, int k)
{
	const std::uint64_t d = b - a;
	return a + d / k * j + d % k * j / k;
}

idt::u128
id_between(idt::u128 a, idt::u128 b, int j, int k)
{
	const idt::uwide wa = idt::widen(a), d = idt::widen(b) - wa;
	return idt::narrow(wa + d / k * j + d % k * j / k);
}

/*
 * The freefuncs of an extended statistics tuple, also how our estimators recognize one: one of
 * this lookup's own, or one the planning run keeps (run_cache), which goes with its memory.
 */
void
free_extended_stats(HeapTuple tuple)
{
	heap_freetuple(tuple);
}

void
keep_extended_stats(HeapTuple)
{
}

/* An ID as keep_id() keeps it, and back. */
idt::u128
as_kept(std::uint64_t v)
{
	return {0, v};
}

idt::u128
as_kept(idt::u128 v)
{
	return v;
}

template <class V>
V from_kept(idt::u128 v);

template <>
std::uint64_t
from_kept<std::uint64_t>(idt::u128 v)
{
	return v.lo;
}

template <>
idt::u128
from_kept<idt::u128>(idt::u128 v)
{
	return v;
}

/*
 * Where the new rows begin. IDs made as rows are inserted carry the time they were made, so rows
 * added since the last ANALYZE lie at or above the lowest ID of its time: the first index entry
 * there is the first new row, found even after a quiet gap (a table loaded, analyzed, then quiet
 * for a day before a burst), where spreading the new rows from the histogram's last bound to the
 * largest ID would thin them over the whole gap. One more index probe, once per ANALYZE and
 * VACUUM of the table (kept_id_of), used while not above the largest ID (top). last when that
 * entry is unknown or not above it.
 */
template <class T>
typename T::value_type
new_rows_from(PlannerInfo *root, const VariableStatData *vardata, const column_now &column,
			  Oid opfamily, typename T::value_type last, typename T::value_type top)
{
	using V = typename T::value_type;
	if (!column.valid || column.analyzed == 0)
		return last;
	idt::time_window w = {};
	w.lo_us = column.analyzed + glue::unix_to_pg_us; /* a time of this server: no clamp needed */
	w.lo_inclusive = true;
	w.hi_infinite = true;
	const typename T::range_type r = T::time_range(w);
	if (r.empty || !(last < r.lo) || !(r.lo < top))
		return last;
	idt::u128 kept;
	V f;
	if (kept_id_of(column, KEPT_FIRST_NEW, &kept) && !(top < from_kept<V>(kept)))
		f = from_kept<V>(kept);
	else
	{
		Datum first;
		if (!first_at_or_above(root, vardata, opfamily, id_to_datum(r.lo), &first))
			return last;
		f = id_from_datum<V>(first);
		keep_id(column, KEPT_FIRST_NEW, as_kept(f));
	}
	return last < f ? f : last;
}

/*
 * The column's statistics with the histogram extended by the rows added since ANALYZE, in
 * result_context; nullptr (core looks them up itself) where there is nothing to extend.
 */
template <class T>
HeapTuple
extended_stats(PlannerInfo *root, RangeTblEntry *rte, AttrNumber attnum,
			   const VariableStatData *vardata, MemoryContext result_context)
{
	using V = typename T::value_type;
	double now_rows, described_rows;
	column_now column;
	row_counts(root, vardata, &now_rows, &described_rows, &column);
	if (now_rows <= described_rows)
		return nullptr;
	HeapTuple stats = SearchSysCache3(STATRELATTINH, ObjectIdGetDatum(rte->relid),
									  Int16GetDatum(attnum), BoolGetDatum(false));
	if (!HeapTupleIsValid(stats))
		return nullptr;
	const Form_pg_statistic form = reinterpret_cast<Form_pg_statistic>(GETSTRUCT(stats));
	const double ordered = ordered_share(stats);
	double sumcommon = 0.0;
	AttStatsSlot sslot;
	if (get_attstatsslot(&sslot, stats, STATISTIC_KIND_MCV, InvalidOid, ATTSTATSSLOT_NUMBERS))
	{
		for (int i = 0; i < sslot.nnumbers; i++)
			sumcommon += sslot.numbers[i];
		free_attstatsslot(&sslot);
	}
	int slot = -1;
	for (int i = 0; i < STATISTIC_NUM_SLOTS; i++)
		if ((&form->stakind1)[i] == STATISTIC_KIND_HISTOGRAM)
			slot = i;
	Datum top;
	const Oid opfamily = lookup_type_cache(vardata->atttype, TYPECACHE_BTREE_OPFAMILY)->btree_opf;
	if (ordered <= 0.0 || slot < 0 ||
		!get_attstatsslot(&sslot, stats, STATISTIC_KIND_HISTOGRAM, InvalidOid, ATTSTATSSLOT_VALUES))
	{
		ReleaseSysCache(stats);
		return nullptr;
	}
	/*
	 * The histogram's population and the new rows above it, in rows; the new rows get their
	 * share of the bounds, and a table that has not grown by one bucket's worth is left alone
	 * before the index is asked for its largest value.
	 */
	const int n = sslot.nvalues;
	const double new_rows = now_rows - described_rows;
	const double above = ordered * new_rows;
	const double below =
		described_rows * Max(0.0, 1.0 - form->stanullfrac - sumcommon) + (1.0 - ordered) * new_rows;
	const int k_new = Min(n - 2, static_cast<int>(std::rint((n - 1) * above / (above + below))));
	const V last = n >= 2 ? id_from_datum<V>(sslot.values[n - 1]) : V{};
	V to{};
	if (k_new >= 1)
	{
		idt::u128 kept;
		if (kept_id_of(column, KEPT_LARGEST, &kept))
			to = from_kept<V>(kept);
		else if (actual_extreme(root, vardata, opfamily, true, &top))
		{
			to = id_from_datum<V>(top);
			keep_id(column, KEPT_LARGEST, as_kept(to));
		}
	}
	if (k_new < 1 || !(last < to))
	{
		free_attstatsslot(&sslot);
		ReleaseSysCache(stats);
		return nullptr;
	}
	const int k_old = n - 1 - k_new;
	Datum *values = static_cast<Datum *>(palloc(sizeof(Datum) * n));
	for (int i = 0; i <= k_old; i++)
		values[i] = id_to_datum(id_from_datum<V>(
			sslot.values[static_cast<int>(std::rint(static_cast<double>(i) * (n - 1) / k_old))]));
	const V from = new_rows_from<T>(root, vardata, column, opfamily, last, to);
	if (last < from && k_new >= 2)
	{
		/* A quiet gap: one bucket for it, the new rows' between the first of them and the last. */
		for (int j = 0; j < k_new; j++)
			values[k_old + 1 + j] = id_to_datum(id_between(from, to, j, k_new - 1));
	}
	else
	{
		for (int j = 1; j <= k_new; j++)
			values[k_old + j] = id_to_datum(id_between(last, to, j, k_new));
	}
	free_attstatsslot(&sslot);
	int16 typlen;
	bool typbyval;
	char typalign;
	get_typlenbyvalalign(vardata->atttype, &typlen, &typbyval, &typalign);
	ArrayType *histogram = construct_array(values, n, vardata->atttype, typlen, typbyval, typalign);

	Relation statrel = table_open(StatisticRelationId, AccessShareLock);
	Datum repl[Natts_pg_statistic] = {};
	bool nulls[Natts_pg_statistic] = {};
	bool replace[Natts_pg_statistic] = {};
	repl[Anum_pg_statistic_stavalues1 - 1 + slot] = PointerGetDatum(histogram);
	replace[Anum_pg_statistic_stavalues1 - 1 + slot] = true;
	MemoryContext old = MemoryContextSwitchTo(result_context);
	HeapTuple copy = heap_modify_tuple(stats, RelationGetDescr(statrel), repl, nulls, replace);
	MemoryContextSwitchTo(old);
	table_close(statrel, AccessShareLock);
	ReleaseSysCache(stats);
	pfree(histogram);
	pfree(values);
	return copy;
}

/* The column's statistics extended (or nullptr), for the column of varno. */
HeapTuple
extended_column_stats(PlannerInfo *root, RangeTblEntry *rte, AttrNumber attnum, Index varno,
					  MemoryContext result_context)
{
	Oid typid, collation;
	int32 typmod;
	get_atttypetypmodcoll(rte->relid, attnum, &typid, &typmod, &collation);
	VariableStatData column = {};
	column.var = reinterpret_cast<Node *>(makeVar(varno, attnum, typid, typmod, collation, 0));
	column.rel = root->simple_rel_array[varno];
	column.atttype = typid;
	column.atttypmod = typmod;
	switch (kind_of(typid))
	{
#define IDT_EXTENDED(T)                                                                            \
	case id_kind::T:                                                                               \
		return extended_stats<T##_traits>(root, rte, attnum, &column, result_context);
		IDT_PLANNER_TYPES(IDT_EXTENDED)
#undef IDT_EXTENDED
		case id_kind::none:
			break;
	}
	return nullptr;
}

/*
 * get_relation_stats_hook: see above. The relation is the planner's own entry of rte. Of
 * vardata only the results are set, and one field is read: btcostestimate hands it zeroed (rel
 * NULL), since it wants only the column's correlation, which the extended statistics do not
 * change: core looks that up itself, and the index's end is not read for it. examine_variable
 * always sets rel; brincostestimate leaves vardata uninitialized, and its column's end is
 * already in the planning run's cache from the estimate of its conditions.
 */
bool
relation_stats(PlannerInfo *root, RangeTblEntry *rte, AttrNumber attnum, VariableStatData *vardata)
{
	if (prev_relation_stats_hook != nullptr && prev_relation_stats_hook(root, rte, attnum, vardata))
		return true;
	if (!new_row_estimates)
		return false;
	/* Only a column of a table (not of an inheritance tree) of this query level. */
	if (root == nullptr || rte->rtekind != RTE_RELATION || rte->inh || attnum <= 0 ||
		vardata->rel == nullptr)
		return false;
	/* Once per column and planning run, kept in its memory; else this lookup's own. */
	run_cache *cache = run_cache_of(root);
	Index varno = 0;
	if (cache != nullptr)
		varno = rte_index_of(cache, root, rte);
	else
		for (int i = 1; i < root->simple_rel_array_size; i++)
			if (root->simple_rte_array[i] == rte)
				varno = i;
	if (varno == 0 || root->simple_rel_array[varno] == nullptr)
		return false;
	HeapTuple tuple = nullptr;
	if (cache != nullptr)
	{
		bool kept;
		run_entry *e = run_entry_of(cache, rte->relid, attnum, RUN_STATS, &kept);
		if (!kept)
			e->stats = extended_column_stats(root, rte, attnum, varno, cache->context);
		tuple = e->stats;
	}
	else
		tuple = extended_column_stats(root, rte, attnum, varno, CurrentMemoryContext);
	if (tuple == nullptr)
		return false;
	vardata->statsTuple = tuple;
	vardata->freefunc = cache != nullptr ? keep_extended_stats : free_extended_stats;
	vardata->acl_ok = idt_all_rows_selectable(
		root, varno, bms_make_singleton(attnum - FirstLowInvalidHeapAttributeNumber));
	return true;
}

} /* namespace */

bool new_row_estimates = true;

bool
is_extended_stats(const VariableStatData *vardata)
{
	return vardata->freefunc == free_extended_stats || vardata->freefunc == keep_extended_stats;
}

void
install_stats_hook()
{
	/* A server without all_rows_selectable (compat.h) keeps core's statistics. */
	if (idt_all_rows_selectable == nullptr)
		return;
	prev_relation_stats_hook = get_relation_stats_hook;
	get_relation_stats_hook = relation_stats;
}

} /* namespace planning */

void
idt_planner_init()
{
	DefineCustomBoolVariable(
		"idtypes.new_row_estimates",
		"Counts the rows added to a table since its last ANALYZE into the estimates on ID columns.",
		"On (default): the estimates of ^@ and <@ and, through the planner's statistics hook, "
		"core's "
		"estimates on the five ID types (<, >=, joins) place the rows added since ANALYZE above "
		"the "
		"histogram, up to the largest ID in a btree index. Off: the statistics as ANALYZE left "
		"them, "
		"and no index entries read to count new rows. Index conditions and rewrites do not change.",
		&planning::new_row_estimates, true, PGC_USERSET, 0, nullptr, nullptr, nullptr);
	planning::install_stats_hook();
}
