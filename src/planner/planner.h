/* planner.h: what the planner support files in src/planner/ share (their map: docs/development.md). */
#ifndef IDTYPES_PLANNER_H
#define IDTYPES_PLANNER_H

#include "glue.h"
#include "ranges.h"
#include "traits.h"
#include "values.h"

extern "C" {
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pathnodes.h"
#include "nodes/supportnodes.h"
#include "utils/lsyscache.h"
#include "utils/rangetypes.h"
#include "utils/selfuncs.h"
#include "utils/typcache.h"
}

/* The five types, for the explicit instantiations at the end of each file. */
#define IDT_PLANNER_TYPES(X) X(uid11) X(timeid) X(ulidflake) X(ulid) X(euid)
/* The types of ^@ and <@: ours and core's uuid (its ^@ on hex prefixes, <@ on UUIDv7 time
 * ranges). The statistics hook is for our types only: it changes no estimate of a uuid column. */
#define IDT_OPERATOR_TYPES(X) IDT_PLANNER_TYPES(X) X(uuid)

namespace planning
{

using namespace glue;

enum class op_kind
{
	starts_with, /* id ^@ text */
	contained,   /* id <@ idrange */
};

/* ---- members.cpp: the extension's own functions and types, found by OID ------------------- */

/*
 * The member function of the support function's extension with this C symbol, these argument
 * types (InvalidOid: any) and this result type (InvalidOid: any), with or without planner
 * support of its own; InvalidOid if there is none.
 */
Oid member_function(Oid support_fn, const char *symbol, int nargs, const Oid *args, Oid result,
					bool with_support);
/* Is rngtypid a range type over typid? */
bool is_range_of(Oid rngtypid, Oid typid);
/* <type>_prefix_range(text) -> <type>range, or InvalidOid. */
Oid prefix_range_fn(Oid support_fn, const char *type_name, Oid typid);
/* <type>range<suffix>(<type>range) -> <type>, or InvalidOid. */
Oid range_end_fn(Oid support_fn, const char *type_name, const char *suffix, Oid rngtypid,
				 Oid typid);
/* The ^@ test without planner support (euid_starts_with_recheck), or InvalidOid. */
Oid recheck_fn(Oid support_fn, const char *type_name, Oid typid);
/* The <@ test, <type>_contained(<type>, <type>range) with its planner support, or InvalidOid. */
Oid contained_fn(Oid support_fn, const char *type_name, Oid typid, Oid rngtypid);

enum class id_kind
{
	none,
	uid11,
	timeid,
	ulidflake,
	ulid,
	euid,
};

/* Which of our types typid is (none: not ours). */
id_kind kind_of(Oid typid);

/* ---- growth.cpp: rows added since ANALYZE and the index's actual ends ----------------------- */

/* What one planning run keeps (index ends, extended statistics), in its memory. */
struct run_cache
{
	const PlannerGlobal *glob;
	MemoryContext context;
	MemoryContextCallback forget;
	HTAB *entries; /* run_entry by run_key, made at the first lookup */
	HTAB *rtes;    /* rte_entry by (root, range table entry): rte_index_of */
};

/* What a planning run keeps of a column: its index's smallest or largest value, or its statistics. */
enum run_item : int16
{
	RUN_INDEX_MIN,
	RUN_INDEX_MAX,
	RUN_INDEX_FROM,
	RUN_STATS
};
struct run_key
{
	Oid relid;
	AttrNumber attnum;
	int16 item; /* run_item */
};
struct run_entry
{
	run_key key;
	bool found;      /* RUN_INDEX_*: the index has a value */
	Datum value;     /* RUN_INDEX_*: that value, in the run's memory */
	HeapTuple stats; /* RUN_STATS: the extended statistics, or nullptr for core's */
};

/* The cache of root's planning run, or nullptr where there is none to keep. */
run_cache *run_cache_of(PlannerInfo *root);

/*
 * The run's entry of (relid, attnum, item), and whether it was there already (*kept); a new one
 * is zeroed but for its key. One hash lookup: a plan over 1,500 partitions looks up 1,500 columns.
 */
run_entry *run_entry_of(run_cache *c, Oid relid, AttrNumber attnum, run_item item, bool *kept);

/*
 * The range table index of rte in root (0 if not there), found in a map of root's entries kept
 * with the run: a plan over 1,500 partitions asks for 1,500 of them.
 */
Index rte_index_of(run_cache *c, PlannerInfo *root, const RangeTblEntry *rte);

/*
 * The share of a table's new rows that follow its value order: the column's pg_stats.correlation
 * (from its pg_statistic tuple) within [0, 1]; 0 without one.
 */
double ordered_share(HeapTuple stats);

/*
 * A column of a plain table as it is now: what the session keeps per column (kept.cpp) is keyed
 * by relid and attnum and valid for the last ANALYZE and the table's file, a kept ID also for the
 * last VACUUM and, the largest, the table's size in pages. valid is false for what is not a plain
 * table's column with cumulative statistics (nothing is kept for it).
 */
struct column_now
{
	bool valid;
	Oid relid;
	AttrNumber attnum;
	TimestampTz analyzed; /* the last ANALYZE, by hand or autovacuum (0: none known) */
	TimestampTz vacuumed; /* the last VACUUM, likewise */
	Oid relfilenode;
	BlockNumber pages;
};

/*
 * The rows of the column's table now and the rows its statistics describe (both 0 when
 * unknown); now > described means rows were added since ANALYZE. With column, the column as it
 * is now, read on the way (no second catalog lookup for what the session keeps of it).
 */
void row_counts(PlannerInfo *root, const VariableStatData *vardata, double *now, double *described,
				column_now *column = nullptr);

/*
 * The smallest (want_max = false) or largest value of the column in a btree index of opfamily,
 * read from the index's end at most once per planning run; false if unknown.
 */
bool actual_extreme(PlannerInfo *root, const VariableStatData *vardata, Oid opfamily, bool want_max,
					Datum *out);

/*
 * The smallest value of the column at or above bound in a btree index of opfamily, read at most
 * once per planning run (so bound must be the same for the column throughout the run: the
 * statistics hook's, from the time of the last ANALYZE); false if none or unknown.
 */
bool first_at_or_above(PlannerInfo *root, const VariableStatData *vardata, Oid opfamily,
					   Datum bound, Datum *out);

/* ---- kept.cpp: what a session keeps per column across planning runs ------------------------ */

/*
 * The check of a column's row count against its index after a VACUUM (growth.cpp), kept while
 * the column's statistics and the table's file are those it was made under: known when the count
 * ended below its limit, and then the rows the statistics describe.
 */
struct kept_check
{
	bool known;
	double described;
};
bool kept_check_of(const column_now &column, kept_check *out);
void keep_check(const column_now &column, kept_check check);

/*
 * IDs the statistics hook keeps, while the statistics, the table's file and its last VACUUM
 * (which may have removed the row) are those they were read under: the first new row (the first
 * at or above the time of the last ANALYZE: later rows come above it) and the largest ID, which
 * is kept while the table has the same number of pages (rows added since go into the estimates
 * once the table grows a page; an estimate beyond it reads the index's end anyway, in core). A
 * 64-bit ID is kept in lo.
 */
enum kept_item
{
	KEPT_FIRST_NEW,
	KEPT_LARGEST,
	KEPT_IDS
};
bool kept_id_of(const column_now &column, kept_item item, idt::u128 *out);
void keep_id(const column_now &column, kept_item item, idt::u128 value);

/* ---- stats_hook.cpp: statistics extended by the rows added since ANALYZE ------------------ */

/*
 * idtypes.new_row_estimates (on by default): the rows added since ANALYZE go into the estimates
 * (the statistics hook for core's estimators, row_counts() in ours). Off, the planner estimates
 * from the statistics as ANALYZE left them, and reads no index entries to count new rows.
 */
extern bool new_row_estimates;

/* Did the statistics hook make vardata's statistics (holding the new rows already)? */
bool is_extended_stats(const VariableStatData *vardata);
void install_stats_hook();

/* ---- selectivity.cpp: estimates of ^@ and <@ ----------------------------------------------- */

template <class T, op_kind K>
double restriction_selectivity(PlannerInfo *root, List *args, int varRelid);

/* ---- index_support.cpp: index conditions --------------------------------------------------- */

template <class T, op_kind K>
List *index_conditions(SupportRequestIndexCondition *req, Oid support_fn);

/* fn(arg) and fn(arg1, arg2) -> bool, as the planner builds them. */
Expr *call(Oid funcid, Oid rettype, Node *arg);
Expr *call2(Oid funcid, Node *arg1, Node *arg2);
/* The >= and <= of the type's default btree opclass, or false if it has none. */
bool btree_ge_le(Oid typid, Oid *ge, Oid *le);

/* ---- rewrites.cpp: partition pruning, row-level security, uuid cross-type ----------------- */

template <class T, op_kind K>
Node *simplified(SupportRequestSimplify *req, Oid support_fn);
Node *uuid_cross_rewrite(SupportRequestSimplify *req, int strategy);

/* ---- the right side of ^@ and <@ ------------------------------------------------------------ */

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

/* A constant of the ID type. */
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
		const Oid prefix_range = prefix_range_fn(support_fn, T::name, typid);
		if (!OidIsValid(prefix_range) || exprType(rightop) != TEXTOID)
			return false;
		*range =
			reinterpret_cast<Node *>(call(prefix_range, get_func_rettype(prefix_range), rightop));
	}
	const Oid rngtypid = exprType(*range);
	*lo_fn = range_end_fn(support_fn, T::name, lo_suffix, rngtypid, typid);
	*hi_fn = range_end_fn(support_fn, T::name, hi_suffix, rngtypid, typid);
	return OidIsValid(*lo_fn) && OidIsValid(*hi_fn);
}

} /* namespace planning */

#endif /* IDTYPES_PLANNER_H */
