/*
 * growth.cpp: how far a table has grown past its statistics (checked against its index), and the
 * index's actual ends, read once per planning run.
 *
 * The rows added since ANALYZE: the table's size now against pg_class.reltuples; after a VACUUM
 * (which moves reltuples, not pg_statistic), the cumulative statistics' rows modified since
 * ANALYZE, checked once per ANALYZE against the btree index (the entries above the histogram's
 * last bound, counted up to a limit; the check kept by the session until the next ANALYZE or a
 * new relfilenode: kept.cpp). Example: 19,900 rows analyzed, 2,000 inserted, a VACUUM:
 * reltuples says 21,900, the statistics describe 19,900, and 2,000 are new. The index's
 * ends are read as core's get_actual_variable_endpoint reads them (skipping dead entries, at most
 * 100 heap pages), and kept with the planning run's memory (run_cache), so that an estimate, the
 * statistics hook and a subquery of one plan probe each end once; the two IDs the statistics hook
 * reads are kept across planning runs too, beside the check (kept.cpp).
 */
#include "planner/planner.h"

#include <cmath>

extern "C" {
#include "access/genam.h"
#include "access/relscan.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/visibilitymap.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_statistic.h"
#include "executor/tuptable.h"
#include "optimizer/paths.h"
#include "parser/parsetree.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "utils/datum.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
}

