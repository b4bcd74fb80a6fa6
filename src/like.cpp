/* like.cpp: LIKE, NOT LIKE, ILIKE and NOT ILIKE on the ID types, with the planner support that turns a prefix pattern into ^@. */
#include "glue.h"
#include "traits.h"
#include "values.h"

extern "C" {
#include "catalog/pg_collation.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "optimizer/optimizer.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"
#include "utils/syscache.h"
}

namespace
{

/* ---- the operators ------------------------------------------------------------------------ */

/*
 * The ID's canonical text, then core's text LIKE with the operator's collation: the rows are
 * those of id::text LIKE p for every pattern, escapes and errors included.
 */
template <class T>
Datum
id_like(FunctionCallInfo fcinfo, PGFunction text_fn)
{
	text *t = static_cast<text *>(palloc(VARHDRSZ + T::text_len));
	SET_VARSIZE(t, VARHDRSZ + T::text_len);
	T::format(glue::id_from_datum<typename T::value_type>(PG_GETARG_DATUM(0)), VARDATA(t));
	return DirectFunctionCall2Coll(text_fn, PG_GET_COLLATION(), PointerGetDatum(t),
								   PG_GETARG_DATUM(1));
}

/* ---- prefix patterns ---------------------------------------------------------------------- */

/*
 * The symbols of each type's canonical text, and its case: LIKE compares that text, so a
 * pattern's prefix selects IDs only where it is made of these symbols (no lower case where the
 * text is upper case, no aliases, no timeid display dashes). ILIKE folds the prefix's ASCII
 * letters to the text's case where the text has one case; uid11's Base58 has both.
 */
enum class letter_case
{
	mixed,
	upper,
	lower,
};

constexpr const char crockford[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

template <class T>
struct canonical;
template <>
struct canonical<uid11_traits>
{
	static constexpr const char *symbols =
		"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
	static constexpr letter_case text_case = letter_case::mixed;
};
template <>
struct canonical<timeid_traits>
{
	static constexpr const char *symbols = "234567abcdefghijklmnopqrstuvwxyz";
	static constexpr letter_case text_case = letter_case::lower;
};
template <>
struct canonical<ulidflake_traits>
{
	static constexpr const char *symbols = crockford;
	static constexpr letter_case text_case = letter_case::upper;
};
template <>
struct canonical<ulid_traits>
{
	static constexpr const char *symbols = crockford;
	static constexpr letter_case text_case = letter_case::upper;
};
template <>
struct canonical<euid_traits>
{
	static constexpr const char *symbols = crockford;
	static constexpr letter_case text_case = letter_case::upper;
};

enum class prefix_kind
{
	none,      /* not a literal prefix followed by %: the operator stays */
	empty,     /* no ID's text starts with the prefix */
	canonical, /* the prefix is canonical text: id ^@ prefix */
};

/*
 * Reads a pattern (escape character \, as like_escape() leaves every pattern) of the form
 * "literal%" (one or more trailing %, escaped characters literal) into prefix, folded for ILIKE.
 * The prefix may be longer than the text (then it selects nothing), so the buffer is the
 * pattern's length. A pattern ending in a lone escape is left to the operator, which reports it.
 */
template <class T, bool IC>
prefix_kind
pattern_prefix(const char *p, std::size_t len, char *prefix, std::size_t *n)
{
	std::size_t i = 0;
	*n = 0;
	for (; i < len && p[i] != '%'; i++)
	{
		if (p[i] == '_')
			return prefix_kind::none;
		if (p[i] == '\\' && ++i == len)
			return prefix_kind::none;
		prefix[(*n)++] = p[i];
	}
	if (i == len)
		return prefix_kind::none; /* no %: a whole-text match */
	for (; i < len; i++)
		if (p[i] != '%')
			return prefix_kind::none;

	bool is_canonical = *n <= T::text_len;
	for (std::size_t k = 0; k < *n; k++)
	{
		char c = prefix[k];
		if constexpr (IC)
		{
			/*
			 * lower() of a non-ASCII character may be an ASCII letter (the Kelvin sign is k), and
			 * Turkish locales lower I to dotless i: those are left to the operator.
			 */
			if (static_cast<unsigned char>(c) >= 0x80)
				return prefix_kind::none;
			if (canonical<T>::text_case == letter_case::mixed)
				return prefix_kind::none;
			if (canonical<T>::text_case == letter_case::lower && c == 'I')
				return prefix_kind::none;
			if (canonical<T>::text_case == letter_case::upper && c >= 'a' && c <= 'z')
				c = static_cast<char>(c - 'a' + 'A');
			if (canonical<T>::text_case == letter_case::lower && c >= 'A' && c <= 'Z')
				c = static_cast<char>(c - 'A' + 'a');
			prefix[k] = c;
		}
		if (c == '\0' || std::strchr(canonical<T>::symbols, c) == nullptr)
			is_canonical = false;
	}
	if (!is_canonical)
		return prefix_kind::empty;
	/* Canonical symbols: an error can only be a full-length euid with another check symbol. */
	const typename T::range_type r = T::prefix(prefix, *n);
	return r.error != idt::errc::ok || r.empty ? prefix_kind::empty : prefix_kind::canonical;
}

/* ---- the rewrite -------------------------------------------------------------------------- */

/*
 * "fn(id, right)" as the planner would simplify it: passed through fn's own support function
 * (which rewrites it for partition pruning or row-level security), else the call itself, which
 * fn's support turns into an index condition and estimates as its operator.
 */
Node *
simplified_call(SupportRequestSimplify *like_req, Oid fn, Node *id, Node *right)
{
	/* The input collation is the text argument's, as the parser would make it. */
	FuncExpr *call = makeFuncExpr(fn, BOOLOID, list_make2(id, right), InvalidOid,
								  exprCollation(right), COERCE_EXPLICIT_CALL);
	call->location = like_req->fcall->location;
	SupportRequestSimplify req = *like_req;
	req.fcall = call;
	Node *rewritten = reinterpret_cast<Node *>(
		DatumGetPointer(OidFunctionCall1(get_func_support(fn), PointerGetDatum(&req))));
	return rewritten != nullptr ? rewritten : reinterpret_cast<Node *>(call);
}

/*
 * "id LIKE 'P%'" (and ILIKE where the text has one case) when the planner folds constants: with
 * P canonical text, it is "id ^@ P" for every id (both are exact, and NULL for a NULL id), and
 * ^@'s support gives the index range, the estimate, partition pruning and the row-level
 * security rewrite; with P no canonical text starts with, it is false (NULL for a NULL id).
 * Only under a deterministic collation (a nondeterministic one may match other text), and only for a
 * constant pattern: a parameter is one in a custom plan, where the planner has folded it.
 */
template <class T, bool IC>
Node *
like_simplified(SupportRequestSimplify *req, Oid support_fn)
{
	List *args = req->fcall->args;
	const Oid coll = req->fcall->inputcollid;
	if (list_length(args) != 2 || !OidIsValid(coll) || !get_collation_isdeterministic(coll))
		return nullptr;
	Node *id = static_cast<Node *>(linitial(args));
	Node *pattern = static_cast<Node *>(lsecond(args));
	if (!IsA(pattern, Const))
		return nullptr;
	const Const *c = reinterpret_cast<const Const *>(pattern);
	if (c->constisnull || c->consttype != TEXTOID)
		return nullptr;
	text *p = DatumGetTextPP(c->constvalue);
	const std::size_t len = VARSIZE_ANY_EXHDR(p);
	char *prefix = static_cast<char *>(palloc(len + 1));
	std::size_t n;
	const prefix_kind kind = pattern_prefix<T, IC>(VARDATA_ANY(p), len, prefix, &n);
	const Oid typid = exprType(id);
	if (kind == prefix_kind::canonical)
	{
		const Oid starts_with = idt_starts_with_fn(support_fn, T::name, typid);
		if (!OidIsValid(starts_with))
			return nullptr;
		Node *right = reinterpret_cast<Node *>(makeConst(
			TEXTOID, -1, DEFAULT_COLLATION_OID, -1,
			PointerGetDatum(cstring_to_text_with_len(prefix, static_cast<int>(n))), false, false));
		return simplified_call(req, starts_with, id, right);
	}
	if (kind == prefix_kind::empty)
	{
		/*
		 * False for every id and NULL for a NULL id, as "NULL AND id IS NULL": in a WHERE
		 * clause the planner reads the NULL as a false one-time filter, and scans nothing.
		 */
		NullTest *is_null = makeNode(NullTest);
		is_null->arg = reinterpret_cast<Expr *>(id);
		is_null->nulltesttype = IS_NULL;
		is_null->argisrow = false;
		is_null->location = -1;
		return reinterpret_cast<Node *>(makeBoolExpr(
			AND_EXPR, list_make2(makeBoolConst(false, true), is_null), req->fcall->location));
	}
	return nullptr;
}

template <class T, bool IC>
Datum
like_support(FunctionCallInfo fcinfo)
{
	Node *rawreq = reinterpret_cast<Node *>(PG_GETARG_POINTER(0));
	if (IsA(rawreq, SupportRequestSimplify))
	{
		Node *rewritten = like_simplified<T, IC>(reinterpret_cast<SupportRequestSimplify *>(rawreq),
												 fcinfo->flinfo->fn_oid);
		PG_RETURN_POINTER(rewritten);
	}
	return (Datum) 0;
}

/*
 * RESTRICT estimator of the four operators (what the rewrite leaves: patterns that are not a
 * prefix, NOT LIKE, a parameter in a generic plan): the operator itself applied to the column's
 * most common values and histogram (core's generic_restriction_selectivity, as core's LIKE
 * estimator does with a histogram of 100 entries or more), else core's default for LIKE.
 * Core's likesel cannot serve: it reads only text, name, bpchar and bytea columns.
 */
Datum
like_sel(FunctionCallInfo fcinfo, double default_selectivity)
{
	PlannerInfo *root = reinterpret_cast<PlannerInfo *>(PG_GETARG_POINTER(0));
	const Oid opno = PG_GETARG_OID(1);
	List *args = reinterpret_cast<List *>(PG_GETARG_POINTER(2));
	const int varRelid = PG_GETARG_INT32(3);
	const double sel = generic_restriction_selectivity(root, opno, PG_GET_COLLATION(), args,
													   varRelid, default_selectivity);
	PG_RETURN_FLOAT8(sel);
}

} /* namespace */

/*
 * The fmgr entry points, each named after its SQL object, one block per type: LIKE, NOT LIKE,
 * ILIKE and NOT ILIKE, then the planner support of LIKE and ILIKE (calls of the templates above);
 * then the estimators the five types share.
 */
extern "C" {

/* ---- uid11 ----------------------------------------------------------------------------------- */

PG_FUNCTION_INFO_V1(uid11_like);
Datum
uid11_like(PG_FUNCTION_ARGS)
{
	return id_like<uid11_traits>(fcinfo, textlike);
}

PG_FUNCTION_INFO_V1(uid11_not_like);
Datum
uid11_not_like(PG_FUNCTION_ARGS)
{
	return id_like<uid11_traits>(fcinfo, textnlike);
}

PG_FUNCTION_INFO_V1(uid11_ilike);
Datum
uid11_ilike(PG_FUNCTION_ARGS)
{
	return id_like<uid11_traits>(fcinfo, texticlike);
}

PG_FUNCTION_INFO_V1(uid11_not_ilike);
Datum
uid11_not_ilike(PG_FUNCTION_ARGS)
{
	return id_like<uid11_traits>(fcinfo, texticnlike);
}

PG_FUNCTION_INFO_V1(uid11_like_support);
Datum
uid11_like_support(PG_FUNCTION_ARGS)
{
	return like_support<uid11_traits, false>(fcinfo);
}

PG_FUNCTION_INFO_V1(uid11_ilike_support);
Datum
uid11_ilike_support(PG_FUNCTION_ARGS)
{
	return like_support<uid11_traits, true>(fcinfo);
}

/* ---- timeid ---------------------------------------------------------------------------------- */

PG_FUNCTION_INFO_V1(timeid_like);
Datum
timeid_like(PG_FUNCTION_ARGS)
{
	return id_like<timeid_traits>(fcinfo, textlike);
}

PG_FUNCTION_INFO_V1(timeid_not_like);
Datum
timeid_not_like(PG_FUNCTION_ARGS)
{
	return id_like<timeid_traits>(fcinfo, textnlike);
}

PG_FUNCTION_INFO_V1(timeid_ilike);
Datum
timeid_ilike(PG_FUNCTION_ARGS)
{
	return id_like<timeid_traits>(fcinfo, texticlike);
}

PG_FUNCTION_INFO_V1(timeid_not_ilike);
Datum
timeid_not_ilike(PG_FUNCTION_ARGS)
{
	return id_like<timeid_traits>(fcinfo, texticnlike);
}

PG_FUNCTION_INFO_V1(timeid_like_support);
Datum
timeid_like_support(PG_FUNCTION_ARGS)
{
	return like_support<timeid_traits, false>(fcinfo);
}

PG_FUNCTION_INFO_V1(timeid_ilike_support);
Datum
timeid_ilike_support(PG_FUNCTION_ARGS)
{
	return like_support<timeid_traits, true>(fcinfo);
}

/* ---- ulidflake ------------------------------------------------------------------------------- */

PG_FUNCTION_INFO_V1(ulidflake_like);
Datum
ulidflake_like(PG_FUNCTION_ARGS)
{
	return id_like<ulidflake_traits>(fcinfo, textlike);
}

PG_FUNCTION_INFO_V1(ulidflake_not_like);
Datum
ulidflake_not_like(PG_FUNCTION_ARGS)
{
	return id_like<ulidflake_traits>(fcinfo, textnlike);
}

PG_FUNCTION_INFO_V1(ulidflake_ilike);
Datum
ulidflake_ilike(PG_FUNCTION_ARGS)
{
	return id_like<ulidflake_traits>(fcinfo, texticlike);
}

PG_FUNCTION_INFO_V1(ulidflake_not_ilike);
Datum
ulidflake_not_ilike(PG_FUNCTION_ARGS)
{
	return id_like<ulidflake_traits>(fcinfo, texticnlike);
}

PG_FUNCTION_INFO_V1(ulidflake_like_support);
Datum
ulidflake_like_support(PG_FUNCTION_ARGS)
{
	return like_support<ulidflake_traits, false>(fcinfo);
}

PG_FUNCTION_INFO_V1(ulidflake_ilike_support);
Datum
ulidflake_ilike_support(PG_FUNCTION_ARGS)
{
	return like_support<ulidflake_traits, true>(fcinfo);
}

/* ---- ulid ------------------------------------------------------------------------------------ */

PG_FUNCTION_INFO_V1(ulid_like);
Datum
ulid_like(PG_FUNCTION_ARGS)
{
	return id_like<ulid_traits>(fcinfo, textlike);
}

PG_FUNCTION_INFO_V1(ulid_not_like);
Datum
ulid_not_like(PG_FUNCTION_ARGS)
{
	return id_like<ulid_traits>(fcinfo, textnlike);
}

PG_FUNCTION_INFO_V1(ulid_ilike);
Datum
ulid_ilike(PG_FUNCTION_ARGS)
{
	return id_like<ulid_traits>(fcinfo, texticlike);
}

PG_FUNCTION_INFO_V1(ulid_not_ilike);
Datum
ulid_not_ilike(PG_FUNCTION_ARGS)
{
	return id_like<ulid_traits>(fcinfo, texticnlike);
}

PG_FUNCTION_INFO_V1(ulid_like_support);
Datum
ulid_like_support(PG_FUNCTION_ARGS)
{
	return like_support<ulid_traits, false>(fcinfo);
}

PG_FUNCTION_INFO_V1(ulid_ilike_support);
Datum
ulid_ilike_support(PG_FUNCTION_ARGS)
{
	return like_support<ulid_traits, true>(fcinfo);
}

/* ---- euid ------------------------------------------------------------------------------------ */

PG_FUNCTION_INFO_V1(euid_like);
Datum
euid_like(PG_FUNCTION_ARGS)
{
	return id_like<euid_traits>(fcinfo, textlike);
}

PG_FUNCTION_INFO_V1(euid_not_like);
Datum
euid_not_like(PG_FUNCTION_ARGS)
{
	return id_like<euid_traits>(fcinfo, textnlike);
}

PG_FUNCTION_INFO_V1(euid_ilike);
Datum
euid_ilike(PG_FUNCTION_ARGS)
{
	return id_like<euid_traits>(fcinfo, texticlike);
}

PG_FUNCTION_INFO_V1(euid_not_ilike);
Datum
euid_not_ilike(PG_FUNCTION_ARGS)
{
	return id_like<euid_traits>(fcinfo, texticnlike);
}

PG_FUNCTION_INFO_V1(euid_like_support);
Datum
euid_like_support(PG_FUNCTION_ARGS)
{
	return like_support<euid_traits, false>(fcinfo);
}

PG_FUNCTION_INFO_V1(euid_ilike_support);
Datum
euid_ilike_support(PG_FUNCTION_ARGS)
{
	return like_support<euid_traits, true>(fcinfo);
}

/* ---- the RESTRICT estimators, for every type ------------------------------------------------- */

PG_FUNCTION_INFO_V1(idtypes_like_sel);
Datum
idtypes_like_sel(PG_FUNCTION_ARGS)
{
	return like_sel(fcinfo, DEFAULT_MATCH_SEL);
}

PG_FUNCTION_INFO_V1(idtypes_not_like_sel);
Datum
idtypes_not_like_sel(PG_FUNCTION_ARGS)
{
	return like_sel(fcinfo, 1.0 - DEFAULT_MATCH_SEL);
}

} /* extern "C" */
