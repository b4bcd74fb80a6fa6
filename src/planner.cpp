/* planner.cpp: planner support of ^@ and <@: index conditions, rewrites for pruning and row-level security, estimates. */
#include "glue.h"
#include "ranges.h"
#include "traits.h"
#include "values.h"

#include <cmath>

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/relscan.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/visibilitymap.h"
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "catalog/pg_am.h"
#include "catalog/pg_cast.h"
#include "catalog/pg_class.h"
#include "catalog/pg_depend.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_statistic.h"
#include "catalog/pg_type.h"
#include "executor/tuptable.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "optimizer/paths.h"
#include "parser/parsetree.h"
#include "storage/bufmgr.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/selfuncs.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
}

namespace
{

using namespace glue;

enum class op_kind
{
	starts_with, /* id ^@ text */
	contained,   /* id <@ idrange */
};

void free_extended_stats(HeapTuple tuple);

/* ---- the extension's own functions, found by OID ----------------------------------------- */

/*
 * What the planner puts into a rewritten clause must be our code, whatever the catalog holds:
 * a database may still have the 1.0 catalog under this library, and a role with CREATE on the
 * extension's schema can create functions of any name there. So nothing is looked up by name.
 * A helper is a member of the extension that owns the support function (pg_depend), written in
 * C with the expected symbol (only a superuser or the extension's own script can create a C
 * function), and with the expected arguments and result; a catalog that lacks it gets no rewrite.
 * The members are read once per backend and read again after any change to pg_proc.
 */
struct member_fn
{
	Oid oid;
	Oid result;
	Oid args[2];
	int nargs;
	bool has_support;
	char symbol[NAMEDATALEN];
};

struct member_cache
{
	bool valid;
	Oid extension;
	int n;
	member_fn *fns; /* in TopMemoryContext */
	/* Support function -> extension, the last few seen. */
	Oid support_fn[8];
	Oid support_ext[8];
	int n_support;
};

member_cache members = {};

void
forget_members(Datum, idt_syscache_id, uint32)
{
	members.valid = false;
	members.n_support = 0;
}

/* The extension that owns the support function, or InvalidOid. */
Oid
extension_of(Oid support_fn)
{
	static bool callback_registered = false;
	if (!callback_registered)
	{
		CacheRegisterSyscacheCallback(PROCOID, forget_members, (Datum) 0);
		callback_registered = true;
	}
	for (int i = 0; i < members.n_support; i++)
		if (members.support_fn[i] == support_fn)
			return members.support_ext[i];
	const Oid ext = getExtensionOfObject(ProcedureRelationId, support_fn);
	const int slot = members.n_support < 8 ? members.n_support++ : 0;
	members.support_fn[slot] = support_fn;
	members.support_ext[slot] = ext;
	return ext;
}

/* Read the C functions that are members of extension ext. */
void
load_members(Oid ext)
{
	members.valid = false;
	if (members.fns == nullptr)
		members.fns =
			static_cast<member_fn *>(MemoryContextAlloc(TopMemoryContext, sizeof(member_fn) * 64));
	int capacity = 64, n = 0;

	Relation depend = table_open(DependRelationId, AccessShareLock);
	ScanKeyData key[2];
	ScanKeyInit(&key[0], Anum_pg_depend_refclassid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(ExtensionRelationId));
	ScanKeyInit(&key[1], Anum_pg_depend_refobjid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(ext));
	SysScanDesc scan = systable_beginscan(depend, DependReferenceIndexId, true, nullptr, 2, key);
	HeapTuple tuple;
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		const auto *dep = reinterpret_cast<Form_pg_depend>(GETSTRUCT(tuple));
		if (dep->classid != ProcedureRelationId || dep->deptype != DEPENDENCY_EXTENSION)
			continue;
		HeapTuple proc = SearchSysCache1(PROCOID, ObjectIdGetDatum(dep->objid));
		if (!HeapTupleIsValid(proc))
			continue;
		const auto *form = reinterpret_cast<Form_pg_proc>(GETSTRUCT(proc));
		bool isnull;
		const Datum src = SysCacheGetAttr(PROCOID, proc, Anum_pg_proc_prosrc, &isnull);
		if (form->prolang == ClanguageId && form->pronargs <= 2 && !isnull)
		{
			if (n == capacity)
			{
				capacity *= 2;
				members.fns =
					static_cast<member_fn *>(repalloc(members.fns, sizeof(member_fn) * capacity));
			}
			member_fn &f = members.fns[n++];
			f.oid = form->oid;
			f.result = form->prorettype;
			f.nargs = form->pronargs;
			for (int i = 0; i < 2; i++)
				f.args[i] = i < f.nargs ? form->proargtypes.values[i] : InvalidOid;
			f.has_support = OidIsValid(form->prosupport);
			text_to_cstring_buffer(DatumGetTextPP(src), f.symbol, sizeof(f.symbol));
		}
		ReleaseSysCache(proc);
	}
	systable_endscan(scan);
	table_close(depend, AccessShareLock);
	members.n = n;
	members.extension = ext;
	members.valid = true;
}

/*
 * The member function of the support function's extension with this C symbol, these argument
 * types and this result type (InvalidOid: any; the caller checks it), with or without planner
 * support of its own; InvalidOid if there is none.
 */
Oid
member_function(Oid support_fn, const char *symbol, int nargs, const Oid *args, Oid result,
				bool with_support)
{
	const Oid ext = extension_of(support_fn);
	if (!OidIsValid(ext))
		return InvalidOid;
	if (!members.valid || members.extension != ext)
		load_members(ext);
	for (int i = 0; i < members.n; i++)
	{
		const member_fn &f = members.fns[i];
		if (strcmp(f.symbol, symbol) != 0 || f.nargs != nargs || f.has_support != with_support ||
			(OidIsValid(result) && f.result != result))
			continue;
		bool same = true;
		for (int a = 0; a < nargs; a++)
			same = same && (!OidIsValid(args[a]) || f.args[a] == args[a]);
		if (same)
			return f.oid;
	}
	return InvalidOid;
}

