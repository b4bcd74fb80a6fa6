/* support.cpp: the SQL-callable planner support of ^@, <@ and the uuid cross-type operators: each request handed to its file. */
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
IDT_PLANNER(uuid)

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
