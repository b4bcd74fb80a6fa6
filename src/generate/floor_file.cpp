/* floor_file.cpp: the floor file, idtypes_generator.floor in the data directory: its format and
 * checks, the reservation synced before IDs go out, and the record each backend slot leaves for
 * the next backend of that slot. */
#include <sys/file.h>
#include <unistd.h>

#include "state.h"

extern "C" {
#include "miscadmin.h"
#include "access/xlog.h"
#include "storage/fd.h"
#include "storage/latch.h"
#include "storage/ipc.h"
#include "utils/timestamp.h"
}

/*
 * The file is text, so that a person can read (and, stopped, repair) it:
 *
 *   bytes 0-41:  "<until> <life>\n", two 20-digit numbers: the reservation. No monotonic
 *                generator of this data directory has handed out a time at or after until
 *                (Unix microseconds); life is the state that wrote it (apply_restart_floor).
 *   bytes 42-62: "<timeline>\n", a 20-digit number: the WAL timeline of the server that wrote the
 *                reservation, or 0 where WAL redo wrote it (wal_floor.cpp: the file is then as
 *                new as the WAL replayed); none in a file made but never reserved in (or written
 *                before 1.2). A server not preloaded,
 *                on a later timeline (promoted, or recovered to a point in time) and without a
 *                replayed commit in this life, does not know what the old timeline made
 *                (restart_floor.cpp).
 *   bytes 64-105: unused (the newest reservation read back from the replayed WAL, before 1.2).
 *   bytes 106-127: "<node> <life>\n", a 2-digit and an 18-digit number, with per-backend state:
 *                the node id in force for the server's life (idtypes.node_id + 1; 0 for none)
 *                and that life (the server's start time, modulo 10^18), written by its first
 *                backend that needed it (node_id_of_life).
 *   byte 128 + 64 * slot, with per-backend state (15-16 without preload): "<until> <in use>\n", a
 *                20-digit and a 10-digit number, the record of a backend slot: no ID of a backend
 *                that had the slot reached until; in use 1 while a backend of the slot generates
 *                (it sets 0 at its exit, with until just after its last ID's time);
 *   byte 160 + 64 * slot: "<until> 0000000000\n", the slot's TIDs: none reached until. TID runs
 *                ahead of the clock (up to a second); kept apart, the next backend's TIDs go on
 *                after its predecessor's while its clock, and the other kinds, stay at the clock.
 *
 * A record that does not read so is damaged: it is reported and no longer relied on.
 */