/* Is rngtypid a range type over typid? */
bool
is_range_of(Oid rngtypid, Oid typid)
{
	if (!OidIsValid(rngtypid))
		return false;
	TypeCacheEntry *typcache = lookup_type_cache(rngtypid, TYPECACHE_RANGE_INFO);
	return typcache->rngelemtype != nullptr && typcache->rngelemtype->type_id == typid;
}

/* <type>_prefix_range(text) -> <type>range of our extension, or InvalidOid. */
template <class T>
Oid
prefix_range_fn(Oid support_fn, Oid typid)
{
	char symbol[NAMEDATALEN];
	snprintf(symbol, sizeof(symbol), "%s_prefix_range", T::name);
	const Oid text_arg = TEXTOID;
	const Oid fn = member_function(support_fn, symbol, 1, &text_arg, InvalidOid, false);
	return OidIsValid(fn) && is_range_of(get_func_rettype(fn), typid) ? fn : InvalidOid;
}

/* <type>range<suffix>(<type>range) -> <type> of our extension, or InvalidOid. */
template <class T>
Oid
range_end_fn(Oid support_fn, const char *suffix, Oid rngtypid, Oid typid)
{
	char symbol[NAMEDATALEN];
	snprintf(symbol, sizeof(symbol), "%srange%s", T::name, suffix);
	if (!is_range_of(rngtypid, typid))
		return InvalidOid;
	return member_function(support_fn, symbol, 1, &rngtypid, typid, false);
}

/* The ^@ test without planner support (euid_starts_with_recheck), or InvalidOid. */
template <class T>
Oid
recheck_fn(Oid support_fn, Oid typid)
{
	char symbol[NAMEDATALEN];
	snprintf(symbol, sizeof(symbol), "%s_starts_with", T::name);
	const Oid args[2] = {typid, TEXTOID};
	return member_function(support_fn, symbol, 2, args, BOOLOID, false);
}

/* The <@ test, <type>_contained(<type>, <type>range) with its planner support, or InvalidOid. */
template <class T>
Oid
contained_fn(Oid support_fn, Oid typid, Oid rngtypid)
{
	char symbol[NAMEDATALEN];
	snprintf(symbol, sizeof(symbol), "%s_contained", T::name);
	const Oid args[2] = {typid, rngtypid};
	return member_function(support_fn, symbol, 2, args, BOOLOID, true);
}

/* ---- bounds of the right side ------------------------------------------------------------- */

/* Bounds of a constant right side, with error set when there are none to have: an invalid
 * prefix (the operator itself reports it at run time) or a constant of an unexpected type. */
template <class T, op_kind K>
typename T::range_type
const_bounds(const Const *c, Oid typid)
{
	typename T::range_type unusable = empty_range<T>();
	unusable.error = idt::errc::bad_length;
	if constexpr (K == op_kind::starts_with)
	{
		if (c->consttype != TEXTOID)
			return unusable;
		text *prefix = DatumGetTextPP(c->constvalue);
		return T::prefix(VARDATA_ANY(prefix), VARSIZE_ANY_EXHDR(prefix));
	}
	else
	{
		if (!is_range_of(c->consttype, typid))
			return unusable;
		TypeCacheEntry *typcache = lookup_type_cache(c->consttype, TYPECACHE_RANGE_INFO);
		return closed_bounds<T>(typcache, DatumGetRangeTypeP(c->constvalue));
	}
}

/* The closed [lo, hi] of a constant right side; an empty one as lo = the maximum and hi = the
 * minimum, which no id lies between. False for a NULL or an invalid constant. */
template <class T, op_kind K>
bool
const_closed_bounds(const Const *c, Oid typid, typename T::range_type *r)
{
	if (c->constisnull)
		return false;
	*r = const_bounds<T, K>(c, typid);
	if (r->error != idt::errc::ok)
		return false;
	if (r->empty)
	{
		r->lo = T::max;
		r->hi = T::min;
	}
	return true;
}

/* ---- estimates ---------------------------------------------------------------------------- */

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

/*
 * The smallest (want_max = false) or largest value of the column in a btree index of the type's
 * default family, as core's estimators read it beyond the histogram: from the index's end,
 * skipping entries whose heap rows are dead to every transaction; false (unknown) without such
 * an index, or after 100 heap pages of dead rows.
 */
bool
actual_extreme(PlannerInfo *root, VariableStatData *vardata, Oid opfamily, bool want_max,
			   Datum *out)
{
	RelOptInfo *rel = vardata->rel;
	if (rel == nullptr || rel->rtekind != RTE_RELATION || rel->indexlist == NIL)
		return false;
	const RangeTblEntry *rte = planner_rt_fetch(rel->relid, root);
	if (rte->inh)
		return false;
	ListCell *lc;
	foreach (lc, rel->indexlist)
	{
		auto *index = static_cast<IndexOptInfo *>(lfirst(lc));
		if (index->relam != BTREE_AM_OID || index->hypothetical || index->indpred != NIL ||
			index->sortopfamily == nullptr || index->sortopfamily[0] != opfamily ||
			!match_index_to_operand(vardata->var, 0, index))
			continue;
		const ScanDirection dir =
			want_max != index->reverse_sort[0] ? BackwardScanDirection : ForwardScanDirection;
		bool found = false;
		/* The planner holds locks on the table and its indexes already. */
		Relation heap = table_open(rte->relid, NoLock);
		Relation irel = index_open(index->indexoid, NoLock);
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
		ItemPointer tid;
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
				*out = datumCopy(values[0], att->attbyval, att->attlen);
				found = true;
			}
			break;
		}
		if (vmbuffer != InvalidBuffer)
			ReleaseBuffer(vmbuffer);
		index_endscan(scan);
		ExecDropSingleTupleTableSlot(slot);
		index_close(irel, NoLock);
		table_close(heap, NoLock);
		return found;
	}
	return false;
}

/* The rows the planner counts now and what pg_class counted at the last ANALYZE or VACUUM. */
void
row_counts(PlannerInfo *root, const VariableStatData *vardata, double *now, double *counted)
{
	*now = *counted = 0;
	const RelOptInfo *rel = vardata->rel;
	if (rel == nullptr || rel->rtekind != RTE_RELATION)
		return;
	const RangeTblEntry *rte = planner_rt_fetch(rel->relid, root);
	HeapTuple tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(rte->relid));
	if (!HeapTupleIsValid(tuple))
		return;
	const double reltuples = reinterpret_cast<Form_pg_class>(GETSTRUCT(tuple))->reltuples;
	ReleaseSysCache(tuple);
	if (reltuples > 0 && rel->tuples > 0)
	{
		*now = rel->tuples;
		*counted = reltuples;
	}
}

