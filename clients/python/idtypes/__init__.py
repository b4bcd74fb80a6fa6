"""Python helpers for the idtypes PostgreSQL extension.

The SQL types and the functions that generate them; the ORM integrations live in submodules that
import their framework only when imported: ``idtypes.sqlalchemy`` and ``idtypes.django``.
"""

__version__ = "1.2.0"

# SQL type name -> the type's generator, the one a column of that type defaults to: time-ordered,
# named after the type (idtypes 1.1; on 1.0 name generate_xid and generate_tid, their aliases, as
# a column's generator). uid11's is the xid profile: generate_uid11_random() is 64 random bits with
# no time, which a time window never finds.
GENERATORS = {
    "uid11": "generate_uid11_xid",
    "timeid": "generate_timeid",
    "ulidflake": "generate_ulidflake",
    "ulid": "generate_ulid",
    "euid": "generate_euid",
}
TYPE_NAMES = tuple(GENERATORS)

# IDs made in the application, with the standard library alone: new_ulid(), parse_ulid(),
# is_valid_ulid(), ulid_timestamp() ... for the five types (idtypes.ids).
from .ids import *  # noqa: E402,F401,F403
