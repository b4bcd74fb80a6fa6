/*
 * support.cpp: the SQL-callable planner support of ^@, <@ and the uuid cross-type operators; each
 * request is handed to the file that answers it.
 *
 * The idea: an ID made by a generator begins with its time, so "IDs with this prefix" and "IDs of
 * this time window" are each one contiguous run of the btree's order. The operators say so to the
 * planner through their support functions, the way like_support.c does for LIKE on text. Take
 *
 *     SELECT * FROM orders WHERE id ^@ '01M8971AS1';          -- id is a ulid with a btree index
 *
 * - SupportRequestIndexCondition (index_support.cpp): the clause becomes the index conditions
 *   id >= '01M8971AS10000000000000000' AND id <= '01M8971AS1ZZZZZZZZZZZZZZZZ', the prefix padded
 *   with the alphabet's first and last symbols; EXPLAIN shows them as "Index Cond".
 * - The RESTRICT estimator (id_restrict_sel, selectivity.cpp): the share of rows between those
 *   bounds, read from the column's histogram, and above it for rows added since ANALYZE
 *   (stats_hook.cpp and growth.cpp: the index's actual end, read once per planning run).
 * - SupportRequestSimplify (rewrites.cpp): a constant right side turned into the type's btree
 *   operators, so that partition pruning and row-level security see plain comparisons.
 * - SupportRequestSelectivity: the function form (ulid_starts_with(id, '01M8971AS1')) estimated
 *   as the operator is.
 *
 * Every function and operator these build is the extension's own, found by OID (members.cpp),
 * never by name.
 */
#include "planner/planner.h"

extern "C" {
#include "access/stratnum.h"
}