/*
 * Selectivity of "id op const" from the column's statistics: the MCVs inside [lo, hi] exactly,
 * plus the histogram's share of [lo, hi] by linear interpolation of the IDs' values (as
 * convert_to_scalar does for numbers; PostgreSQL cannot do it for a type it does not know),
 * never below one distinct value's share. IDs are made in time order, and the newest rows are
 * the ones the statistics have not seen yet:
 *  - past the histogram's ends, the index's actual smallest and largest values extend it (as
 *    core does for its own types);
 *  - the rows the table has gained since ANALYZE (its size now against pg_class.reltuples) lie
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
	double ordered = 0.0;
	if (get_attstatsslot(&sslot, vardata.statsTuple, STATISTIC_KIND_CORRELATION, InvalidOid,
						 ATTSTATSSLOT_NUMBERS))
	{
		if (sslot.nnumbers > 0)
			ordered = Max(0.0, Min(1.0, static_cast<double>(sslot.numbers[0])));
		free_attstatsslot(&sslot);
	}
	/*
	 * Statistics extended by relation_stats() below hold the new rows already, and their last
	 * bound is the index's largest ID.
	 */
	const bool extended = vardata.freefunc == free_extended_stats;
	double now_rows = 0, counted_rows = 0;
	if (!extended)
		row_counts(root, &vardata, &now_rows, &counted_rows);
	const double new_rows = now_rows > counted_rows ? now_rows - counted_rows : 0.0;

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
		sel = (sel * counted_rows + new_sel * (1.0 - nullfrac) * new_rows) / now_rows;
	CLAMP_PROBABILITY(sel);
	return sel;
}

/* ---- statistics of the rows added since ANALYZE ------------------------------------------ */

/*
 * Core estimates the btree operators (<, <=, >=, >, and the >= AND <= pair the pruning rewrite
 * leaves on a partitioned table) from the histogram ANALYZE made, which holds none of the rows
 * added since: on a table of time-ordered IDs those are the newest, the ones "the last hour"
 * asks for. While a table has grown since ANALYZE, the planner's statistics hook hands core (and
 * our own estimators) the stored statistics with the histogram extended: the rows added since,
 * in the share pg_stats.correlation says follow the value order, spread evenly between the
 * histogram's last bound and the largest ID the btree index holds; the histogram keeps its
 * number of bounds. Only columns of our five types on plain tables and partitions, only when an
 * index gives the actual largest value, and only where core itself would take statistics
 * (all_rows_selectable). Everything else, and a minor release without all_rows_selectable, is
 * left to core. The hook is installed when the library is loaded: by any query with a constant
 * or parameter of our types or a call of our functions, or from the start with
 * session_preload_libraries.
 */

enum class id_kind
{
	none,
	uid11,
	timeid,
	ulidflake,
	ulid,
	euid,
};

struct kind_cache
{
	int n;
	Oid typid[16];
	id_kind kind[16];
};

kind_cache kinds = {};

void
forget_kinds(Datum, idt_syscache_id, uint32)
{
	kinds.n = 0;
}

get_relation_stats_hook_type prev_relation_stats_hook = nullptr;

} /* namespace */

extern "C" {
Datum uid11_in(PG_FUNCTION_ARGS);
Datum timeid_in(PG_FUNCTION_ARGS);
Datum ulidflake_in(PG_FUNCTION_ARGS);
Datum ulid_in(PG_FUNCTION_ARGS);
Datum euid_in(PG_FUNCTION_ARGS);
}

namespace
{

/*
 * Which of our types typid is: its input function is one of ours (compared by address, after
 * checking it is a C function of that symbol, so no other library is loaded for the question)
 * and its storage is what our code reads.
 */
id_kind
kind_of(Oid typid)
{
	for (int i = 0; i < kinds.n; i++)
		if (kinds.typid[i] == typid)
			return kinds.kind[i];
	id_kind kind = id_kind::none;
	HeapTuple tup = SearchSysCache1(TYPEOID, ObjectIdGetDatum(typid));
	if (HeapTupleIsValid(tup))
	{
		const Form_pg_type t = reinterpret_cast<Form_pg_type>(GETSTRUCT(tup));
		const Oid input = t->typinput;
		const bool by_value = t->typbyval;
		const int16 len = t->typlen;
		ReleaseSysCache(tup);
		static const struct
		{
			const char *symbol;
			PGFunction fn;
			id_kind kind;
			int16 len;
		} ours[] = {
			{"uid11_in", uid11_in, id_kind::uid11, 8},
			{"timeid_in", timeid_in, id_kind::timeid, 8},
			{"ulidflake_in", ulidflake_in, id_kind::ulidflake, 8},
			{"ulid_in", ulid_in, id_kind::ulid, 16},
			{"euid_in", euid_in, id_kind::euid, 16},
		};
		HeapTuple proc = SearchSysCache1(PROCOID, ObjectIdGetDatum(input));
		if (HeapTupleIsValid(proc))
		{
			const Form_pg_proc p = reinterpret_cast<Form_pg_proc>(GETSTRUCT(proc));
			const int match = [&] {
				if (p->prolang != ClanguageId)
					return -1;
				bool isnull;
				const Datum src = SysCacheGetAttr(PROCOID, proc, Anum_pg_proc_prosrc, &isnull);
				if (isnull)
					return -1;
				char *symbol = TextDatumGetCString(src);
				int found = -1;
				for (int i = 0; i < 5; i++)
					if (strcmp(symbol, ours[i].symbol) == 0 && len == ours[i].len &&
						by_value == (len == 8))
						found = i;
				pfree(symbol);
				return found;
			}();
			ReleaseSysCache(proc);
			if (match >= 0)
			{
				FmgrInfo finfo;
				fmgr_info(input, &finfo);
				if (finfo.fn_addr == ours[match].fn)
					kind = ours[match].kind;
			}
		}
	}
	static bool callback_registered = false;
	if (!callback_registered)
	{
		CacheRegisterSyscacheCallback(TYPEOID, forget_kinds, (Datum) 0);
		callback_registered = true;
	}
	const int slot = kinds.n < 16 ? kinds.n++ : 0;
	kinds.typid[slot] = typid;
	kinds.kind[slot] = kind;
	return kind;
}

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
	using wide = unsigned __int128;
	const wide wa = (static_cast<wide>(a.hi) << 64) | a.lo, wb = (static_cast<wide>(b.hi) << 64) | b.lo;
	const wide d = wb - wa;
	const wide r = wa + d / k * j + d % k * j / k;
	return {static_cast<std::uint64_t>(r >> 64), static_cast<std::uint64_t>(r)};
}

