/* ranges.cpp: prefix and time ranges, the ^@ and <@ operators and their planner support. */
#include "glue.h"
#include "traits.h"
#include "values.h"

extern "C" {
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_statistic.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "parser/parsetree.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rangetypes.h"
#include "utils/selfuncs.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"
}

namespace
{

using namespace glue;

template <class T>
constexpr typename T::range_type
empty_range()
{
	return {T::min, T::min, true, idt::errc::ok, 0, true};
}

/* ---- bounds of the operators' right sides ------------------------------------------------ */

/* The prefix's bounds, or a 22P02 error naming the type and saying it is a prefix. */
template <class T>
typename T::range_type
checked_prefix(const char *p, std::size_t n)
{
	const typename T::range_type r = T::prefix(p, n);
	if (r.error != idt::errc::ok)
		glue::report_parse_error(nullptr, {T::name, T::prefix_hint, T::symbols, true, false},
								 pnstrdup(p, n), n, r.error, r.offset);
	return r;
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

/* A range type's cache entry, for the function's declared result type (kept in fn_extra). */
TypeCacheEntry *
result_range_typcache(FunctionCallInfo fcinfo)
{
	auto *typcache = static_cast<TypeCacheEntry *>(fcinfo->flinfo->fn_extra);
	if (typcache == nullptr)
	{
		const Oid rngtypid = get_func_rettype(fcinfo->flinfo->fn_oid);
		typcache = lookup_type_cache(rngtypid, TYPECACHE_RANGE_INFO);
		if (typcache->rngelemtype == nullptr)
			elog(ERROR, "type %u is not a range type", rngtypid);
		fcinfo->flinfo->fn_extra = typcache;
	}
	return typcache;
}

/* '[lo,hi]' or 'empty' as a value of the function's result type. */
template <class T>
Datum
make_id_range(FunctionCallInfo fcinfo, const typename T::range_type &r)
{
	TypeCacheEntry *typcache = result_range_typcache(fcinfo);
	if (r.empty)
		PG_RETURN_RANGE_P(make_empty_range(typcache));
	RangeBound lower = {id_to_datum(r.lo), false, true, true};
	RangeBound upper = {id_to_datum(r.hi), false, true, false};
	PG_RETURN_RANGE_P(idt_make_range(typcache, &lower, &upper));
}

/* PostgreSQL timestamps reach ~294276 AD, past int64 Unix microseconds: clamp first. Every
 * format's era ends long before the clamp, so it changes no result. */
std::int64_t
pg_to_unix_us(TimestampTz t)
{
	constexpr std::int64_t top = PG_INT64_MAX - glue::unix_to_pg_us;
	return (t > top ? top : t) + glue::unix_to_pg_us;
}

/* ---- SQL-callable bodies ----------------------------------------------------------------- */

template <class T>
Datum
id_prefix_range(FunctionCallInfo fcinfo)
{
	text *prefix = PG_GETARG_TEXT_PP(0);
	const typename T::range_type r =
		checked_prefix<T>(VARDATA_ANY(prefix), VARSIZE_ANY_EXHDR(prefix));
	return make_id_range<T>(fcinfo, r);
}

template <class T>
Datum
id_time_range(FunctionCallInfo fcinfo)
{
	RangeType *window = PG_GETARG_RANGE_P(0);
	TypeCacheEntry *tstz = lookup_type_cache(RangeTypeGetOid(window), TYPECACHE_RANGE_INFO);
	RangeBound lower, upper;
	bool empty;
	range_deserialize(tstz, window, &lower, &upper, &empty);
	if (empty)
		return make_id_range<T>(fcinfo, empty_range<T>());
	idt::time_window w = {};
	w.lo_infinite = lower.infinite;
	w.hi_infinite = upper.infinite;
	w.lo_inclusive = lower.inclusive;
	w.hi_inclusive = upper.inclusive;
	if (!lower.infinite)
		w.lo_us = pg_to_unix_us(DatumGetTimestampTz(lower.val));
	if (!upper.infinite)
		w.hi_us = pg_to_unix_us(DatumGetTimestampTz(upper.val));
	return make_id_range<T>(fcinfo, T::time_range(w));
}

template <class T>
Datum
id_starts_with(FunctionCallInfo fcinfo, typename T::value_type v)
{
	text *prefix = PG_GETARG_TEXT_PP(1);
	const char *p = VARDATA_ANY(prefix);
	const std::size_t n = VARSIZE_ANY_EXHDR(prefix);
	const typename T::range_type r = checked_prefix<T>(p, n);
	if (r.empty || v < r.lo || r.hi < v)
		PG_RETURN_BOOL(false);
	if constexpr (T::may_be_inexact)
	{
		if (!r.exact)
			PG_RETURN_BOOL(T::text_starts_with(v, p, n));
	}
	PG_RETURN_BOOL(true);
}

template <class T>
Datum
id_contained(FunctionCallInfo fcinfo, typename T::value_type v)
{
	RangeType *range = PG_GETARG_RANGE_P(1);
	TypeCacheEntry *typcache = range_get_typcache(fcinfo, RangeTypeGetOid(range));
	const typename T::range_type r = closed_bounds<T>(typcache, range);
	PG_RETURN_BOOL(!r.empty && !(v < r.lo) && !(r.hi < v));
}

/* The first (first = true) or last ID of the range; NULL when it holds none. */
template <class T>
Datum
id_range_end(FunctionCallInfo fcinfo, bool first)
{
	RangeType *range = PG_GETARG_RANGE_P(0);
	TypeCacheEntry *typcache = range_get_typcache(fcinfo, RangeTypeGetOid(range));
	const typename T::range_type r = closed_bounds<T>(typcache, range);
	if (r.empty)
		PG_RETURN_NULL();
	return id_to_datum(first ? r.lo : r.hi);
}

/* The lower (lower = true) or upper end of the range's closed [lo, hi]; for an empty range the
 * type's maximum and minimum, so that "lo <= id AND id <= hi" holds for no id (and is false,
 * not NULL, as "id <@ r" is). */
template <class T>
Datum
id_range_bound(FunctionCallInfo fcinfo, bool lower)
{
	RangeType *range = PG_GETARG_RANGE_P(0);
	TypeCacheEntry *typcache = range_get_typcache(fcinfo, RangeTypeGetOid(range));
	const typename T::range_type r = closed_bounds<T>(typcache, range);
	if (r.empty)
		return id_to_datum(lower ? T::max : T::min);
	return id_to_datum(lower ? r.lo : r.hi);
}

/* The smallest ID whose time is at or after ts (at the format's unit); NULL past the format's
 * era. The start of a time partition: [first_at(a), first_at(b)) holds the IDs of [a, b). */
template <class T>
Datum
id_first_at(FunctionCallInfo fcinfo)
{
	idt::time_window w = {};
	w.lo_inclusive = true;
	w.hi_infinite = true;
	w.lo_us = pg_to_unix_us(PG_GETARG_TIMESTAMPTZ(0));
	const typename T::range_type r = T::time_range(w);
	if (r.empty)
		PG_RETURN_NULL();
	return id_to_datum(r.lo);
}

/* ---- planner support --------------------------------------------------------------------- */

enum class op_kind
{
	starts_with, /* id ^@ text */
	contained,	 /* id <@ idrange */
};

/* Bounds of a constant right side, with error set when there are none to have: an invalid
 * prefix (the operator itself reports it at run time) or a constant of an unexpected type. */
template <class T, op_kind K>
typename T::range_type
const_bounds(const Const *c)
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
		TypeCacheEntry *typcache = lookup_type_cache(c->consttype, TYPECACHE_RANGE_INFO);
		if (typcache->rngelemtype == nullptr)
			return unusable;
		return closed_bounds<T>(typcache, DatumGetRangeTypeP(c->constvalue));
	}
}

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
 * Selectivity of "var op const" from the column's statistics: the MCVs inside [lo, hi]
 * exactly, plus the histogram's share of [lo, hi] by linear interpolation of the IDs' values
 * (as convert_to_scalar does for numbers; PostgreSQL cannot do it for a type it does not
 * know), never below one distinct value's share. No statistics: the default range estimate.
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
	const typename T::range_type r = const_bounds<T, K>(c);
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

	double hist_sel = whole ? 1.0 : DEFAULT_RANGE_INEQ_SEL;
	if (!whole && get_attstatsslot(&sslot, vardata.statsTuple, STATISTIC_KIND_HISTOGRAM,
								   InvalidOid, ATTSTATSSLOT_VALUES))
	{
		if (sslot.nvalues >= 2)
		{
			double *bounds = static_cast<double *>(palloc(sizeof(double) * sslot.nvalues));
			for (int i = 0; i < sslot.nvalues; i++)
				bounds[i] = id_to_double(id_from_datum<V>(sslot.values[i]));
			hist_sel = histogram_fraction(bounds, sslot.nvalues, id_to_double(r.hi)) -
					   histogram_fraction(bounds, sslot.nvalues, id_to_double(r.lo));
			if (r.lo == r.hi || hist_sel < 0)
				hist_sel = 0;
			pfree(bounds);
		}
		free_attstatsslot(&sslot);
		bool isdefault;
		const double ndistinct = get_variable_numdistinct(&vardata, &isdefault);
		if (ndistinct >= 1 && hist_sel < 1.0 / ndistinct)
			hist_sel = 1.0 / ndistinct;
	}
	ReleaseVariableStats(vardata);

	double sel = hist_sel * (1.0 - nullfrac - sumcommon) + mcv_sel;
	CLAMP_PROBABILITY(sel);
	return sel;
}

