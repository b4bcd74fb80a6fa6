/* module.cpp: the module's magic block, its initializer and idtypes_version(). */
#include "glue.h"

extern "C" {
#include "utils/builtins.h"
#include "utils/guc.h"

/* The library's version, which may differ from the installed SQL script's. */
#define IDTYPES_LIBRARY_VERSION "1.2"

IDT_MODULE_MAGIC("idtypes", IDTYPES_LIBRARY_VERSION);

PGDLLEXPORT void _PG_init(void);

/* Settings, the shared generator state when loaded by shared_preload_libraries, the statistics hook;
 * then an unknown idtypes.* name is refused (a misspelt setting is an error, not a placeholder). */
void
_PG_init(void)
{
	idt_generators_init();
	idt_planner_init();
	MarkGUCPrefixReserved("idtypes");
}

PG_FUNCTION_INFO_V1(idtypes_version);

/* The version of the loaded library, which may differ from the installed SQL script's. */
Datum
idtypes_version(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(IDTYPES_LIBRARY_VERSION));
}
}
