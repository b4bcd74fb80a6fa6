/*
 * index_support.cpp: ^@ and <@ as the btree (and BRIN) index conditions "id >= lo AND id <= hi".
 *
 * For a prefix, lo and hi are the prefix padded to the full text with the alphabet's first and
 * last symbols: on ulid, ^@ '01M8971AS1' gives '01M8971AS10000000000000000' and
 * '01M8971AS1ZZZZZZZZZZZZZZZZ'. For a range, they are its first and last values: <@
 * ulid_time_range(tstzrange(a, b)) gives the first ULID of a's millisecond and the last one
 * before b's. A constant right side gives constants; a parameter or another value fixed during
 * the scan gives calls of <type>range_first/last() evaluated at scan start, so a generic plan
 * keeps its index range.
 */
#include "planner/planner.h"

extern "C" {
#include "access/stratnum.h"
#include "nodes/makefuncs.h"
#include "optimizer/optimizer.h"
#include "optimizer/paths.h"
#include "utils/lsyscache.h"
}

namespace planning
{

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

#define IDT_INSTANTIATE(T)                                                                         \
	template List *index_conditions<T##_traits, op_kind::starts_with>(                             \
		SupportRequestIndexCondition *, Oid);                                                      \
	template List *index_conditions<T##_traits, op_kind::contained>(                               \
		SupportRequestIndexCondition *, Oid);
IDT_OPERATOR_TYPES(IDT_INSTANTIATE)

} /* namespace planning */