namespace
{

using namespace planning;

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

/*
 * The fmgr entry points, each named after its SQL object: per type (core's uuid too), the planner
 * support functions and RESTRICT estimators of ^@ and <@; then the support functions of the
 * comparisons of ulid and euid with uuid.
 */
extern "C" {

/* ---- uid11 ----------------------------------------------------------------------------------- */

PG_FUNCTION_INFO_V1(uid11_starts_with_support);
Datum
uid11_starts_with_support(PG_FUNCTION_ARGS)
{
	return id_support<uid11_traits, op_kind::starts_with>(fcinfo);
}

PG_FUNCTION_INFO_V1(uid11_contained_support);
Datum
uid11_contained_support(PG_FUNCTION_ARGS)
{
	return id_support<uid11_traits, op_kind::contained>(fcinfo);
}

PG_FUNCTION_INFO_V1(uid11_starts_with_sel);
Datum
uid11_starts_with_sel(PG_FUNCTION_ARGS)
{
	return id_restrict_sel<uid11_traits, op_kind::starts_with>(fcinfo);
}

PG_FUNCTION_INFO_V1(uid11_contained_sel);
Datum
uid11_contained_sel(PG_FUNCTION_ARGS)
{
	return id_restrict_sel<uid11_traits, op_kind::contained>(fcinfo);
}

/* ---- timeid ---------------------------------------------------------------------------------- */

PG_FUNCTION_INFO_V1(timeid_starts_with_support);
Datum
timeid_starts_with_support(PG_FUNCTION_ARGS)
{
	return id_support<timeid_traits, op_kind::starts_with>(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_contained_support);
Datum
timeid_contained_support(PG_FUNCTION_ARGS)
{
	return id_support<timeid_traits, op_kind::contained>(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_starts_with_sel);
Datum
timeid_starts_with_sel(PG_FUNCTION_ARGS)
{
	return id_restrict_sel<timeid_traits, op_kind::starts_with>(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_contained_sel);
Datum
timeid_contained_sel(PG_FUNCTION_ARGS)
{
	return id_restrict_sel<timeid_traits, op_kind::contained>(fcinfo);
}

/* ---- ulidflake ------------------------------------------------------------------------------- */

PG_FUNCTION_INFO_V1(ulidflake_starts_with_support);
Datum
ulidflake_starts_with_support(PG_FUNCTION_ARGS)
{
	return id_support<ulidflake_traits, op_kind::starts_with>(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_contained_support);
Datum
ulidflake_contained_support(PG_FUNCTION_ARGS)
{
	return id_support<ulidflake_traits, op_kind::contained>(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_starts_with_sel);
Datum
ulidflake_starts_with_sel(PG_FUNCTION_ARGS)
{
	return id_restrict_sel<ulidflake_traits, op_kind::starts_with>(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_contained_sel);
Datum
ulidflake_contained_sel(PG_FUNCTION_ARGS)
{
	return id_restrict_sel<ulidflake_traits, op_kind::contained>(fcinfo);
}

/* ---- ulid ------------------------------------------------------------------------------------ */

PG_FUNCTION_INFO_V1(ulid_starts_with_support);
Datum
ulid_starts_with_support(PG_FUNCTION_ARGS)
{
	return id_support<ulid_traits, op_kind::starts_with>(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_contained_support);
Datum
ulid_contained_support(PG_FUNCTION_ARGS)
{
	return id_support<ulid_traits, op_kind::contained>(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_starts_with_sel);
Datum
ulid_starts_with_sel(PG_FUNCTION_ARGS)
{
	return id_restrict_sel<ulid_traits, op_kind::starts_with>(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_contained_sel);
Datum
ulid_contained_sel(PG_FUNCTION_ARGS)
{
	return id_restrict_sel<ulid_traits, op_kind::contained>(fcinfo);
}

/* ---- euid ------------------------------------------------------------------------------------ */

PG_FUNCTION_INFO_V1(euid_starts_with_support);
Datum
euid_starts_with_support(PG_FUNCTION_ARGS)
{
	return id_support<euid_traits, op_kind::starts_with>(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_contained_support);
Datum
euid_contained_support(PG_FUNCTION_ARGS)
{
	return id_support<euid_traits, op_kind::contained>(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_starts_with_sel);
Datum
euid_starts_with_sel(PG_FUNCTION_ARGS)
{
	return id_restrict_sel<euid_traits, op_kind::starts_with>(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_contained_sel);
Datum
euid_contained_sel(PG_FUNCTION_ARGS)
{
	return id_restrict_sel<euid_traits, op_kind::contained>(fcinfo);
}

/* ---- uuid ------------------------------------------------------------------------------------ */

PG_FUNCTION_INFO_V1(uuid_starts_with_support);
Datum
uuid_starts_with_support(PG_FUNCTION_ARGS)
{
	return id_support<uuid_traits, op_kind::starts_with>(fcinfo);
}

PG_FUNCTION_INFO_V1(uuid_contained_support);
Datum
uuid_contained_support(PG_FUNCTION_ARGS)
{
	return id_support<uuid_traits, op_kind::contained>(fcinfo);
}

PG_FUNCTION_INFO_V1(uuid_starts_with_sel);
Datum
uuid_starts_with_sel(PG_FUNCTION_ARGS)
{
	return id_restrict_sel<uuid_traits, op_kind::starts_with>(fcinfo);
}

PG_FUNCTION_INFO_V1(uuid_contained_sel);
Datum
uuid_contained_sel(PG_FUNCTION_ARGS)
{
	return id_restrict_sel<uuid_traits, op_kind::contained>(fcinfo);
}

/* ---- uuid cross-type comparisons ------------------------------------------------------------- */

/* The comparisons of ulid and euid with uuid, both ways: one support function per strategy. */
PG_FUNCTION_INFO_V1(uuid_cross_eq_support);
Datum
uuid_cross_eq_support(PG_FUNCTION_ARGS)
{
	return uuid_cross_support(fcinfo, BTEqualStrategyNumber);
}

PG_FUNCTION_INFO_V1(uuid_cross_ne_support);
Datum
uuid_cross_ne_support(PG_FUNCTION_ARGS)
{
	return uuid_cross_support(fcinfo, 0);
}

PG_FUNCTION_INFO_V1(uuid_cross_lt_support);
Datum
uuid_cross_lt_support(PG_FUNCTION_ARGS)
{
	return uuid_cross_support(fcinfo, BTLessStrategyNumber);
}

PG_FUNCTION_INFO_V1(uuid_cross_le_support);
Datum
uuid_cross_le_support(PG_FUNCTION_ARGS)
{
	return uuid_cross_support(fcinfo, BTLessEqualStrategyNumber);
}

PG_FUNCTION_INFO_V1(uuid_cross_gt_support);
Datum
uuid_cross_gt_support(PG_FUNCTION_ARGS)
{
	return uuid_cross_support(fcinfo, BTGreaterStrategyNumber);
}

PG_FUNCTION_INFO_V1(uuid_cross_ge_support);
Datum
uuid_cross_ge_support(PG_FUNCTION_ARGS)
{
	return uuid_cross_support(fcinfo, BTGreaterEqualStrategyNumber);
}

} /* extern "C" */
