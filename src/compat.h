/* compat.h: the PostgreSQL headers every glue file needs, with C linkage, and version shims. */
#ifndef IDTYPES_COMPAT_H
#define IDTYPES_COMPAT_H

/*
 * Include this after any C++ standard header (port.h redefines snprintf and friends) and before
 * any other PostgreSQL header; wrap those in extern "C" too, or their symbols get C++ names
 * ("undefined symbol: _Z8psprintfPKcz").
 *
 * PG_MODULE_MAGIC, each fmgr function and its PG_FUNCTION_INFO_V1 need C linkage as well.
 * The library is built with hidden symbol visibility (the Makefile, on every server: PostgreSQL
 * 16+ does so for modules itself), so that its calls between files and its globals need no PLT
 * or GOT and its functions can be inlined where they are defined. What the server looks up is
 * exported by PGDLLEXPORT, which c.h leaves empty before 16 unless it is defined: it is defined
 * here as 16's c.h defines it, and PG_FUNCTION_INFO_V1 below exports the fmgr function as well as
 * its info function, as 16's does (15's exported only the latter). PG 13-15's fmgr.h does not
 * declare _PG_init, so a module initializer is declared by hand as
 *     extern "C" PGDLLEXPORT void _PG_init(void);
 */
#ifndef PGDLLEXPORT
#define PGDLLEXPORT __attribute__((visibility("default")))
#endif
extern "C" {
#include "postgres.h"
#include "fmgr.h"
#if PG_VERSION_NUM >= 160000
#include "nodes/miscnodes.h"
#include "varatt.h" /* SET_VARSIZE and friends left postgres.h in 16 */
#endif
}

#if PG_VERSION_NUM < 160000
#undef PG_FUNCTION_INFO_V1
#define PG_FUNCTION_INFO_V1(funcname)                                                              \
	extern PGDLLEXPORT Datum funcname(PG_FUNCTION_ARGS);                                           \
	extern PGDLLEXPORT const Pg_finfo_record *CppConcat(pg_finfo_, funcname)(void);                \
	const Pg_finfo_record *CppConcat(pg_finfo_, funcname)(void)                                    \
	{                                                                                              \
		static const Pg_finfo_record my_finfo = {1};                                               \
		return &my_finfo;                                                                          \
	}                                                                                              \
	extern int no_such_variable
#endif

#if PG_VERSION_NUM < 160000
/*
 * Soft input errors (PostgreSQL 16): an input function reports a bad value with
 * ereturn(fcinfo->context, (Datum) 0, errcode(...), errmsg(...)), so that pg_input_is_valid()
 * and COPY ... ON_ERROR can catch it. Before 16 there is no soft error: it is a plain ERROR.
 */
#define errsave(context, ...) ereport(ERROR, __VA_ARGS__)
#define ereturn(context, dummy_value, ...)                                                         \
	do                                                                                             \
	{                                                                                              \
		(void) (context);                                                                          \
		ereport(ERROR, __VA_ARGS__);                                                               \
		return dummy_value;                                                                        \
	} while (0)
#define SOFT_ERROR_OCCURRED(escontext) false
#endif

/*
 * This backend's slot among live backends: unique while it runs (0-based). PostgreSQL 17
 * renamed BackendId (1-based) to ProcNumber (0-based). The session's slot is the same but in a
 * parallel worker, where it is its leader's (as for the session's temporary relations).
 */
#if PG_VERSION_NUM >= 170000
extern "C" {
#include "storage/procnumber.h"
}
#define IDT_BACKEND_SLOT() ((int) MyProcNumber)
#define IDT_SESSION_SLOT() ((int) ProcNumberForTempRelations())
#else
extern "C" {
#include "storage/backendid.h"
}
#define IDT_BACKEND_SLOT() ((int) MyBackendId - 1)
#define IDT_SESSION_SLOT() ((int) BackendIdForTempRelations() - 1)
#endif

/*
 * PostgreSQL 18: the magic block can carry the module's name and version, which
 * pg_get_loaded_modules() shows.
 */
