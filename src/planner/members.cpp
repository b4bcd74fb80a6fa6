/* members.cpp: the extension's own functions and types, found by OID through its membership and cached per backend. */
#include "planner/planner.h"

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "catalog/pg_depend.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/syscache.h"
}

extern "C" {
Datum uid11_in(PG_FUNCTION_ARGS);
Datum timeid_in(PG_FUNCTION_ARGS);
Datum ulidflake_in(PG_FUNCTION_ARGS);
Datum ulid_in(PG_FUNCTION_ARGS);
Datum euid_in(PG_FUNCTION_ARGS);
}

namespace planning
{

namespace
{

/*
 * What the planner puts into a rewritten clause must be our code, whatever the catalog holds:
 * a database may still have the 1.0 catalog under this library, and a role with CREATE on the
 * extension's schema can create functions of any name there. So nothing is looked up by name.
 * A helper is a member of the extension that owns the support function (pg_depend), written in
 * C with the expected symbol (only a superuser or the extension's own script can create a C
 * function), and with the expected arguments and result; a catalog that lacks it gets no rewrite.
 *
 * The members are read once per backend and read again after any change to pg_proc. A change
 * of membership alone (ALTER EXTENSION ADD or DROP) invalidates no cache: a member found is
 * checked against pg_depend each time it is handed out, and a symbol not found makes the list be
 * read again, once per transaction.
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

/* A small cache of Oid -> value that replaces its entries in turn once full. */
template <class V, int N>
struct small_cache
{
	int n, next;
	Oid key[N];
	V value[N];

	bool find(Oid k, V *v) const
	{
		for (int i = 0; i < n; i++)
			if (key[i] == k)
			{
				*v = value[i];
				return true;
			}
		return false;
	}

