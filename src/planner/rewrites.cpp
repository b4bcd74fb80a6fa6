/* rewrites.cpp: simplifications: btree operators for partition pruning, <@ under row-level security, uuid cross-type comparisons. */
#include "planner/planner.h"

extern "C" {
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "catalog/pg_cast.h"
#include "catalog/pg_inherits.h"
#include "nodes/makefuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "parser/parsetree.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
}

namespace planning
{

namespace
{

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
		static bool visit(Node *node, void *arg)
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
		recheck = recheck_fn(support_fn, T::name, typid);
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
	const Oid prefix_range = prefix_range_fn(support_fn, T::name, typid);
	if (!OidIsValid(prefix_range) || exprType(prefix) != TEXTOID)
		return nullptr;
	const Oid rngtypid = get_func_rettype(prefix_range);
	const Oid contained = contained_fn(support_fn, T::name, typid, rngtypid);
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
	const Oid recheck = recheck_fn(support_fn, T::name, typid);
	if (!OidIsValid(recheck) || !duplicable(id))
		return nullptr;
	return reinterpret_cast<Node *>(
		makeBoolExpr(AND_EXPR,
					 list_make2(test, call2(recheck, static_cast<Node *>(copyObjectImpl(id)),
											static_cast<Node *>(copyObjectImpl(prefix)))),
					 -1));
}

/* The two arguments of the call to simplify; false if it has another number. */
bool
two_args(const SupportRequestSimplify *req, Node **left, Node **right)
{
	List *args = req->fcall->args;
	if (list_length(args) != 2)
		return false;
	*left = static_cast<Node *>(linitial(args));
	*right = static_cast<Node *>(lsecond(args));
	return true;
}

} /* namespace */

template <class T, op_kind K>
Node *
simplified(SupportRequestSimplify *req, Oid support_fn)
{
	Node *id, *rightop;
	if (!two_args(req, &id, &rightop))
		return nullptr;
	if (reads_table(id, req->root, true) && duplicable(id))
		return pruning_rewrite<T, K>(support_fn, id, rightop);
	if constexpr (K == op_kind::starts_with)
	{
		if (reads_table(id, req->root, false))
			return security_rewrite<T>(support_fn, id, rightop);
	}
	return nullptr;
}

namespace
{

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

} /* namespace */

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
	Node *left, *right;
	if (!two_args(req, &left, &right))
		return nullptr;
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

#define IDT_INSTANTIATE(T)                                                                         \
	template Node *simplified<T##_traits, op_kind::starts_with>(SupportRequestSimplify *, Oid);    \
	template Node *simplified<T##_traits, op_kind::contained>(SupportRequestSimplify *, Oid);
IDT_OPERATOR_TYPES(IDT_INSTANTIATE)

} /* namespace planning */
