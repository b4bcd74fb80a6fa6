/*
 * kept.cpp: what a session keeps per column of a grown table across planning runs: the check of
 * its row count against its index (growth.cpp's check_new_rows) and the two IDs the statistics
 * hook reads (stats_hook.cpp), each valid while the table is as it was when they were read
 * (planner.h's column_now says how the table is now).
 */
#include "planner/planner.h"

extern "C" {
#include "utils/hsearch.h"
#include "utils/memutils.h"
}

namespace planning
{

namespace
{

/*
 * A column's check against its index, kept across planning runs in this backend, per table: valid
 * while the statistics it checked are (the time of the table's last ANALYZE) and the table's file
 * is (a TRUNCATE, VACUUM FULL or CLUSTER gives it a new one). The rows the statistics describe do
 * not change as rows are added or a VACUUM runs (the new ones lie above the histogram as the
 * counted ones did), so a column is checked once after each ANALYZE, when the first VACUUM has
 * made the count doubtful, not on every plan: its cost grows with the table (the count's limit in
 * check_new_rows), a plan's does not.
 *
 * Beside the check, the IDs the statistics hook read (keep_id), valid for as long as the check
 * and, each, for more conditions (kept_id_of).
 *
 * The cache holds up to 16,384 tables (a few MB at most), however many columns each plan checks: a
 * plan over 1,500 partitions keeps its 1,500 checks. Past that, half its tables are dropped, the
 * first half a scan of the hash finds (a backend that plans over more tables than that checks
 * some again, not all on every plan). Entries of dropped tables go with those halves.
 */
constexpr long checked_tables_max = 16384;

/* An ID keep_id() keeps: found after the table's last VACUUM of this time, at this size. */
struct kept_id
{
	bool kept;
	TimestampTz vacuumed;
	BlockNumber pages;
	idt::u128 value;
};

struct checked_column
{
	AttrNumber attnum;
	TimestampTz analyzed;
	Oid relfilenode;
	bool counted;          /* keep_check() kept the check (growth.cpp's check_new_rows) */
	kept_check check;      /* what it found */
	kept_id ids[KEPT_IDS]; /* keep_id() */
};

struct checked_table
{
	Oid relid; /* the key */
	int ncolumns;
	int capacity;
	checked_column *columns; /* in TopMemoryContext */
};

HTAB *checked_tables = nullptr;

/* Half the tables out, when the cache is full. */
void
shrink_checked()
{
	HASH_SEQ_STATUS scan;
	hash_seq_init(&scan, checked_tables);
	long drop = hash_get_num_entries(checked_tables) / 2;
	for (checked_table *t; drop > 0 && (t = static_cast<checked_table *>(hash_seq_search(&scan)));
		 drop--)
	{
		pfree(t->columns);
		(void) hash_search(checked_tables, &t->relid, HASH_REMOVE, nullptr);
	}
	if (drop == 0)
		hash_seq_term(&scan); /* (a scan that ended by itself is over already) */
}

/* The column's entry, if one is kept and still valid. */
const checked_column *
checked_column_of(const column_now &now)
{
	if (checked_tables == nullptr || !now.valid)
		return nullptr;
	const auto *t = static_cast<const checked_table *>(
		hash_search(checked_tables, &now.relid, HASH_FIND, nullptr));
	for (int i = 0; t != nullptr && i < t->ncolumns; i++)
	{
		const checked_column &c = t->columns[i];
		if (c.attnum == now.attnum)
			return c.analyzed == now.analyzed && c.relfilenode == now.relfilenode ? &c : nullptr;
	}
	return nullptr;
}

/* The column's entry to change and keep: the one kept, if still valid, else a new one. */
checked_column
column_entry(const column_now &now)
{
	const checked_column *kept = checked_column_of(now);
	if (kept != nullptr)
		return *kept;
	checked_column c = {};
	c.attnum = now.attnum;
	c.analyzed = now.analyzed;
	c.relfilenode = now.relfilenode;
	return c;
}

/* Keep a column's entry. */
void
keep_checked_column(Oid relid, const checked_column &column)
{
	if (checked_tables != nullptr && hash_get_num_entries(checked_tables) >= checked_tables_max)
		shrink_checked();
	if (checked_tables == nullptr)
	{
		HASHCTL ctl;
		memset(&ctl, 0, sizeof(ctl));
		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(checked_table);
		ctl.hcxt = TopMemoryContext;
		checked_tables = hash_create("idtypes checked row counts", 64, &ctl,
									 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	/* The column array first: an allocation that fails leaves no entry without one. */
	auto *t = static_cast<checked_table *>(hash_search(checked_tables, &relid, HASH_FIND, nullptr));
	int i = 0;
	while (t != nullptr && i < t->ncolumns && t->columns[i].attnum != column.attnum)
		i++;
	if (t == nullptr || i == t->capacity)
	{
		const int capacity = t == nullptr ? 2 : 2 * t->capacity;
		auto *columns = static_cast<checked_column *>(
			MemoryContextAlloc(TopMemoryContext, sizeof(checked_column) * capacity));
		if (t != nullptr)
		{
			memcpy(columns, t->columns, sizeof(checked_column) * t->ncolumns);
			pfree(t->columns);
		}
		else
		{
			t = static_cast<checked_table *>(
				hash_search(checked_tables, &relid, HASH_ENTER, nullptr));
			t->ncolumns = 0;
		}
		t->columns = columns;
		t->capacity = capacity;
	}
	if (i == t->ncolumns)
		t->ncolumns++;
	t->columns[i] = column;
}

} /* namespace */

bool
kept_check_of(const column_now &now, kept_check *out)
{
	const checked_column *c = checked_column_of(now);
	if (c == nullptr || !c->counted)
		return false;
	*out = c->check;
	return true;
}

void
keep_check(const column_now &now, kept_check check)
{
	if (!now.valid)
		return;
	checked_column c = column_entry(now);
	c.counted = true;
	c.check = check;
	keep_checked_column(now.relid, c);
}

bool
kept_id_of(const column_now &now, kept_item item, idt::u128 *out)
{
	const checked_column *c = checked_column_of(now);
	if (c == nullptr)
		return false;
	const kept_id &k = c->ids[item];
	if (!k.kept || k.vacuumed != now.vacuumed || (item == KEPT_LARGEST && k.pages != now.pages))
		return false;
	*out = k.value;
	return true;
}

void
keep_id(const column_now &now, kept_item item, idt::u128 value)
{
	if (!now.valid)
		return;
	checked_column c = column_entry(now);
	c.ids[item] = {true, now.vacuumed, now.pages, value};
	keep_checked_column(now.relid, c);
}

} /* namespace planning */