#if PG_VERSION_NUM >= 180000
#define IDT_MODULE_MAGIC(name_, version_)                                                          \
	PG_MODULE_MAGIC_EXT(.name = (name_), .version = (version_))
#else
#define IDT_MODULE_MAGIC(name_, version_) PG_MODULE_MAGIC
#endif

/*
 * make_range() (utils/rangetypes.h) took a soft-error context as a fifth argument in
 * PostgreSQL 16. NULL there means a plain ERROR, as before.
 */
#if PG_VERSION_NUM >= 160000
#define idt_make_range(typcache, lower, upper) make_range((typcache), (lower), (upper), false, NULL)
#else
#define idt_make_range(typcache, lower, upper) make_range((typcache), (lower), (upper), false)
#endif

/*
 * PostgreSQL 17: the DSM registry (storage/dsm_registry.h) gives a library loaded on first use
 * shared memory of its own, so the generators' state is cluster-wide without
 * shared_preload_libraries.
 */
#define IDT_HAVE_DSM_REGISTRY (PG_VERSION_NUM >= 170000)

/*
 * GetNamedDSMSegment's init callback takes a second argument, handed through from a new last
 * parameter, in PostgreSQL 19. idt_get_named_dsm_segment takes a one-argument callback everywhere.
 */
#if PG_VERSION_NUM >= 190000
#define idt_get_named_dsm_segment(name, size, init, found)                                         \
	GetNamedDSMSegment((name), (size), [](void *ptr, void *) { (init)(ptr); }, (found), nullptr)
#else
#define idt_get_named_dsm_segment(name, size, init, found)                                         \
	GetNamedDSMSegment((name), (size), (init), (found))
#endif

/*
 * PostgreSQL 15: sort support comparators for Datums compared as unsigned integers
 * (ssup_datum_unsigned_cmp), which let the sort use its specialised quicksort.
 */
#define IDT_HAVE_SSUP_DATUM_CMP (PG_VERSION_NUM >= 150000)

/*
 * int8, and the 64-bit types declared LIKE it, pass by value where Datum has 8 bytes: on 64-bit
 * platforms, and on every platform from PostgreSQL 19 on. On a 32-bit platform 15-18 pass them by
 * reference, and a comparator of Datums as integers would compare pointers.
 */
#define IDT_INT8_BYVAL (SIZEOF_DATUM == 8)

/*
 * PostgreSQL 17: wait events of an extension's own name (WaitEventExtensionNew); before, one
 * shared "Extension" event (PG_WAIT_EXTENSION).
 */
#define IDT_HAVE_CUSTOM_WAIT_EVENTS (PG_VERSION_NUM >= 170000)

/* PostgreSQL 18: btree skip support (utils/skipsupport.h), btree support function 6. */
#define IDT_HAVE_SKIP_SUPPORT (PG_VERSION_NUM >= 180000)

/*
 * PostgreSQL 18: uuidv7(), uuidv7(interval), and uuid_extract_timestamp() reading version 7
 * (17 has uuid_extract_timestamp() and uuid_extract_version() for version 1 only). From 18 on,
 * idtypes_uuidv7's functions call core's (utils/fmgrprotos.h).
 */
#define IDT_CORE_HAS_UUIDV7 (PG_VERSION_NUM >= 180000)

/* PostgreSQL 17: infinite intervals. */
#if PG_VERSION_NUM >= 170000
#define idt_interval_is_finite(i) (!INTERVAL_NOT_FINITE(i))
#else
#define idt_interval_is_finite(i) ((void) (i), true)
#endif

/*
 * expression_tree_walker() (nodes/nodeFuncs.h) took an untyped bool (*)() walker before
 * PostgreSQL 16, which C++ reaches only through void (*)() without -Wcast-function-type; 16 made
 * it a macro over a typed callback, bool (*)(Node *, void *).
 */
#if PG_VERSION_NUM >= 160000
#define idt_expression_tree_walker(node, walker, context)                                          \
	expression_tree_walker((node), (walker), (context))