namespace gen
{

const char *const floor_file = "idtypes_generator.floor";

namespace
{

constexpr int reservation_len = 42;
constexpr off_t timeline_at = 42;
constexpr int timeline_len = 21;
constexpr off_t slot_area = 128;
constexpr int slot_len = 32;
constexpr off_t node_at = 106;
constexpr int node_len = 22;
constexpr std::uint64_t node_life_mod = 1000000000000000000ull;

/* Past the last time of every ID type (ulid's 48-bit milliseconds): such a time is damage. */
constexpr std::int64_t max_time_us = static_cast<std::int64_t>(idt::ulid_max_ms + 1) * 1000;

/* n decimal digits, and nothing else. */
bool
read_digits(const char *p, int n, std::uint64_t &v)
{
	v = 0;
	for (int i = 0; i < n; i++)
	{
		if (p[i] < '0' || p[i] > '9')
			return false;
		const unsigned d = static_cast<unsigned>(p[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	return true;
}

/* "<20 digits> <width digits>\n" in len bytes. */
floor_record
parse_record(const char *buf, ssize_t len, int width)
{
	if (len < 0)
		return {floor_record::damaged, 0, 0, "it could not be read"};
	if (len == 0)
		return {floor_record::damaged, 0, 0, "it is empty"};
	/* The shape, as far as the bytes go: digits, a space, digits, a newline. */
	const int full = 20 + 1 + width + 1;
	for (int i = 0; i < Min(len, static_cast<ssize_t>(full)); i++)
	{
		const bool digit = buf[i] >= '0' && buf[i] <= '9';
		if (i == 20 ? buf[i] != ' ' : i == full - 1 ? buf[i] != '\n' : !digit)
			return {floor_record::damaged, 0, 0, "it does not hold a time"};
	}
	if (len < full)
		return {floor_record::damaged, 0, 0, "it is cut short"};
	std::uint64_t until, second;
	if (!read_digits(buf, 20, until) || !read_digits(buf + 21, width, second))
		return {floor_record::damaged, 0, 0, "it does not hold a time"};
	if (until >= static_cast<std::uint64_t>(max_time_us))
		return {floor_record::damaged, 0, 0, "its time is past the range of every ID type"};
	return {floor_record::ok, static_cast<std::int64_t>(until), second, nullptr};
}

floor_record
read_reservation(int fd)
{
	char buf[reservation_len];
	return parse_record(buf, pread(fd, buf, sizeof(buf), 0), 20);
}

/* n bytes read (n >= 0: none, where the file ends before them) that were never written: zeros. */
bool
unwritten(const char *buf, ssize_t n)
{
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] != '\0')
			return false;
	return n >= 0;
}

/* A record after the reservation ("<20 digits> <width digits>\n" at offset); absent where the
 * file ends before it or it was never written (zero bytes). */
floor_record
read_record_at(int fd, off_t offset, int width)
{
	char buf[reservation_len];
	const ssize_t n = pread(fd, buf, 20 + 1 + width + 1, offset);
	if (unwritten(buf, n))
		return {floor_record::absent, 0, 0, nullptr};
	return parse_record(buf, n, width);
}

/* A slot has two records: its IDs' times (which = 0) and its TIDs' microseconds (which = 1). */
off_t
slot_offset(int slot, int which)
{
	return slot_area + (2 * static_cast<off_t>(slot) + which) * slot_len;
}

floor_record
read_slot(int fd, int slot, int which)
{
	return read_record_at(fd, slot_offset(slot, which), 10);
}

bool
write_at(int fd, const char *buf, int len, off_t offset)
{
	errno = 0;
	if (pwrite(fd, buf, len, offset) == len)
		return true;
	if (errno == 0)
		errno = ENOSPC;
	return false;
}

/* "<until> <life>\n" at offset: the reservation (0) or the WAL floor record. */
bool
write_pair(int fd, off_t offset, std::int64_t until_us, std::uint64_t life)
{
	char buf[reservation_len + 1];
	snprintf(buf, sizeof(buf), "%020lld %020llu\n", static_cast<long long>(until_us),
			 static_cast<unsigned long long>(life));
	return write_at(fd, buf, reservation_len, offset);
}

/* The timeline record: the timeline that wrote the reservation (0: WAL redo), or -1 where there
 * is none that reads as one. */
std::int64_t
read_timeline(int fd)
{
	char buf[timeline_len];
	std::uint64_t tl = 0;
	if (pread(fd, buf, timeline_len, timeline_at) == timeline_len &&
		buf[timeline_len - 1] == '\n' && read_digits(buf, 20, tl) && tl <= PG_UINT32_MAX)
		return static_cast<std::int64_t>(tl);
	return -1;
}

/* The reservation and its timeline record (0: written by WAL redo; -1: none, the file just
 * made), synced. */
void
write_reservation(int fd, std::int64_t until_us, std::uint64_t life, std::int64_t timeline,
				  const char *path)
{
	char tl[timeline_len + 1];
	snprintf(tl, sizeof(tl), "%020lld\n", static_cast<long long>(timeline));
	if (!write_pair(fd, 0, until_us, life) ||
		(timeline >= 0 && !write_at(fd, tl, timeline_len, timeline_at)))
		ereport(ERROR,
				(errcode_for_file_access(), errmsg("could not write file \"%s\": %m", path)));
	if (pg_fdatasync(fd) != 0)
		ereport(data_sync_elevel(ERROR),
				(errcode_for_file_access(), errmsg("could not fsync file \"%s\": %m", path)));
}

bool
write_slot(int fd, int slot, int which, std::int64_t until_us, unsigned in_use)
{
	char buf[slot_len + 1];
	snprintf(buf, sizeof(buf), "%020lld %010u\n", static_cast<long long>(until_us), in_use);
	return write_at(fd, buf, slot_len, slot_offset(slot, which));
}

/*
 * Backends with a state of their own (15-16 without preload) share the file: one at a time. The
 * lock is tried without blocking and waited for on the latch, 1 ms at a time, in the wait event
 * IdtypesFloorFile, so that a cancel, a terminate or statement_timeout ends the wait (flock()
 * itself is restarted after every signal). An error closes the file at transaction abort, which
 * drops the lock.
 */
void
lock(int fd, int how)
{
	static uint32 wait_event = 0;
	while (flock(fd, how | LOCK_NB) != 0)
	{
		if (errno != EWOULDBLOCK && errno != EINTR)
			ereport(ERROR, (errcode_for_file_access(),
							errmsg("could not lock file \"%s\": %m", floor_file)));
		if (wait_event == 0)
			wait_event = named_wait_event("IdtypesFloorFile");
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, 1, wait_event);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * Create the file with an empty reservation, whole or not at all: written and synced under
 * another name, then linked into place, and its directory entry synced before the lock on it is
 * let go, so that no backend relies on a file a crash could still take away, and none ever sees
 * it empty. Returns it open and locked, or -1 when another backend created it first.
 */
int
create_floor_file()
{
	char tmp[MAXPGPATH];
	snprintf(tmp, sizeof(tmp), "%s.%d", floor_file, MyProcPid);
	(void) unlink(tmp); /* a leftover of a crash of a backend with this pid */
	const int fd = OpenTransientFile(tmp, O_RDWR | O_CREAT | O_EXCL | PG_BINARY);
	if (fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(), errmsg("could not create file \"%s\": %m", tmp)));
	lock(fd, LOCK_EX);
	/* No timeline record: made, not reserved (restart_floor.cpp reads it as no file). */
	write_reservation(fd, 0, 0, -1, tmp);
	if (link(tmp, floor_file) != 0)
	{
		const int err = errno;
		CloseTransientFile(fd);
		(void) unlink(tmp);
		if (err == EEXIST)
			return -1;
		errno = err;
		ereport(ERROR, (errcode_for_file_access(),
						errmsg("could not link file \"%s\" to \"%s\": %m", tmp, floor_file)));
	}
	(void) unlink(tmp);
	fsync_fname(".", true);
	return fd;
}

/* The file open read-write and locked exclusively, created when missing. */
int
open_for_update()
{
	for (;;)
	{
		const int fd = OpenTransientFile(floor_file, O_RDWR | PG_BINARY);
		if (fd >= 0)
		{
			lock(fd, LOCK_EX);
			return fd;
		}
		if (errno != ENOENT)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not open file \"%s\": %m", floor_file),
					 errdetail("The generators keep their restart floor there: without it they "
							   "cannot hand out IDs that stay unique after a crash.")));
		const int created = create_floor_file();
		if (created >= 0)
			return created;
	}
}