	void add(Oid k, V v)
	{
		const int slot = n < N ? n++ : next;
		next = (slot + 1) % N;
		key[slot] = k;
		value[slot] = v;
	}
};

struct member_cache
{
	bool valid;
	/* Bumped by every invalidation: a list read while one arrived is not kept. */
	std::uint64_t generation;
	/* The transaction that read the list (see xact_count). */
	std::uint64_t read_in;
	Oid extension;
	int n;
	member_fn *fns; /* in TopMemoryContext */
	/* Support function -> extension, the last few seen. */
	small_cache<Oid, 8> support_ext;
};

member_cache members = {};
/* Transactions ended in this backend. */
std::uint64_t xact_count = 0;

void
forget_members(Datum, idt_syscache_id, uint32)
{
	members.valid = false;
	members.generation++;
	members.support_ext.n = 0;
}

void
count_xact(XactEvent event, void *)
{
	if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_ABORT ||
		event == XACT_EVENT_PARALLEL_COMMIT || event == XACT_EVENT_PARALLEL_ABORT)
		xact_count++;
}

/* The extension that owns the support function, or InvalidOid. */
Oid
extension_of(Oid support_fn)
{
	static bool callback_registered = false;
	if (!callback_registered)
	{
		CacheRegisterSyscacheCallback(PROCOID, forget_members, (Datum) 0);
		RegisterXactCallback(count_xact, nullptr);
		callback_registered = true;
	}
	Oid ext;
	if (members.support_ext.find(support_fn, &ext))
		return ext;
	ext = getExtensionOfObject(ProcedureRelationId, support_fn);
	members.support_ext.add(support_fn, ext);
	return ext;
}

/* Read the C functions that are members of extension ext. */
void
load_members(Oid ext)
{
	const std::uint64_t generation = members.generation;
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
		/* A lookup that misses the cache takes a lock, and with it invalidations. */
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
	members.read_in = xact_count;
	/*
	 * The scan saw the catalog as of its start; an invalidation that arrived during it (an
	 * ALTER EXTENSION UPDATE committed meanwhile) may concern what it did not see. The list
	 * serves this lookup, and the next one reads it again.
	 */
	members.valid = members.generation == generation;
}

Oid
find_member(const char *symbol, int nargs, const Oid *args, Oid result, bool with_support)
{
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

} /* namespace */

Oid
member_function(Oid support_fn, const char *symbol, int nargs, const Oid *args, Oid result,
				bool with_support)
{
	const Oid ext = extension_of(support_fn);
	if (!OidIsValid(ext))
		return InvalidOid;
	if (!members.valid || members.extension != ext)
		load_members(ext);
	Oid fn = find_member(symbol, nargs, args, result, with_support);
	/* Added to the extension since the list was read? */
	if (!OidIsValid(fn) && members.read_in != xact_count)
	{
		load_members(ext);
		fn = find_member(symbol, nargs, args, result, with_support);
	}
	/* Dropped from it since? */
	if (OidIsValid(fn) && getExtensionOfObject(ProcedureRelationId, fn) != ext)
	{
		members.valid = false;
		return InvalidOid;
	}
	return fn;
}

bool
is_range_of(Oid rngtypid, Oid typid)
{
	if (!OidIsValid(rngtypid))
		return false;
	TypeCacheEntry *typcache = lookup_type_cache(rngtypid, TYPECACHE_RANGE_INFO);
	return typcache->rngelemtype != nullptr && typcache->rngelemtype->type_id == typid;
}

Oid
prefix_range_fn(Oid support_fn, const char *type_name, Oid typid)
{
	char symbol[NAMEDATALEN];
	snprintf(symbol, sizeof(symbol), "%s_prefix_range", type_name);
	const Oid text_arg = TEXTOID;
	const Oid fn = member_function(support_fn, symbol, 1, &text_arg, InvalidOid, false);
	return OidIsValid(fn) && is_range_of(get_func_rettype(fn), typid) ? fn : InvalidOid;
}

Oid
range_end_fn(Oid support_fn, const char *type_name, const char *suffix, Oid rngtypid, Oid typid)
{
	char symbol[NAMEDATALEN];
	snprintf(symbol, sizeof(symbol), "%srange%s", type_name, suffix);
	if (!is_range_of(rngtypid, typid))
		return InvalidOid;
	return member_function(support_fn, symbol, 1, &rngtypid, typid, false);
}

/* <type><suffix>(<type>, arg) -> bool, with or without planner support, or InvalidOid. */
static Oid
test_fn(Oid support_fn, const char *type_name, const char *suffix, Oid typid, Oid arg,
		bool with_support)
{
	char symbol[NAMEDATALEN];
	snprintf(symbol, sizeof(symbol), "%s%s", type_name, suffix);
	const Oid args[2] = {typid, arg};
	return member_function(support_fn, symbol, 2, args, BOOLOID, with_support);
}

Oid
recheck_fn(Oid support_fn, const char *type_name, Oid typid)
{
	return test_fn(support_fn, type_name, "_starts_with", typid, TEXTOID, false);
}

Oid
contained_fn(Oid support_fn, const char *type_name, Oid typid, Oid rngtypid)
{
	return test_fn(support_fn, type_name, "_contained", typid, rngtypid, true);
}

/* ---- which types are ours ------------------------------------------------------------------ */

namespace
{

small_cache<id_kind, 16> kinds = {};

void
forget_kinds(Datum, idt_syscache_id, uint32)
{
	kinds.n = 0;
}

} /* namespace */

/*
 * Which of our types typid is: its input function is one of ours (compared by address, after
 * checking it is a C function of that symbol, so no other library is loaded for the question)
 * and its storage is what our code reads.
 */
id_kind
kind_of(Oid typid)
{
	id_kind kind = id_kind::none;
	if (kinds.find(typid, &kind))
		return kind;
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
						by_value == (len == 8 && IDT_INT8_BYVAL))
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
	kinds.add(typid, kind);
	return kind;
}

} /* namespace planning */

/* For like.cpp (glue.h). */
Oid
idt_starts_with_fn(Oid support_fn, const char *type_name, Oid typid)
{
	return planning::test_fn(support_fn, type_name, "_starts_with", typid, TEXTOID, true);
}
