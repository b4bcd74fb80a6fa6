/* module.cpp: the module's magic block and idtypes_version(). */
#include "compat.h"

extern "C" {
#include "utils/builtins.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(idtypes_version);

/* The version of the loaded library, which may differ from the installed SQL script's. */
Datum
idtypes_version(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text("1.0"));
}
}