/* The file open read-only and locked shared, or -1 (errno says why) when it cannot be opened. */
int
open_for_reading()
{
	const int fd = OpenTransientFile(floor_file, O_RDONLY | PG_BINARY);
	if (fd >= 0)
		lock(fd, LOCK_SH);
	return fd;
}

void
unlock_close(int fd)
{
	(void) flock(fd, LOCK_UN);
	CloseTransientFile(fd);
}

/* This backend's slot records (per-backend state): claimed, and what they held then. */
bool slot_claimed = false;
int claimed_slot = -1;
slot_floor claimed = {0, 0};

/*
 * At the exit of a backend that claimed its slot: the slot's record says just after this
 * backend's last ID, and that the slot is free. Never an error at exit: a record that cannot be
 * written stays "in use", which the next backend of the slot reads as "rely on the reservation".
 */
void
release_slot(int, Datum)
{
	if (!slot_claimed || shared_scope())
		return;
	const gen_state &s = active_state();
	std::int64_t until = claimed.until_us, tid_until = claimed.tid_until_us;
	if (s.last_us > 0)
		until = Max(until, add_sat(s.last_us, 1));
	if (s.tid.have)
		tid_until = Max(tid_until, static_cast<std::int64_t>(idt::timeid_micros(s.tid.value)) + 1);
	const int fd = OpenTransientFile(floor_file, O_RDWR | PG_BINARY);
	if (fd < 0)
	{
		elog(LOG, "could not open file \"%s\" at backend exit: %m", floor_file);
		return;
	}
	/* No wait an interrupt could end at exit: a second at most, then the record stays. */
	bool locked = false;
	for (int tries = 0; tries < 1000 && !(locked = flock(fd, LOCK_EX | LOCK_NB) == 0); tries++)
		pg_usleep(1000);
	if (!locked || !write_slot(fd, claimed_slot, 1, tid_until, 0) ||
		!write_slot(fd, claimed_slot, 0, until, 0))
		elog(LOG, "could not write file \"%s\" at backend exit: %m", floor_file);
	unlock_close(fd);
	slot_claimed = false;
}

} /* namespace */

void
report_damaged(const floor_record &r, const char *what, const char *done)
{
	ereport(WARNING, (errcode(ERRCODE_DATA_CORRUPTED),
					  errmsg("%s in file \"%s\" is damaged: %s", what, floor_file, r.why),
					  errdetail("%s", done)));
}

std::int64_t
reserve_until(std::int64_t need_us, std::int64_t want_us, std::uint64_t life)
{
	const int fd = open_for_update();
	const floor_record held = read_reservation(fd);
	if (held.kind != floor_record::ok)
		report_damaged(held, "the reservation", "It is written anew.");
	std::int64_t result = held.kind == floor_record::ok ? held.until_us : 0;
	if (held.kind != floor_record::ok || held.until_us < need_us || held.second != life)
	{
		result = Max(result, want_us);
		/* WAL first: a crash between the two leaves the record, whose redo writes the file. */
		log_reservation(result);
		write_reservation(fd, result, life, static_cast<std::int64_t>(GetWALInsertionTimeLine()),
						  floor_file);
	}
	unlock_close(fd);
	return result;
}