/* The freefunc of an extended statistics tuple: also how our estimators recognize one. */
void
free_extended_stats(HeapTuple tuple)
{
	heap_freetuple(tuple);
}

/*
 * The column's statistics with the histogram extended by the rows added since ANALYZE, into
 * vardata; false (core looks them up itself) where there is nothing to extend.
 */
template <class T>
bool
extended_stats(PlannerInfo *root, RangeTblEntry *rte, AttrNumber attnum, VariableStatData *vardata)
{
#ifdef IDT_HAVE_ALL_ROWS_SELECTABLE
	using V = typename T::value_type;
	double now_rows, counted_rows;
	row_counts(root, vardata, &now_rows, &counted_rows);
	if (now_rows <= counted_rows)
		return false;
	HeapTuple stats = SearchSysCache3(STATRELATTINH, ObjectIdGetDatum(rte->relid),
									  Int16GetDatum(attnum), BoolGetDatum(false));
	if (!HeapTupleIsValid(stats))
		return false;
	const Form_pg_statistic form = reinterpret_cast<Form_pg_statistic>(GETSTRUCT(stats));
	double ordered = 0.0, sumcommon = 0.0;
	AttStatsSlot sslot;
	if (get_attstatsslot(&sslot, stats, STATISTIC_KIND_CORRELATION, InvalidOid, ATTSTATSSLOT_NUMBERS))
	{
		if (sslot.nnumbers > 0)
			ordered = Max(0.0, Min(1.0, static_cast<double>(sslot.numbers[0])));
		free_attstatsslot(&sslot);
	}
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
		return false;
	}
	/*
	 * The histogram's population and the new rows above it, in rows; the new rows get their
	 * share of the bounds, and a table that has not grown by one bucket's worth is left alone
	 * before the index is asked for its largest value.
	 */
	const int n = sslot.nvalues;
	const double new_rows = now_rows - counted_rows;
	const double above = ordered * new_rows;
	const double below = counted_rows * Max(0.0, 1.0 - form->stanullfrac - sumcommon) +
						 (1.0 - ordered) * new_rows;
	const int k_new = Min(n - 2, static_cast<int>(std::rint((n - 1) * above / (above + below))));
	const V last = n >= 2 ? id_from_datum<V>(sslot.values[n - 1]) : V{};
	if (k_new < 1 || !actual_extreme(root, vardata, opfamily, true, &top) ||
		!(last < id_from_datum<V>(top)))
	{
		free_attstatsslot(&sslot);
		ReleaseSysCache(stats);
		return false;
	}
	const int k_old = n - 1 - k_new;
	Datum *values = static_cast<Datum *>(palloc(sizeof(Datum) * n));
	for (int i = 0; i <= k_old; i++)
		values[i] = id_to_datum(id_from_datum<V>(sslot.values[static_cast<int>(std::rint(static_cast<double>(i) * (n - 1) / k_old))]));
	const V to = id_from_datum<V>(top);
	for (int j = 1; j <= k_new; j++)
		values[k_old + j] = id_to_datum(id_between(last, to, j, k_new));
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
	HeapTuple copy = heap_modify_tuple(stats, RelationGetDescr(statrel), repl, nulls, replace);
	table_close(statrel, AccessShareLock);
	ReleaseSysCache(stats);

	const Var *var = reinterpret_cast<const Var *>(vardata->var);
	vardata->statsTuple = copy;
	vardata->freefunc = free_extended_stats;
	vardata->acl_ok = all_rows_selectable(
		root, var->varno, bms_make_singleton(attnum - FirstLowInvalidHeapAttributeNumber));
	return true;
#else
	(void) root;
	(void) rte;
	(void) attnum;
	(void) vardata;
	return false;
#endif
}

/*
 * get_relation_stats_hook: see above. Of vardata only the results may be used: some callers
 * (brincostestimate) pass it uninitialized. The relation is the planner's own entry of rte.
 */
bool
relation_stats(PlannerInfo *root, RangeTblEntry *rte, AttrNumber attnum, VariableStatData *vardata)
{
	if (prev_relation_stats_hook != nullptr && prev_relation_stats_hook(root, rte, attnum, vardata))
		return true;
	/* Only a column of a table (not of an inheritance tree) of this query level. */
	if (root == nullptr || rte->rtekind != RTE_RELATION || rte->inh || attnum <= 0)
		return false;
	Index varno = 0;
	for (int i = 1; i < root->simple_rel_array_size; i++)
		if (root->simple_rte_array[i] == rte)
			varno = i;
	if (varno == 0 || root->simple_rel_array[varno] == nullptr)
		return false;
	Oid typid, collation;
	int32 typmod;
	get_atttypetypmodcoll(rte->relid, attnum, &typid, &typmod, &collation);
	const id_kind kind = kind_of(typid);
	if (kind == id_kind::none)
		return false;
	VariableStatData column = {};
	column.var = reinterpret_cast<Node *>(makeVar(varno, attnum, typid, typmod, collation, 0));
	column.rel = root->simple_rel_array[varno];
	column.atttype = typid;
	column.atttypmod = typmod;
	bool done = false;
	switch (kind)
	{
	case id_kind::uid11:
		done = extended_stats<uid11_traits>(root, rte, attnum, &column);
		break;
	case id_kind::timeid:
		done = extended_stats<timeid_traits>(root, rte, attnum, &column);
		break;
	case id_kind::ulidflake:
		done = extended_stats<ulidflake_traits>(root, rte, attnum, &column);
		break;
	case id_kind::ulid:
		done = extended_stats<ulid_traits>(root, rte, attnum, &column);
		break;
	case id_kind::euid:
		done = extended_stats<euid_traits>(root, rte, attnum, &column);
		break;
	case id_kind::none:
		break;
	}
	if (!done)
		return false;
	vardata->statsTuple = column.statsTuple;
	vardata->freefunc = column.freefunc;
	vardata->acl_ok = column.acl_ok;
	return true;
}

