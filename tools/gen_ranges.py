"""gen_ranges.py: the range types, prefix and time ranges, ^@ and <@ (see gen_sql.py)."""


def section():
    return ""
