"""Python helpers for the idtypes PostgreSQL extension.

The SQL types and the functions that generate them; the ORM integrations live in submodules that
import their framework only when imported: ``idtypes.sqlalchemy`` and ``idtypes.django``.
"""

__version__ = "1.1.0"

# SQL type name -> the generator a column of that type defaults to: time-ordered, and in every
# version of the extension (1.0 and 1.1). uid11's is the xid profile: generate_uid11() is 64
# random bits with no time, which a time window never finds.
GENERATORS = {
    "uid11": "generate_xid",
    "timeid": "generate_tid",
    "ulidflake": "generate_ulidflake",
    "ulid": "generate_ulid",
    "euid": "generate_euid",
}
TYPE_NAMES = tuple(GENERATORS)