/* ---- index conditions and rewrites -------------------------------------------------------- */

Expr *
call(Oid funcid, Oid rettype, Node *arg)
{
	return reinterpret_cast<Expr *>(makeFuncExpr(funcid, rettype, list_make1(arg), InvalidOid,
												 exprCollation(arg), COERCE_EXPLICIT_CALL));
}

Expr *
call2(Oid funcid, Node *arg1, Node *arg2)
{
	return reinterpret_cast<Expr *>(makeFuncExpr(funcid, BOOLOID, list_make2(arg1, arg2),
												 InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL));
}

/* The >= and <= of the type's default btree opclass, or false if it has none. */
bool
btree_ge_le(Oid typid, Oid *ge, Oid *le)
{
	TypeCacheEntry *tce = lookup_type_cache(typid, TYPECACHE_BTREE_OPFAMILY);
	if (!OidIsValid(tce->btree_opf))
		return false;
	*ge = get_opfamily_member(tce->btree_opf, typid, typid, BTGreaterEqualStrategyNumber);
	*le = get_opfamily_member(tce->btree_opf, typid, typid, BTLessEqualStrategyNumber);
	return OidIsValid(*ge) && OidIsValid(*le);
}

template <class V>
Expr *
id_const(Oid typid, V value)
{
	int16 typlen;
	bool typbyval;
	get_typlenbyval(typid, &typlen, &typbyval);
	return reinterpret_cast<Expr *>(
		makeConst(typid, -1, InvalidOid, typlen, id_to_datum(value), false, typbyval));
}

/*
 * The range a non-constant right side stands for (for ^@, <type>_prefix_range(p)) and the
 * extension's functions <type>range<lo_suffix> and <type>range<hi_suffix> that give its ends;
 * false if the catalog lacks one.
 */
template <class T, op_kind K>
bool
range_ends(Oid support_fn, Oid typid, Node *rightop, const char *lo_suffix, const char *hi_suffix,
		   Node **range, Oid *lo_fn, Oid *hi_fn)
{
	*range = rightop;
	if constexpr (K == op_kind::starts_with)
	{
		const Oid prefix_range = prefix_range_fn<T>(support_fn, typid);
		if (!OidIsValid(prefix_range) || exprType(rightop) != TEXTOID)
			return false;
		*range =
			reinterpret_cast<Node *>(call(prefix_range, get_func_rettype(prefix_range), rightop));
	}
	const Oid rngtypid = exprType(*range);
	*lo_fn = range_end_fn<T>(support_fn, lo_suffix, rngtypid, typid);
	*hi_fn = range_end_fn<T>(support_fn, hi_suffix, rngtypid, typid);
	return OidIsValid(*lo_fn) && OidIsValid(*hi_fn);
}

/*
 * "id ^@ p" and "id <@ r" as the index conditions "id >= lo AND id <= hi", with the >= and <=
 * of the type's btree family (a BRIN minmax family holds the same operators). A constant right
 * side gives constant bounds (an empty range gives lo > hi, which matches nothing); any other
 * right side that is constant during the scan (a parameter, a stable expression, an outer
 * column) gives bounds computed at scan start by <type>range_first/last(), applied to
 * <type>_prefix_range(p) for ^@. The conditions are exact, except for euid prefixes that reach
 * the check symbols.
 */
template <class T, op_kind K>
List *
index_conditions(SupportRequestIndexCondition *req, Oid support_fn)
{
	if (req->indexarg != 0)
		return NIL;
	List *args;
	if (is_opclause(req->node))
		args = reinterpret_cast<OpExpr *>(req->node)->args;
	else if (is_funcclause(req->node))
		args = reinterpret_cast<FuncExpr *>(req->node)->args;
	else
		return NIL;
	if (list_length(args) != 2)
		return NIL;
	Node *leftop = static_cast<Node *>(linitial(args));
	Node *rightop = static_cast<Node *>(lsecond(args));

	const Oid typid = exprType(leftop);
	Oid ge, le;
	if (!btree_ge_le(typid, &ge, &le) ||
		get_opfamily_member(req->opfamily, typid, typid, BTGreaterEqualStrategyNumber) != ge ||
		get_opfamily_member(req->opfamily, typid, typid, BTLessEqualStrategyNumber) != le)
		return NIL;
	if (!is_pseudo_constant_for_index(req->root, rightop, req->index))
		return NIL;

	Expr *lo, *hi;
	bool lossy;
	if (IsA(rightop, Const))
	{
		typename T::range_type r;
		if (!const_closed_bounds<T, K>(reinterpret_cast<const Const *>(rightop), typid, &r))
			return NIL;
		lo = id_const(typid, r.lo);
		hi = id_const(typid, r.hi);
		lossy = !r.exact;
	}
	else
	{
		Node *range;
		Oid first, last;
		if (!range_ends<T, K>(support_fn, typid, rightop, "_first", "_last", &range, &first, &last))
			return NIL;
		lo = call(first, typid, range);
		hi = call(last, typid, static_cast<Node *>(copyObjectImpl(range)));
		lossy = K == op_kind::starts_with && T::may_be_inexact;
	}
	req->lossy = lossy;
	return list_make2(make_opclause(ge, BOOLOID, false, reinterpret_cast<Expr *>(leftop), lo,
									InvalidOid, InvalidOid),
					  make_opclause(le, BOOLOID, false, static_cast<Expr *>(copyObjectImpl(leftop)),
									hi, InvalidOid, InvalidOid));
}

/* Can expr be evaluated twice instead of once, with the same value and no other effect? */
bool
duplicable(Node *expr)
{
	return !contain_volatile_functions(expr) && !contain_subplans(expr) &&
		   !expression_returns_set(expr);
}