#else
#define idt_expression_tree_walker(node, walker, context)                                          \
	expression_tree_walker(                                                                        \
		(node), reinterpret_cast<bool (*)()>(reinterpret_cast<void (*)()>(walker)), (context))
#endif

/*
 * index_beginscan() took instrumentation in PostgreSQL 18 and scan flags in 19. An index scan of
 * the planner's own (the actual extremes of a column) wants neither.
 */
#if PG_VERSION_NUM >= 190000
#define idt_index_beginscan(heap, index, snapshot, nkeys)                                          \
	index_beginscan((heap), (index), (snapshot), NULL, (nkeys), 0, SO_NONE)
#elif PG_VERSION_NUM >= 180000
#define idt_index_beginscan(heap, index, snapshot, nkeys)                                          \
	index_beginscan((heap), (index), (snapshot), NULL, (nkeys), 0)
#else
#define idt_index_beginscan(heap, index, snapshot, nkeys)                                          \
	index_beginscan((heap), (index), (snapshot), (nkeys), 0)
#endif

/*
 * A syscache invalidation callback's second argument became enum SysCacheIdentifier in
 * PostgreSQL 19 (an int before).
 */
#if PG_VERSION_NUM >= 190000
extern "C" {
#include "utils/syscache.h"
}
typedef SysCacheIdentifier idt_syscache_id;
#else
typedef int idt_syscache_id;
#endif

/*
 * all_rows_selectable() (utils/selfuncs.h): whether the user may read every row of a column the
 * planner takes statistics from, as core decides for its own lookups. Minor releases added it
 * (15.14, 16.10, 17.6; 18 has it), so whether the server has it is a question for the running
 * server, not for the headers: it is declared here, whatever the headers say, as a weak
 * reference, which the loader leaves NULL on a server without it (then the statistics hook that
 * needs it stays off, and everything else works). IDT_ALL_ROWS_SELECTABLE_SYMBOL names another
 * symbol, for the test of such a server (test/scripts/minor_release.sh).
 */
#ifndef IDT_ALL_ROWS_SELECTABLE_SYMBOL
#define IDT_ALL_ROWS_SELECTABLE_SYMBOL "all_rows_selectable"
#endif
extern "C" bool
idt_all_rows_selectable(struct PlannerInfo *root, Index varno,
						struct Bitmapset *varattnos) __asm__(IDT_ALL_ROWS_SELECTABLE_SYMBOL)
	__attribute__((weak));

/*
 * The cumulative statistics of a table (pgstat.h): PostgreSQL 16 renamed changes_since_analyze
 * to mod_since_analyze and the <event>_timestamp fields to last_<event>_time.
 */
#if PG_VERSION_NUM >= 160000
#define IDT_TABSTAT_MOD_SINCE_ANALYZE(tab) ((tab)->mod_since_analyze)
#define IDT_TABSTAT_LAST_VACUUM(tab) ((tab)->last_vacuum_time)
#define IDT_TABSTAT_LAST_AUTOVACUUM(tab) ((tab)->last_autovacuum_time)
#define IDT_TABSTAT_LAST_ANALYZE(tab) ((tab)->last_analyze_time)
#define IDT_TABSTAT_LAST_AUTOANALYZE(tab) ((tab)->last_autoanalyze_time)
#else
#define IDT_TABSTAT_MOD_SINCE_ANALYZE(tab) ((tab)->changes_since_analyze)
#define IDT_TABSTAT_LAST_VACUUM(tab) ((tab)->vacuum_timestamp)
#define IDT_TABSTAT_LAST_AUTOVACUUM(tab) ((tab)->autovac_vacuum_timestamp)
#define IDT_TABSTAT_LAST_ANALYZE(tab) ((tab)->analyze_timestamp)
#define IDT_TABSTAT_LAST_AUTOANALYZE(tab) ((tab)->autovac_analyze_timestamp)
#endif

#endif /* IDTYPES_COMPAT_H */
