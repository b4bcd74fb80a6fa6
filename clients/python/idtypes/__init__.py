"""Python helpers for the idtypes PostgreSQL extension.

The SQL types and the functions that generate them; the ORM integrations live in submodules that
import their framework only when imported: ``idtypes.sqlalchemy`` and ``idtypes.django``.
"""

__version__ = "1.1.0"

# SQL type name -> the generator a column of that type defaults to.
GENERATORS = {
    "uid11": "generate_uid11",
    "timeid": "generate_timeid",
    "ulidflake": "generate_ulidflake",
    "ulid": "generate_ulid",
    "euid": "generate_euid",
}
TYPE_NAMES = tuple(GENERATORS)