/*
 * Does expr read a column of this query level from a table that has partitions or children
 * (parents = true), or from a table under row-level security or a security-barrier view
 * (parents = false)?
 */
bool
reads_table(Node *expr, PlannerInfo *root, bool parents)
{
	struct context
	{
		const Query *parse;
		bool parents;
	};
	struct walker
	{
		static bool
		visit(Node *node, void *arg)
		{
			if (node == nullptr)
				return false;
			if (IsA(node, Var))
			{
				const Var *var = reinterpret_cast<const Var *>(node);
				const auto *cx = static_cast<const context *>(arg);
				if (var->varlevelsup != 0 || IS_SPECIAL_VARNO(var->varno) || var->varno < 1 ||
					var->varno > list_length(cx->parse->rtable))
					return false;
				const RangeTblEntry *rte = rt_fetch(var->varno, cx->parse->rtable);
				if (cx->parents)
					return rte->rtekind == RTE_RELATION && has_subclass(rte->relid);
				return rte->securityQuals != NIL ||
					   (rte->rtekind == RTE_SUBQUERY && rte->security_barrier);
			}
			return idt_expression_tree_walker(node, visit, arg);
		}
	};
	if (root == nullptr || root->parse == nullptr)
		return false;
	context cx = {root->parse, parents};
	return walker::visit(expr, &cx);
}

/*
 * "id ^@ p" and "id <@ r" rewritten, when the planner folds constants, into the btree operators
 * of the ID type's default opclass, "id >= lo AND id <= hi", when id reads a partitioned table
 * (or an inheritance parent): partition pruning, at plan time for a constant and at executor
 * start for a parameter or a stable expression, sees only such comparisons. Elsewhere the
 * operator stays: its index conditions are the same, and its estimator knows more. Every
 * rewrite has the operator's value for every input, not only the same rows in a WHERE clause:
 *  - a constant right side gives constant bounds; an empty range gives lo = the maximum and
 *    hi = the minimum (false for every id, NULL for a NULL id, as the operator); a bound at the
 *    type's end is left out, never both;
 *  - any other right side that is not volatile and reads no column of the query (a parameter,
 *    now(), an outer query's value) gives <range>_lo(r) and <range>_hi(r), which are the empty
 *    range's maximum and minimum too, and NULL for a NULL range (then the AND is NULL, as the
 *    strict operator is); for ^@, r is <type>_prefix_range(p);
 *  - where the prefix's range may be wider than the prefix (euid prefixes reaching the check
 *    symbols) the AND keeps euid_starts_with_recheck(id, p), the same test without this support.
 * The id and the right side appear twice, so neither may be volatile, a subquery or a set.
 * An invalid constant prefix is left alone: the operator reports it when it runs. The functions
 * called are the extension's own, found by OID; a catalog without them (1.0) gets no rewrite.
 */
template <class T, op_kind K>
Node *
pruning_rewrite(Oid support_fn, Node *id, Node *rightop)
{
	const Oid typid = exprType(id);
	Oid ge, le;
	if (!btree_ge_le(typid, &ge, &le))
		return nullptr;

	Oid recheck = InvalidOid;
	bool need_recheck = false;
	Expr *lo = nullptr, *hi = nullptr;
	if (IsA(rightop, Const))
	{
		typename T::range_type r;
		if (!const_closed_bounds<T, K>(reinterpret_cast<const Const *>(rightop), typid, &r))
			return nullptr;
		need_recheck = !r.empty && !r.exact;
		if (r.empty || !(r.lo == T::min))
			lo = id_const(typid, r.lo);
		if (lo == nullptr || !(r.hi == T::max))
			hi = id_const(typid, r.hi);
	}
	else
	{
		if (!duplicable(rightop) || contain_var_clause(rightop))
			return nullptr;
		Node *range;
		Oid range_lo, range_hi;
		if (!range_ends<T, K>(support_fn, typid, static_cast<Node *>(copyObjectImpl(rightop)),
							  "_lo", "_hi", &range, &range_lo, &range_hi))
			return nullptr;
		need_recheck = K == op_kind::starts_with && T::may_be_inexact;
		lo = call(range_lo, typid, range);
		hi = call(range_hi, typid, static_cast<Node *>(copyObjectImpl(range)));
	}
	if (need_recheck)
	{
		recheck = recheck_fn<T>(support_fn, typid);
		if (!OidIsValid(recheck))
			return nullptr;
	}
	List *conjuncts = NIL;
	if (lo != nullptr)
		conjuncts = lappend(conjuncts, make_opclause(ge, BOOLOID, false,
													 static_cast<Expr *>(copyObjectImpl(id)), lo,
													 InvalidOid, InvalidOid));
	if (hi != nullptr)
		conjuncts = lappend(conjuncts, make_opclause(le, BOOLOID, false,
													 static_cast<Expr *>(copyObjectImpl(id)), hi,
													 InvalidOid, InvalidOid));
	if (OidIsValid(recheck))
		conjuncts = lappend(conjuncts, call2(recheck, static_cast<Node *>(copyObjectImpl(id)),
											 static_cast<Node *>(copyObjectImpl(rightop))));
	if (list_length(conjuncts) == 1)
		return static_cast<Node *>(linitial(conjuncts));
	return reinterpret_cast<Node *>(makeBoolExpr(AND_EXPR, conjuncts, -1));
}

/*
 * "id ^@ p" on a table under row-level security (or behind a security-barrier view) rewritten
 * as "id <@ <type>_prefix_range(p)". ^@ is not leakproof (a malformed prefix is an error that
 * shows the prefix, which may come from a row), so it would be evaluated after the policy's
 * quals and could not be an index condition; <@ is leakproof, and the prefix's range is computed
 * from p alone, where no row is in reach. A constant prefix gives a constant range; an invalid
 * one is left alone (the operator reports it). Where the range may be wider than the prefix
 * (euid prefixes reaching the check symbols) the recheck stays beside it, as a filter.
 */
