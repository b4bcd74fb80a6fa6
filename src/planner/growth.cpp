/* growth.cpp: how far a table has grown past its statistics, and the index's actual ends, read once per planning run. */
#include "planner/planner.h"

extern "C" {
#include "access/genam.h"
#include "access/relscan.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/visibilitymap.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "executor/tuptable.h"
#include "optimizer/paths.h"
#include "parser/parsetree.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "utils/datum.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
}

namespace planning
{

namespace
{

/* Was the table vacuumed (by hand or by autovacuum) after it was last analyzed? */
bool
vacuumed_since_analyze(const PgStat_StatTabEntry *tab)
{
	const TimestampTz vacuumed = Max(IDT_TABSTAT_LAST_VACUUM(tab), IDT_TABSTAT_LAST_AUTOVACUUM(tab));
	const TimestampTz analyzed =
		Max(IDT_TABSTAT_LAST_ANALYZE(tab), IDT_TABSTAT_LAST_AUTOANALYZE(tab));
	return vacuumed > analyzed;
}

} /* namespace */

/*
 * pg_class.reltuples is the table's size at the last ANALYZE or VACUUM, pg_statistic what the
 * last ANALYZE saw. Without a VACUUM since that ANALYZE, the rows beyond reltuples are the ones
 * the statistics lack. A VACUUM since (autovacuum's insert-triggered one included) counts the
 * new rows into reltuples and leaves pg_statistic as it was; then the cumulative statistics'
 * rows modified since ANALYZE (inserted, updated or deleted: on a table of IDs made as rows are
 * inserted, mostly inserted) say how many the statistics lack, taken as at most half the table:
 * autovacuum analyzes a table long before it doubles, and an ANALYZE in the transaction that
 * loaded the table counts the whole load as modified after it.
 */
void
row_counts(PlannerInfo *root, const VariableStatData *vardata, double *now, double *described)
{
	*now = *described = 0;
	const RelOptInfo *rel = vardata->rel;
	if (rel == nullptr || rel->rtekind != RTE_RELATION)
		return;
	const RangeTblEntry *rte = planner_rt_fetch(rel->relid, root);
	HeapTuple tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(rte->relid));
	if (!HeapTupleIsValid(tuple))
		return;
	const double reltuples = reinterpret_cast<Form_pg_class>(GETSTRUCT(tuple))->reltuples;
	ReleaseSysCache(tuple);
	if (reltuples <= 0 || rel->tuples <= 0)
		return;
	*now = rel->tuples;
	*described = reltuples;
	const PgStat_StatTabEntry *tab = pgstat_fetch_stat_tabentry(rte->relid);
	if (tab != nullptr && vacuumed_since_analyze(tab))
	{
		const double modified = static_cast<double>(IDT_TABSTAT_MOD_SINCE_ANALYZE(tab));
		*described = Min(*described, Max(*now / 2, *now - modified));
	}
}

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

/* An index end read in this planning run, by (table, column, end). */
struct index_end
{
	Oid relid;
	AttrNumber attnum;
	bool want_max;
	bool found;
	Datum value;
};

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

/*
 * The smallest or largest non-null value of the index's first column, read as core's
 * get_actual_variable_endpoint does: from the index's end, skipping entries whose heap rows are
 * dead to every transaction, visiting the heap only for pages not all-visible, and giving up
 * after 100 heap pages of dead rows. Into out, copied into result_context.
 */
bool
read_index_end(Relation heap, Relation irel, bool backward, MemoryContext result_context,
			   Datum *out)
{
	SnapshotData snapshot;
	InitNonVacuumableSnapshot(snapshot, GlobalVisTestFor(heap));
	TupleTableSlot *slot = table_slot_create(heap, nullptr);
	ScanKeyData key;
	/* "IS NOT NULL": nulls sort at one end of the index. */
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

/* The column's end in the first btree index of opfamily that leads with it; false if none. */
bool
probe(PlannerInfo *root, const VariableStatData *vardata, Oid opfamily, bool want_max,
	  MemoryContext result_context, Datum *out)
{
	RelOptInfo *rel = vardata->rel;
	const RangeTblEntry *rte = planner_rt_fetch(rel->relid, root);
	ListCell *lc;
	foreach (lc, rel->indexlist)
	{
		auto *index = static_cast<IndexOptInfo *>(lfirst(lc));
		if (index->relam != BTREE_AM_OID || index->hypothetical || index->indpred != NIL ||
			index->sortopfamily == nullptr || index->sortopfamily[0] != opfamily ||
			!match_index_to_operand(vardata->var, 0, index))
			continue;
		/* The scan's memory goes with a context of its own, as in core. */
		MemoryContext scan_context =
			AllocSetContextCreate(CurrentMemoryContext, "idtypes index end", ALLOCSET_SMALL_SIZES);
		MemoryContext old = MemoryContextSwitchTo(scan_context);
		/* The planner holds locks on the table and its indexes already. */
		Relation heap = table_open(rte->relid, NoLock);
		Relation irel = index_open(index->indexoid, NoLock);
		const bool found =
			read_index_end(heap, irel, want_max != index->reverse_sort[0], result_context, out);
		index_close(irel, NoLock);
		table_close(heap, NoLock);
		MemoryContextSwitchTo(old);
		MemoryContextDelete(scan_context);
		return found;
	}
	return false;
}

} /* namespace */

/*
 * Estimates read the index's end whenever a bound lies beyond the histogram, and the statistics
 * hook on every lookup of a column of a grown table (joins, GROUP BY and cost estimates too):
 * each end is read once per planning run, subqueries included, and kept with its memory.
 */
bool
actual_extreme(PlannerInfo *root, const VariableStatData *vardata, Oid opfamily, bool want_max,
			   Datum *out)
{
	RelOptInfo *rel = vardata->rel;
	if (rel == nullptr || rel->rtekind != RTE_RELATION || rel->indexlist == NIL)
		return false;
	const RangeTblEntry *rte = planner_rt_fetch(rel->relid, root);
	if (rte->inh)
		return false;
	run_cache *c = vardata->var != nullptr && IsA(vardata->var, Var) ? run_cache_of(root) : nullptr;
	if (c == nullptr)
		return probe(root, vardata, opfamily, want_max, CurrentMemoryContext, out);
	const AttrNumber attnum = reinterpret_cast<const Var *>(vardata->var)->varattno;
	ListCell *lc;
	foreach (lc, c->ends)
	{
		const auto *e = static_cast<const index_end *>(lfirst(lc));
		if (e->relid == rte->relid && e->attnum == attnum && e->want_max == want_max)
		{
			*out = e->value;
			return e->found;
		}
	}
	auto *e = static_cast<index_end *>(MemoryContextAllocZero(c->context, sizeof(index_end)));
	e->relid = rte->relid;
	e->attnum = attnum;
	e->want_max = want_max;
	e->found = probe(root, vardata, opfamily, want_max, c->context, &e->value);
	MemoryContext old = MemoryContextSwitchTo(c->context);
	c->ends = lappend(c->ends, e);
	MemoryContextSwitchTo(old);
	*out = e->value;
	return e->found;
}

} /* namespace planning */