namespace planning
{

namespace
{

/* When the table was last analyzed, by hand or by autovacuum. */
TimestampTz
last_analyzed(const PgStat_StatTabEntry *tab)
{
	return Max(IDT_TABSTAT_LAST_ANALYZE(tab), IDT_TABSTAT_LAST_AUTOANALYZE(tab));
}

/* When the table was last vacuumed, by hand or by autovacuum. */
TimestampTz
last_vacuumed(const PgStat_StatTabEntry *tab)
{
	return Max(IDT_TABSTAT_LAST_VACUUM(tab), IDT_TABSTAT_LAST_AUTOVACUUM(tab));
}

/* Was the table vacuumed (by hand or by autovacuum) after it was last analyzed? */
bool
vacuumed_since_analyze(const PgStat_StatTabEntry *tab)
{
	return last_vacuumed(tab) > last_analyzed(tab);
}

} /* namespace */

/*
 * What this planning run keeps: in the memory of its PlannerGlobal, forgotten when that memory
 * goes (the callback), and found again by the PlannerGlobal (subqueries share it).
 */
namespace
{

run_cache *current = nullptr;

void
forget_run(void *arg)
{
	if (current == arg)
		current = nullptr;
}

} /* namespace */

run_cache *
run_cache_of(PlannerInfo *root)
{
	if (root == nullptr || root->glob == nullptr)
		return nullptr;
	if (current != nullptr && current->glob == root->glob)
		return current;
	MemoryContext context = GetMemoryChunkContext(root->glob);
	auto *c = static_cast<run_cache *>(MemoryContextAllocZero(context, sizeof(run_cache)));
	c->glob = root->glob;
	c->context = context;
	c->forget.func = forget_run;
	c->forget.arg = c;
	MemoryContextRegisterResetCallback(context, &c->forget);
	current = c;
	return c;
}

namespace
{

/* rte_index_of's map: (root, rte) to its index; (root, nullptr) to how many of root's are in. */
struct rte_key
{
	const PlannerInfo *root;
	const RangeTblEntry *rte;
};
struct rte_entry
{
	rte_key key;
	Index index; /* for (root, nullptr): the entries of root mapped, 1 .. index - 1 */
};

} /* namespace */

Index
rte_index_of(run_cache *c, PlannerInfo *root, const RangeTblEntry *rte)
{
	if (c->rtes == nullptr)
	{
		HASHCTL ctl;
		ctl.keysize = sizeof(rte_key);
		ctl.entrysize = sizeof(rte_entry);
		ctl.hcxt = c->context;
		c->rtes = hash_create("idtypes range table entries", 64, &ctl,
							  HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	rte_key key = {root, rte};
	const auto *e = static_cast<const rte_entry *>(hash_search(c->rtes, &key, HASH_FIND, nullptr));
	if (e != nullptr)
		return e->index;
	/* The planner's arrays only grow (partitions and appended relations at their end). */
	key.rte = nullptr;
	bool kept;
	auto *mapped = static_cast<rte_entry *>(hash_search(c->rtes, &key, HASH_ENTER, &kept));
	if (!kept)
		mapped->index = 1;
	Index found = 0;
	for (; static_cast<int>(mapped->index) < root->simple_rel_array_size; mapped->index++)
	{
		const RangeTblEntry *r = root->simple_rte_array[mapped->index];
		if (r == nullptr)
			continue;
		const rte_key k = {root, r};
		auto *n = static_cast<rte_entry *>(hash_search(c->rtes, &k, HASH_ENTER, nullptr));
		n->index = mapped->index;
		if (r == rte)
			found = mapped->index;
	}
	return found;
}

run_entry *
run_entry_of(run_cache *c, Oid relid, AttrNumber attnum, run_item item, bool *kept)
{
	if (c->entries == nullptr)
	{
		HASHCTL ctl;
		ctl.keysize = sizeof(run_key);
		ctl.entrysize = sizeof(run_entry);
		ctl.hcxt = c->context;
		c->entries =
			hash_create("idtypes planning run", 64, &ctl, HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	const run_key key = {relid, attnum, static_cast<int16>(item)};
	auto *e = static_cast<run_entry *>(hash_search(c->entries, &key, HASH_ENTER, kept));
	if (!*kept)
	{
		e->found = false;
		e->value = 0;
		e->stats = nullptr;
	}
	return e;
}

namespace
{

/*
 * The smallest or largest non-null value of the index's first column (or, with a key, the first
 * value the key admits in that direction), read as core's get_actual_variable_endpoint does:
 * from the index's end, skipping entries whose heap rows are dead to every transaction, visiting
 * the heap only for pages not all-visible, and giving up after 100 heap pages of dead rows. Into
 * out, copied into result_context.
 */
bool
read_index_end(Relation heap, Relation irel, bool backward, const ScanKeyData *bound,
			   MemoryContext result_context, Datum *out)
{
	SnapshotData snapshot;
	InitNonVacuumableSnapshot(snapshot, GlobalVisTestFor(heap));
	TupleTableSlot *slot = table_slot_create(heap, nullptr);
	ScanKeyData key;
	if (bound != nullptr)
		key = *bound;
	else /* "IS NOT NULL": nulls sort at one end of the index. */
		ScanKeyEntryInitialize(&key, SK_ISNULL | SK_SEARCHNOTNULL, 1, InvalidStrategy, InvalidOid,
							   InvalidOid, InvalidOid, (Datum) 0);
	IndexScanDesc scan = idt_index_beginscan(heap, irel, &snapshot, 1);
	scan->xs_want_itup = true;
	index_rescan(scan, &key, 1, nullptr, 0);
	Buffer vmbuffer = InvalidBuffer;
	BlockNumber last_block = InvalidBlockNumber;
	int heap_pages = 0;
	bool found = false;
	ItemPointer tid;
	const ScanDirection dir = backward ? BackwardScanDirection : ForwardScanDirection;
	while ((tid = index_getnext_tid(scan, dir)) != nullptr)
	{
		const BlockNumber block = ItemPointerGetBlockNumber(tid);
		if (!VM_ALL_VISIBLE(heap, block, &vmbuffer))
		{
			if (!index_fetch_heap(scan, slot))
			{
				/* Dead to everyone: try the next entry, within a bound. */
				if (block != last_block)
				{
					last_block = block;
					if (++heap_pages > 100)
						break;
				}
				continue;
			}
			ExecClearTuple(slot);
		}
		if (scan->xs_itup == nullptr)
			break;
		Datum values[INDEX_MAX_KEYS];
		bool isnull[INDEX_MAX_KEYS];
		index_deform_tuple(scan->xs_itup, scan->xs_itupdesc, values, isnull);
		if (!isnull[0])
		{
			const Form_pg_attribute att = TupleDescAttr(scan->xs_itupdesc, 0);
			MemoryContext old = MemoryContextSwitchTo(result_context);
			*out = datumCopy(values[0], att->attbyval, att->attlen);
			MemoryContextSwitchTo(old);
			found = true;
		}
		break;
	}
	if (vmbuffer != InvalidBuffer)
		ReleaseBuffer(vmbuffer);
	index_endscan(scan);
	ExecDropSingleTupleTableSlot(slot);
	return found;
}

/* The first btree index of opfamily that leads with the column, or nullptr. */
const IndexOptInfo *
find_index(const VariableStatData *vardata, Oid opfamily)
{
	ListCell *lc;
	foreach (lc, vardata->rel->indexlist)
	{
		const auto *index = static_cast<const IndexOptInfo *>(lfirst(lc));
		if (index->relam == BTREE_AM_OID && !index->hypothetical && index->indpred == NIL &&
			index->sortopfamily != nullptr && index->sortopfamily[0] == opfamily &&
			match_index_to_operand(vardata->var, 0, const_cast<IndexOptInfo *>(index)))
			return index;
	}
	return nullptr;
}

/*
 * The column's end in the first btree index of opfamily that leads with it (or, with a bound,
 * the smallest value at or above it); false if none.
 */
bool
probe(PlannerInfo *root, const VariableStatData *vardata, Oid opfamily, bool want_max,
	  const Datum *bound, MemoryContext result_context, Datum *out)
{
	const IndexOptInfo *index = find_index(vardata, opfamily);
	if (index == nullptr)
		return false;
	ScanKeyData key;
	if (bound != nullptr)
	{
		const Oid typid = vardata->atttype;
		const Oid ge = get_opfamily_member(opfamily, typid, typid, BTGreaterEqualStrategyNumber);
		if (!OidIsValid(ge))
			return false;
		ScanKeyEntryInitialize(&key, 0, 1, BTGreaterEqualStrategyNumber, typid, InvalidOid,
							   get_opcode(ge), *bound);
	}
	const RangeTblEntry *rte = planner_rt_fetch(vardata->rel->relid, root);
	/* The scan's memory goes with a context of its own, as in core. */
	MemoryContext scan_context =
		AllocSetContextCreate(CurrentMemoryContext, "idtypes index end", ALLOCSET_SMALL_SIZES);
	MemoryContext old = MemoryContextSwitchTo(scan_context);
	/* The planner holds locks on the table and its indexes already. */
	Relation heap = table_open(rte->relid, NoLock);
	Relation irel = index_open(index->indexoid, NoLock);
	/* btree reads the key in the column's order (it flips the strategy of a DESC column). */
	const bool found = read_index_end(heap, irel, want_max != index->reverse_sort[0],
									  bound != nullptr ? &key : nullptr, result_context, out);
	index_close(irel, NoLock);
	table_close(heap, NoLock);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(scan_context);
	return found;
}

/*
 * How many entries of the column's first btree index of opfamily lie above bound, counted from
 * the index's end (the first entries of a descending index) up to limit (the limit when there is
 * no such index). Entries of dead rows count too, and no heap page is read: an upper bound of
 * the rows there.
 */
double
count_above(PlannerInfo *root, const VariableStatData *vardata, Oid opfamily, Datum bound,
			double limit)
{
	const IndexOptInfo *index = find_index(vardata, opfamily);
	const Oid typid = vardata->atttype;
	const Oid gt = get_opfamily_member(opfamily, typid, typid, BTGreaterStrategyNumber);
	if (index == nullptr || !OidIsValid(gt))
		return limit;
	const RangeTblEntry *rte = planner_rt_fetch(vardata->rel->relid, root);
	Relation heap = table_open(rte->relid, NoLock);
	Relation irel = index_open(index->indexoid, NoLock);
	SnapshotData snapshot;
	InitNonVacuumableSnapshot(snapshot, GlobalVisTestFor(heap));
	ScanKeyData key;
	ScanKeyEntryInitialize(&key, 0, 1, BTGreaterStrategyNumber, typid, InvalidOid, get_opcode(gt),
						   bound);
	IndexScanDesc scan = idt_index_beginscan(heap, irel, &snapshot, 1);
	index_rescan(scan, &key, 1, nullptr, 0);
	double n = 0;
	/* btree reads the key in the column's order (it flips the strategy of a DESC column). */
	const ScanDirection from_end =
		index->reverse_sort[0] ? ForwardScanDirection : BackwardScanDirection;
	while (n < limit && index_getnext_tid(scan, from_end) != nullptr)
		n++;
	index_endscan(scan);
	index_close(irel, NoLock);
	table_close(heap, NoLock);
	return n;
}

} /* namespace */

/*
 * Estimates read the index's end whenever a bound lies beyond the histogram, and the statistics
 * hook on every lookup of a column of a grown table (joins, GROUP BY and cost estimates too):
 * each end (and the first ID at or above the ANALYZE's time) is read once per planning run,
 * subqueries included, and kept with its memory.
 */
namespace
{

bool
kept_probe(PlannerInfo *root, const VariableStatData *vardata, Oid opfamily, run_item item,
		   const Datum *bound, Datum *out)
{
	RelOptInfo *rel = vardata->rel;
	if (rel == nullptr || rel->rtekind != RTE_RELATION || rel->indexlist == NIL)
		return false;
	const RangeTblEntry *rte = planner_rt_fetch(rel->relid, root);
	if (rte->inh)
		return false;
	const bool want_max = item == RUN_INDEX_MAX;
	run_cache *c = vardata->var != nullptr && IsA(vardata->var, Var) ? run_cache_of(root) : nullptr;
	if (c == nullptr)
		return probe(root, vardata, opfamily, want_max, bound, CurrentMemoryContext, out);
	const AttrNumber attnum = reinterpret_cast<const Var *>(vardata->var)->varattno;
	bool kept;
	run_entry *e = run_entry_of(c, rte->relid, attnum, item, &kept);
	if (!kept)
		e->found = probe(root, vardata, opfamily, want_max, bound, c->context, &e->value);
	*out = e->value;
	return e->found;
}

} /* namespace */

bool
actual_extreme(PlannerInfo *root, const VariableStatData *vardata, Oid opfamily, bool want_max,
			   Datum *out)
{
	return kept_probe(root, vardata, opfamily, want_max ? RUN_INDEX_MAX : RUN_INDEX_MIN, nullptr,
					  out);
}

bool
first_at_or_above(PlannerInfo *root, const VariableStatData *vardata, Oid opfamily, Datum bound,
				  Datum *out)
{
	return kept_probe(root, vardata, opfamily, RUN_INDEX_FROM, &bound, out);
}

double
ordered_share(HeapTuple stats)
{
	double ordered = 0.0;
	AttStatsSlot sslot;
	if (get_attstatsslot(&sslot, stats, STATISTIC_KIND_CORRELATION, InvalidOid,
						 ATTSTATSSLOT_NUMBERS))
	{
		if (sslot.nnumbers > 0)
			ordered = Max(0.0, Min(1.0, static_cast<double>(sslot.numbers[0])));
		free_attstatsslot(&sslot);
	}
	return ordered;
}

namespace
{

/*
 * The rows the statistics describe, where the cumulative statistics say counted (< reltuples):
 * the new rows in time order (pg_stats.correlation's share of them) lie above the histogram's
 * last bound, so if fewer index entries lie there than that share of now - counted, those
 * entries are the new rows in time order (at most). Even with no new row, some entries lie
 * there: the histogram's last bound is the largest ID of ANALYZE's sample (300 rows per bucket
 * at least, as PostgreSQL samples), about rows / sample of them. So the count goes on to 8 times
 * that, at least 1,000 entries (a few index pages): a count that reaches its limit, and a column
 * without an index, a histogram or a positive correlation, leave counted as it is. Once per
 * column and ANALYZE (kept_check_of).
 */
double
check_new_rows(PlannerInfo *root, const VariableStatData *vardata, const column_now &column,
			   double now, double counted, double reltuples)
{
	if (!column.valid || vardata->rel->indexlist == NIL)
		return counted;
	kept_check check;
	if (!kept_check_of(column, &check))
	{
		check = {false, 0.0};
		HeapTuple stats = SearchSysCache3(STATRELATTINH, ObjectIdGetDatum(column.relid),
										  Int16GetDatum(column.attnum), BoolGetDatum(false));
		if (HeapTupleIsValid(stats))
		{
			const double ordered = ordered_share(stats);
			AttStatsSlot sslot;
			if (ordered > 0.0 && get_attstatsslot(&sslot, stats, STATISTIC_KIND_HISTOGRAM,
												  InvalidOid, ATTSTATSSLOT_VALUES))
			{
				if (sslot.nvalues > 0)
				{
					const Oid opfamily =
						lookup_type_cache(vardata->atttype, TYPECACHE_BTREE_OPFAMILY)->btree_opf;
					const double sample = 300.0 * Max(1, sslot.nvalues - 1);
					const double limit = Min(std::ceil(ordered * (now - counted)),
											 Max(1000.0, std::ceil(8 * now / sample)));
					const double above = count_above(root, vardata, opfamily,
													 sslot.values[sslot.nvalues - 1], limit);
					if (above < limit)
						check = {true, now - above / ordered};
				}
				free_attstatsslot(&sslot);
			}
			ReleaseSysCache(stats);
		}
		keep_check(column, check);
	}
	return check.known ? Min(reltuples, Max(counted, check.described)) : counted;
}

} /* namespace */

/*
 * pg_class.reltuples is the table's size at the last ANALYZE or VACUUM, pg_statistic what the
 * last ANALYZE saw. Without a VACUUM since that ANALYZE, the rows beyond reltuples are the ones
 * the statistics lack. A VACUUM since (autovacuum's insert-triggered one included) counts the
 * new rows into reltuples and leaves pg_statistic as it was; then the cumulative statistics'
 * rows modified since ANALYZE (inserted, updated or deleted: on a table of IDs made as rows are
 * inserted, mostly inserted) say how many the statistics lack, taken as at most half the table:
 * autovacuum analyzes a table long before it doubles.
 *
 * That count can hold rows the statistics have: a backend sends its counts at most once a second,
 * so a load followed at once by ANALYZE (or an ANALYZE in the transaction that loaded the table)
 * reaches the cumulative statistics after it, counted as modified since. So it is checked against
 * the index (check_new_rows).
 */
void
row_counts(PlannerInfo *root, const VariableStatData *vardata, double *now, double *described,
		   column_now *column)
{
	*now = *described = 0;
	column_now mine;
	column_now &c = column != nullptr ? *column : mine;
	c = {};
	const RelOptInfo *rel = vardata->rel;
	if (rel == nullptr || rel->rtekind != RTE_RELATION)
		return;
	const RangeTblEntry *rte = planner_rt_fetch(rel->relid, root);
	HeapTuple tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(rte->relid));
	if (!HeapTupleIsValid(tuple))
		return;
	const auto *form = reinterpret_cast<Form_pg_class>(GETSTRUCT(tuple));
	const double reltuples = form->reltuples;
	c.relfilenode = form->relfilenode;
	ReleaseSysCache(tuple);
	if (reltuples <= 0 || rel->tuples <= 0)
		return;
	*now = rel->tuples;
	*described = reltuples;
	const PgStat_StatTabEntry *tab = pgstat_fetch_stat_tabentry(rte->relid);
	if (tab != nullptr && !rte->inh && vardata->var != nullptr && IsA(vardata->var, Var))
	{
		c.valid = true;
		c.relid = rte->relid;
		c.attnum = reinterpret_cast<const Var *>(vardata->var)->varattno;
		c.analyzed = last_analyzed(tab);
		c.vacuumed = last_vacuumed(tab);
		c.pages = rel->pages;
	}
	if (tab != nullptr && vacuumed_since_analyze(tab))
	{
		const double modified = static_cast<double>(IDT_TABSTAT_MOD_SINCE_ANALYZE(tab));
		const double counted = Min(*described, Max(*now / 2, *now - modified));
		if (counted < *described)
			*described = check_new_rows(root, vardata, c, *now, counted, *described);
	}
}

} /* namespace planning */