template <class T>
Node *
security_rewrite(Oid support_fn, Node *id, Node *prefix)
{
	const Oid typid = exprType(id);
	const Oid prefix_range = prefix_range_fn<T>(support_fn, typid);
	if (!OidIsValid(prefix_range) || exprType(prefix) != TEXTOID)
		return nullptr;
	const Oid rngtypid = get_func_rettype(prefix_range);
	const Oid contained = contained_fn<T>(support_fn, typid, rngtypid);
	if (!OidIsValid(contained))
		return nullptr;
	Node *range;
	bool exact = !T::may_be_inexact;
	if (IsA(prefix, Const))
	{
		typename T::range_type r;
		if (!const_closed_bounds<T, op_kind::starts_with>(reinterpret_cast<const Const *>(prefix),
														   typid, &r))
			return nullptr; /* NULL or invalid: the operator stays */
		exact = r.empty || r.exact;
		const Datum value = RangeTypePGetDatum(
			closed_range<T>(lookup_type_cache(rngtypid, TYPECACHE_RANGE_INFO), r));
		range =
			reinterpret_cast<Node *>(makeConst(rngtypid, -1, InvalidOid, -1, value, false, false));
	}
	else
	{
		if (contain_var_clause(prefix) || !duplicable(prefix))
			return nullptr;
		range = reinterpret_cast<Node *>(call(prefix_range, rngtypid, prefix));
	}
	Node *test = reinterpret_cast<Node *>(call2(contained, id, range));
	if (exact)
		return test;
	const Oid recheck = recheck_fn<T>(support_fn, typid);
	if (!OidIsValid(recheck) || !duplicable(id))
		return nullptr;
	return reinterpret_cast<Node *>(
		makeBoolExpr(AND_EXPR,
					 list_make2(test, call2(recheck, static_cast<Node *>(copyObjectImpl(id)),
											static_cast<Node *>(copyObjectImpl(prefix)))),
					 -1));
}

template <class T, op_kind K>
Node *
simplified(SupportRequestSimplify *req, Oid support_fn)
{
	List *args = req->fcall->args;
	if (list_length(args) != 2)
		return nullptr;
	Node *id = static_cast<Node *>(linitial(args));
	Node *rightop = static_cast<Node *>(lsecond(args));
	if (reads_table(id, req->root, true) && duplicable(id))
		return pruning_rewrite<T, K>(support_fn, id, rightop);
	if constexpr (K == op_kind::starts_with)
	{
		if (reads_table(id, req->root, false))
			return security_rewrite<T>(support_fn, id, rightop);
	}
	return nullptr;
}

template <class T, op_kind K>
Datum
id_support(FunctionCallInfo fcinfo)
{
	Node *rawreq = reinterpret_cast<Node *>(PG_GETARG_POINTER(0));
	const Oid support_fn = fcinfo->flinfo->fn_oid;
	if (IsA(rawreq, SupportRequestSelectivity))
	{
		/* The function called directly; as an operator, the RESTRICT estimator is used. */
		auto *req = reinterpret_cast<SupportRequestSelectivity *>(rawreq);
		req->selectivity = req->is_join
							   ? DEFAULT_RANGE_INEQ_SEL
							   : restriction_selectivity<T, K>(req->root, req->args, req->varRelid);
		PG_RETURN_POINTER(req);
	}
	if (IsA(rawreq, SupportRequestSimplify))
	{
		auto *req = reinterpret_cast<SupportRequestSimplify *>(rawreq);
		Node *rewritten = simplified<T, K>(req, support_fn);
		PG_RETURN_POINTER(rewritten);
	}
	if (IsA(rawreq, SupportRequestIndexCondition))
	{
		auto *req = reinterpret_cast<SupportRequestIndexCondition *>(rawreq);
		List *conditions = index_conditions<T, K>(req, support_fn);
		PG_RETURN_POINTER(conditions);
	}
	/* Not PG_RETURN_POINTER(nullptr): on 19 that no longer compiles in C++. */
	return (Datum) 0;
}

/* RESTRICT estimator of the operators: (root, operator, args, varRelid). */
template <class T, op_kind K>
Datum
id_restrict_sel(FunctionCallInfo fcinfo)
{
	PlannerInfo *root = reinterpret_cast<PlannerInfo *>(PG_GETARG_POINTER(0));
	List *args = reinterpret_cast<List *>(PG_GETARG_POINTER(2));
	const int varRelid = PG_GETARG_INT32(3);
	const double selectivity = restriction_selectivity<T, K>(root, args, varRelid);
	PG_RETURN_FLOAT8(selectivity);
}

/* Is there a binary-coercible cast (any context) from src to dst? */
bool
binary_cast(Oid src, Oid dst)
{
	HeapTuple tuple =
		SearchSysCache2(CASTSOURCETARGET, ObjectIdGetDatum(src), ObjectIdGetDatum(dst));
	if (!HeapTupleIsValid(tuple))
		return false;
	const bool binary =
		reinterpret_cast<Form_pg_cast>(GETSTRUCT(tuple))->castmethod == COERCION_METHOD_BINARY;
	ReleaseSysCache(tuple);
	return binary;
}

/*
 * "<id> op uuid" and "uuid op <id>" (the cross-type comparisons of ulid and euid with uuid) where
 * the uuid side reads a column, rewritten into core's uuid operator of the same strategy with the
 * ID relabeled as uuid (the same 16 bytes, compared the same way: the cast is binary-coercible).
 * Then the condition is uuid's own: an index on the uuid column (uuid_ops) serves
 * "uuid_col = ulid_value", and a join "uuid_col = ulid_col" is an equivalence of uuid values,
 * hashed and sorted as uuid, with an index on either side usable (ulid_ops holds uuid's
 * operators too). Putting our cross-type operators into core's uuid_ops families instead makes
 * the planner pick uuid_ops for merge joins of ulid (an error: "missing operator 1(ulid,ulid) in
 * opfamily 2968"), or, with ulid's own operators there too, for ORDER BY and max() on a ulid
 * column (which then sort instead of reading the index). Where the uuid side is a constant or a
 * parameter the operator stays: the ID column's own index serves it. A catalog whose casts are
 * not binary-coercible (1.0) gets no rewrite. strategy: a btree strategy, or 0 for <>.
 */