void
raise_reservation(std::int64_t until_us)
{
	const int fd = open_for_update();
	const floor_record held = read_reservation(fd);
	/* Written (and synced) only when it changes: a standby replays one record per half second
	 * of the primary's generation. */
	if (held.kind != floor_record::ok || held.until_us < until_us || read_timeline(fd) != 0)
		write_reservation(fd,
						  held.kind == floor_record::ok ? Max(held.until_us, until_us) : until_us,
						  0, 0, floor_file);
	unlock_close(fd);
}

int
node_id_of_life(int setting)
{
	const std::uint64_t life = (static_cast<std::uint64_t>(PgStartTime) | 1) % node_life_mod;
	const int fd = open_for_update();
	char buf[node_len + 1];
	const ssize_t n = pread(fd, buf, node_len, node_at);
	std::uint64_t node = 0, recorded = 0;
	const bool ok = n == node_len && buf[2] == ' ' && buf[node_len - 1] == '\n' &&
					read_digits(buf, 2, node) && read_digits(buf + 3, 18, recorded) && node <= 32;
	if (ok && recorded == life)
	{
		unlock_close(fd);
		return static_cast<int>(node) - 1;
	}
	if (!ok && !unwritten(buf, n))
		report_damaged({floor_record::damaged, 0, 0, "it does not hold a node id"},
					   "the node id record", "It is written anew with this server's setting.");
	snprintf(buf, sizeof(buf), "%02d %018llu\n", setting + 1,
			 static_cast<unsigned long long>(life));
	/* Not synced: it serves within one life of the server. A damaged reservation (reported by
	 * the restart floor, which read it first) is made an empty one, as at the file's creation,
	 * rather than left to read as zero bytes before the record; the next reservation writes it. */
	const bool written =
		(read_reservation(fd).kind == floor_record::ok || write_pair(fd, 0, 0, 0)) &&
		write_at(fd, buf, node_len, node_at);
	unlock_close(fd);
	if (!written)
		ereport(ERROR,
				(errcode_for_file_access(), errmsg("could not write file \"%s\": %m", floor_file)));
	return setting;
}

floor_record
floor_reservation(std::int64_t *timeline)
{
	*timeline = -1;
	const int fd = open_for_reading();
	if (fd < 0)
	{
		if (errno == ENOENT)
			return {floor_record::absent, 0, 0, nullptr};
		return {floor_record::damaged, 0, 0, "it could not be opened"};
	}
	const floor_record r = read_reservation(fd);
	*timeline = read_timeline(fd);
	unlock_close(fd);
	return r;
}

slot_floor
claim_slot()
{
	if (slot_claimed)
		return claimed;
	const int slot = IDT_BACKEND_SLOT();
	const int fd = open_for_update();
	const floor_record r = read_slot(fd, slot, 0), t = read_slot(fd, slot, 1);
	slot_floor f = {r.kind == floor_record::ok ? r.until_us : 0,
					t.kind == floor_record::ok ? t.until_us : 0};
	if (r.kind == floor_record::damaged || t.kind == floor_record::damaged)
		report_damaged(r.kind == floor_record::damaged ? r : t, "the record of this backend's slot",
					   "This backend's generators go on from the reservation instead.");
	/* Its last backend did not release it (it died, and the server restarted in place): every ID
	 * of this server's life lay before the reservation. */
	if (r.kind == floor_record::damaged || t.kind == floor_record::damaged ||
		(r.kind == floor_record::ok && r.second != 0))
	{
		const floor_record held = read_reservation(fd);
		if (held.kind == floor_record::ok)
		{
			f.until_us = Max(f.until_us, held.until_us);
			f.tid_until_us = Max(f.tid_until_us, held.until_us);
		}
	}
	/* Not synced: the records serve within one life of the server, and the next life takes the
	 * synced reservation. */
	const bool written = write_slot(fd, slot, 0, f.until_us, 1);
	unlock_close(fd);
	if (!written)
		ereport(ERROR,
				(errcode_for_file_access(), errmsg("could not write file \"%s\": %m", floor_file)));
	static bool registered = false;
	if (!registered)
	{
		before_shmem_exit(release_slot, 0);
		registered = true;
	}
	slot_claimed = true;
	claimed_slot = slot;
	claimed = f;
	return f;
}

} /* namespace gen */