/* The OID of function name(argtype) in schema nsp, or InvalidOid. */
Oid
function_oid(Oid nsp, const char *name, Oid argtype)
{
	return GetSysCacheOid3(PROCNAMEARGSNSP, Anum_pg_proc_oid, CStringGetDatum(name),
						   PointerGetDatum(buildoidvector(&argtype, 1)), ObjectIdGetDatum(nsp));
}

Expr *
call(Oid funcid, Oid rettype, Node *arg)
{
	return reinterpret_cast<Expr *>(makeFuncExpr(funcid, rettype, list_make1(arg), InvalidOid,
												 exprCollation(arg), COERCE_EXPLICIT_CALL));
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

/* The closed [lo, hi] of a constant right side; an empty one as lo = the maximum and hi = the
 * minimum, which no id lies between. False for a NULL or an invalid constant. */
template <class T, op_kind K>
bool
const_closed_bounds(const Const *c, typename T::range_type *r)
{
	if (c->constisnull)
		return false;
	*r = const_bounds<T, K>(c);
	if (r->error != idt::errc::ok)
		return false;
	if (r->empty)
	{
		r->lo = T::max;
		r->hi = T::min;
	}
	return true;
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

/* The range a non-constant right side stands for (for ^@, <type>_prefix_range(p)), and the
 * functions named <range_name><lo_suffix> and <range_name><hi_suffix> that give its ends; false
 * if one is missing. */
template <class T, op_kind K>
bool
range_ends(Node *rightop, Oid nsp, const char *range_name, const char *lo_suffix,
		   const char *hi_suffix, Node **range, Oid *lo_fn, Oid *hi_fn)
{
	char fname[NAMEDATALEN];
	*range = rightop;
	if constexpr (K == op_kind::starts_with)
	{
		snprintf(fname, sizeof(fname), "%s_prefix_range", T::name);
		const Oid prefix_range = function_oid(nsp, fname, TEXTOID);
		if (!OidIsValid(prefix_range) || exprType(rightop) != TEXTOID)
			return false;
		*range = reinterpret_cast<Node *>(call(prefix_range, get_func_rettype(prefix_range), rightop));
	}
	const Oid rngtypid = exprType(*range);
	snprintf(fname, sizeof(fname), "%s%s", range_name, lo_suffix);
	*lo_fn = function_oid(nsp, fname, rngtypid);
	snprintf(fname, sizeof(fname), "%s%s", range_name, hi_suffix);
	*hi_fn = function_oid(nsp, fname, rngtypid);
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
index_conditions(SupportRequestIndexCondition *req, const char *range_name)
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
		if (!const_closed_bounds<T, K>(reinterpret_cast<const Const *>(rightop), &r))
			return NIL;
		lo = id_const(typid, r.lo);
		hi = id_const(typid, r.hi);
		lossy = !r.exact;
	}
	else
	{
		Node *range;
		Oid first, last;
		if (!range_ends<T, K>(rightop, get_func_namespace(req->funcid), range_name, "_first",
							  "_last", &range, &first, &last))
			return NIL;
		lo = call(first, typid, range);
		hi = call(last, typid, static_cast<Node *>(copyObjectImpl(range)));
		lossy = K == op_kind::starts_with && T::may_be_inexact;
	}
	req->lossy = lossy;
	return list_make2(make_opclause(ge, BOOLOID, false, reinterpret_cast<Expr *>(leftop), lo,
									InvalidOid, InvalidOid),
					  make_opclause(le, BOOLOID, false,
									static_cast<Expr *>(copyObjectImpl(leftop)), hi, InvalidOid,
									InvalidOid));
}

/* Can expr be evaluated twice instead of once, with the same value and no other effect? */
bool
duplicable(Node *expr)
{
	return !contain_volatile_functions(expr) && !contain_subplans(expr) &&
		   !expression_returns_set(expr);
}

/* Does expr read a column of a table of this query level that has partitions or children? */
bool
reads_parent_table(Node *expr, PlannerInfo *root)
{
	struct walker
	{
		static bool visit(Node *node, void *context)
		{
			if (node == nullptr)
				return false;
			if (IsA(node, Var))
			{
				const Var *var = reinterpret_cast<const Var *>(node);
				const Query *parse = static_cast<const PlannerInfo *>(context)->parse;
				if (var->varlevelsup != 0 || IS_SPECIAL_VARNO(var->varno) || var->varno < 1 ||
					var->varno > list_length(parse->rtable))
					return false;
				const RangeTblEntry *rte = rt_fetch(var->varno, parse->rtable);
				return rte->rtekind == RTE_RELATION && has_subclass(rte->relid);
			}
			return idt_expression_tree_walker(node, visit, context);
		}
	};
	return root != nullptr && root->parse != nullptr && walker::visit(expr, root);
}

Expr *
call2(Oid funcid, Node *arg1, Node *arg2)
{
	return reinterpret_cast<Expr *>(makeFuncExpr(funcid, BOOLOID, list_make2(arg1, arg2),
												 InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL));
}

/*
 * "id ^@ p" and "id <@ r" rewritten, when the planner folds constants, into the btree operators
 * of the ID type's default opclass, "id >= lo AND id <= hi", when id reads a partitioned table
 * (or an inheritance parent): partition pruning, at plan time for a constant and at executor
 * start for a parameter or a stable expression, sees only such comparisons. Elsewhere the
 * operator stays: its index conditions are the same, and its estimator interpolates within a
 * histogram bucket where PostgreSQL's for >= and <= on a type it does not know cannot (a prefix
 * of 370 rows in 100k was estimated at 1). Every rewrite has the operator's value for every
 * input, not only the same rows in a WHERE clause:
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
 * An invalid constant prefix is left alone: the operator reports it when it runs.
 */
template <class T, op_kind K>
Node *
simplified(SupportRequestSimplify *req, const char *range_name)
{
	List *args = req->fcall->args;
	if (list_length(args) != 2)
		return nullptr;
	Node *id = static_cast<Node *>(linitial(args));
	Node *rightop = static_cast<Node *>(lsecond(args));
	if (!reads_parent_table(id, req->root) || !duplicable(id))
		return nullptr;

	const Oid typid = exprType(id);
	Oid ge, le;
	if (!btree_ge_le(typid, &ge, &le))
		return nullptr;
	const Oid nsp = get_func_namespace(req->fcall->funcid);

	Oid recheck = InvalidOid;
	bool need_recheck = false;
	Expr *lo = nullptr, *hi = nullptr;
	if (IsA(rightop, Const))
	{
		typename T::range_type r;
		if (!const_closed_bounds<T, K>(reinterpret_cast<const Const *>(rightop), &r))
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
		if (!range_ends<T, K>(static_cast<Node *>(copyObjectImpl(rightop)), nsp, range_name, "_lo",
							  "_hi", &range, &range_lo, &range_hi))
			return nullptr;
		need_recheck = K == op_kind::starts_with && T::may_be_inexact;
		lo = call(range_lo, typid, range);
		hi = call(range_hi, typid, static_cast<Node *>(copyObjectImpl(range)));
	}
	if (need_recheck)
	{
		const Oid argtypes[2] = {typid, TEXTOID};
		char fname[NAMEDATALEN];
		snprintf(fname, sizeof(fname), "%s_starts_with_recheck", T::name);
		recheck = GetSysCacheOid3(PROCNAMEARGSNSP, Anum_pg_proc_oid, CStringGetDatum(fname),
								  PointerGetDatum(buildoidvector(argtypes, 2)),
								  ObjectIdGetDatum(nsp));
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

template <class T, op_kind K>
Datum
id_support(FunctionCallInfo fcinfo, const char *range_name)
{
	Node *rawreq = reinterpret_cast<Node *>(PG_GETARG_POINTER(0));
	if (IsA(rawreq, SupportRequestSelectivity))
	{
		/* The function called directly; as an operator, the RESTRICT estimator is used. */
		auto *req = reinterpret_cast<SupportRequestSelectivity *>(rawreq);
		req->selectivity = req->is_join ? DEFAULT_RANGE_INEQ_SEL
										: restriction_selectivity<T, K>(req->root, req->args,
																		req->varRelid);
		PG_RETURN_POINTER(req);
	}
	if (IsA(rawreq, SupportRequestSimplify))
	{
		auto *req = reinterpret_cast<SupportRequestSimplify *>(rawreq);
		Node *rewritten = simplified<T, K>(req, range_name);
		PG_RETURN_POINTER(rewritten);
	}
	if (IsA(rawreq, SupportRequestIndexCondition))
	{
		auto *req = reinterpret_cast<SupportRequestIndexCondition *>(rawreq);
		List *conditions = index_conditions<T, K>(req, range_name);
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

template <class T>
typename T::value_type
arg_id(FunctionCallInfo fcinfo, int n)
{
	return id_from_datum<typename T::value_type>(PG_GETARG_DATUM(n));
}

} /* namespace */

/* One block of fmgr entry points per type, each named after its SQL object. */
#define IDT_RANGES(T)                                                                              \
	PG_FUNCTION_INFO_V1(T##_range_subdiff);                                                        \
	Datum T##_range_subdiff(PG_FUNCTION_ARGS)                                                      \
	{                                                                                              \
		PG_RETURN_FLOAT8(id_to_double(arg_id<T##_traits>(fcinfo, 0)) -                             \
						 id_to_double(arg_id<T##_traits>(fcinfo, 1)));                             \
	}                                                                                              \
	PG_FUNCTION_INFO_V1(T##_prefix_range);                                                         \
	Datum T##_prefix_range(PG_FUNCTION_ARGS) { return id_prefix_range<T##_traits>(fcinfo); }       \
	PG_FUNCTION_INFO_V1(T##_time_range);                                                           \
	Datum T##_time_range(PG_FUNCTION_ARGS) { return id_time_range<T##_traits>(fcinfo); }           \
	PG_FUNCTION_INFO_V1(T##_starts_with);                                                          \
	Datum T##_starts_with(PG_FUNCTION_ARGS)                                                        \
	{                                                                                              \
		return id_starts_with<T##_traits>(fcinfo, arg_id<T##_traits>(fcinfo, 0));                  \
	}                                                                                              \
	PG_FUNCTION_INFO_V1(T##_contained);                                                            \
	Datum T##_contained(PG_FUNCTION_ARGS)                                                          \
	{                                                                                              \
		return id_contained<T##_traits>(fcinfo, arg_id<T##_traits>(fcinfo, 0));                    \
	}                                                                                              \
	PG_FUNCTION_INFO_V1(T##range_first);                                                           \
	Datum T##range_first(PG_FUNCTION_ARGS) { return id_range_end<T##_traits>(fcinfo, true); }      \
	PG_FUNCTION_INFO_V1(T##range_last);                                                            \
	Datum T##range_last(PG_FUNCTION_ARGS) { return id_range_end<T##_traits>(fcinfo, false); }      \
	PG_FUNCTION_INFO_V1(T##range_lo);                                                              \
	Datum T##range_lo(PG_FUNCTION_ARGS) { return id_range_bound<T##_traits>(fcinfo, true); }       \
	PG_FUNCTION_INFO_V1(T##range_hi);                                                              \
	Datum T##range_hi(PG_FUNCTION_ARGS) { return id_range_bound<T##_traits>(fcinfo, false); }      \
	PG_FUNCTION_INFO_V1(T##_first_at);                                                             \
	Datum T##_first_at(PG_FUNCTION_ARGS) { return id_first_at<T##_traits>(fcinfo); }               \
	PG_FUNCTION_INFO_V1(T##_starts_with_support);                                                  \
	Datum T##_starts_with_support(PG_FUNCTION_ARGS)                                                \
	{                                                                                              \
		return id_support<T##_traits, op_kind::starts_with>(fcinfo, #T "range");                  \
	}                                                                                              \
	PG_FUNCTION_INFO_V1(T##_contained_support);                                                    \
	Datum T##_contained_support(PG_FUNCTION_ARGS)                                                  \
	{                                                                                              \
		return id_support<T##_traits, op_kind::contained>(fcinfo, #T "range");                    \
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

IDT_RANGES(uid11)
IDT_RANGES(timeid)
IDT_RANGES(ulidflake)
IDT_RANGES(ulid)
IDT_RANGES(euid)

/*
 * The uid11 spec's prefix-aware xid parsing: the xid times of a uid11 prefix, '[ts_lo, ts_hi]' with
 * ts = epoch + (bound >> 22) ms; empty when the prefix lies beyond 2^64-1.
 */
PG_FUNCTION_INFO_V1(xid_prefix_time_range);
Datum
xid_prefix_time_range(PG_FUNCTION_ARGS)
{
	text *prefix = PG_GETARG_TEXT_PP(0);
	const idt::range64 r =
		checked_prefix<uid11_traits>(VARDATA_ANY(prefix), VARSIZE_ANY_EXHDR(prefix));
	TypeCacheEntry *typcache = result_range_typcache(fcinfo);
	if (r.empty)
		PG_RETURN_RANGE_P(make_empty_range(typcache));
	const auto at = [](std::uint64_t v) {
		return TimestampTzGetDatum(glue::unix_ms_to_timestamptz(
			idt::xid_epoch_ms + static_cast<std::int64_t>(idt::xid_ms(v))));
	};
	RangeBound lower = {at(r.lo), false, true, true};
	RangeBound upper = {at(r.hi), false, true, false};
	PG_RETURN_RANGE_P(idt_make_range(typcache, &lower, &upper));
}

} /* extern "C" */