Node *
uuid_cross_rewrite(SupportRequestSimplify *req, int strategy)
{
	List *args = req->fcall->args;
	if (list_length(args) != 2)
		return nullptr;
	Node *left = static_cast<Node *>(linitial(args));
	Node *right = static_cast<Node *>(lsecond(args));
	const bool uuid_left = exprType(left) == UUIDOID;
	Node *uuid_side = uuid_left ? left : right;
	Node *id_side = uuid_left ? right : left;
	const Oid id_type = exprType(id_side);
	if (exprType(uuid_side) != UUIDOID || id_type == UUIDOID || get_typlen(id_type) != 16 ||
		!binary_cast(id_type, UUIDOID) || !binary_cast(UUIDOID, id_type) ||
		!contain_var_clause(uuid_side))
		return nullptr;
	TypeCacheEntry *tce = lookup_type_cache(UUIDOID, TYPECACHE_BTREE_OPFAMILY);
	if (!OidIsValid(tce->btree_opf))
		return nullptr;
	Oid opno = get_opfamily_member(tce->btree_opf, UUIDOID, UUIDOID,
								   strategy == 0 ? BTEqualStrategyNumber : strategy);
	if (OidIsValid(opno) && strategy == 0)
		opno = get_negator(opno);
	if (!OidIsValid(opno))
		return nullptr;
	Node *relabeled = reinterpret_cast<Node *>(makeRelabelType(
		reinterpret_cast<Expr *>(id_side), UUIDOID, -1, InvalidOid, COERCE_IMPLICIT_CAST));
	Expr *l = reinterpret_cast<Expr *>(uuid_left ? uuid_side : relabeled);
	Expr *r = reinterpret_cast<Expr *>(uuid_left ? relabeled : uuid_side);
	auto *op = reinterpret_cast<OpExpr *>(
		make_opclause(opno, BOOLOID, false, l, r, InvalidOid, InvalidOid));
	op->location = req->fcall->location;
	set_opfuncid(op);
	return reinterpret_cast<Node *>(op);
}

Datum
uuid_cross_support(FunctionCallInfo fcinfo, int strategy)
{
	Node *rawreq = reinterpret_cast<Node *>(PG_GETARG_POINTER(0));
	if (IsA(rawreq, SupportRequestSimplify))
	{
		Node *rewritten =
			uuid_cross_rewrite(reinterpret_cast<SupportRequestSimplify *>(rawreq), strategy);
		PG_RETURN_POINTER(rewritten);
	}
	return (Datum) 0;
}

} /* namespace */

Oid
idt_starts_with_fn(Oid support_fn, const char *type_name, Oid typid)
{
	char symbol[NAMEDATALEN];
	snprintf(symbol, sizeof(symbol), "%s_starts_with", type_name);
	const Oid args[2] = {typid, TEXTOID};
	return member_function(support_fn, symbol, 2, args, BOOLOID, true);
}

Oid
idt_contained_fn(Oid support_fn, const char *type_name, Oid typid, Oid *rngtypid)
{
	char symbol[NAMEDATALEN];
	snprintf(symbol, sizeof(symbol), "%s_prefix_range", type_name);
	const Oid text_arg = TEXTOID;
	const Oid prefix_range = member_function(support_fn, symbol, 1, &text_arg, InvalidOid, false);
	if (!OidIsValid(prefix_range) || !is_range_of(get_func_rettype(prefix_range), typid))
		return InvalidOid;
	*rngtypid = get_func_rettype(prefix_range);
	snprintf(symbol, sizeof(symbol), "%s_contained", type_name);
	const Oid args[2] = {typid, *rngtypid};
	return member_function(support_fn, symbol, 2, args, BOOLOID, true);
}

void
idt_planner_init()
{
	prev_relation_stats_hook = get_relation_stats_hook;
	get_relation_stats_hook = relation_stats;
}

/* One block of fmgr entry points per type, each named after its SQL object. */
#define IDT_PLANNER(T)                                                                             \
	PG_FUNCTION_INFO_V1(T##_starts_with_support);                                                  \
	Datum T##_starts_with_support(PG_FUNCTION_ARGS)                                                \
	{                                                                                              \
		return id_support<T##_traits, op_kind::starts_with>(fcinfo);                               \
	}                                                                                              \
	PG_FUNCTION_INFO_V1(T##_contained_support);                                                    \
	Datum T##_contained_support(PG_FUNCTION_ARGS)                                                  \
	{                                                                                              \
		return id_support<T##_traits, op_kind::contained>(fcinfo);                                 \
	}                                                                                              \
	PG_FUNCTION_INFO_V1(T##_starts_with_sel);                                                      \
	Datum T##_starts_with_sel(PG_FUNCTION_ARGS)                                                    \
	{                                                                                              \
		return id_restrict_sel<T##_traits, op_kind::starts_with>(fcinfo);                          \
	}                                                                                              \
	PG_FUNCTION_INFO_V1(T##_contained_sel);                                                        \
	Datum T##_contained_sel(PG_FUNCTION_ARGS)                                                      \
	{                                                                                              \
		return id_restrict_sel<T##_traits, op_kind::contained>(fcinfo);                            \
	}

extern "C" {

IDT_PLANNER(uid11)
IDT_PLANNER(timeid)
IDT_PLANNER(ulidflake)
IDT_PLANNER(ulid)
IDT_PLANNER(euid)

/* The comparisons of ulid and euid with uuid, both ways: one support function per strategy. */
#define IDT_UUID_CROSS(name, strategy)                                                             \
	PG_FUNCTION_INFO_V1(uuid_cross_##name##_support);                                              \
	Datum uuid_cross_##name##_support(PG_FUNCTION_ARGS)                                            \
	{                                                                                              \
		return uuid_cross_support(fcinfo, strategy);                                               \
	}

IDT_UUID_CROSS(eq, BTEqualStrategyNumber)
IDT_UUID_CROSS(ne, 0)
IDT_UUID_CROSS(lt, BTLessStrategyNumber)
IDT_UUID_CROSS(le, BTLessEqualStrategyNumber)
IDT_UUID_CROSS(gt, BTGreaterStrategyNumber)
IDT_UUID_CROSS(ge, BTGreaterEqualStrategyNumber)

} /* extern "C" */
