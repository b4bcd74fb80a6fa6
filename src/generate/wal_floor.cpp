/* wal_floor.cpp: the floor carried to standbys in WAL. Each reservation of the floor file is
 * also written to WAL; a promoted standby takes the newest one it replayed as part of its
 * restart floor. */
#include "state.h"

extern "C" {
#include "access/rmgr.h"
#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "access/xlogreader.h"
#include "access/xlogrecovery.h"
#include "replication/message.h"
}

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

/*
 * Why: a promoted standby's copy of the floor file is as old as its base backup, so its restart
 * floor comes from the newest commit it replayed, plus a second (restart_floor.cpp). That covers
 * every ID the old primary committed as long as its clock never went back: the commits carry its
 * clock. After a step back, IDs made before it (while the clock ran fast) and the generators
 * running on after them lie beyond the times of the commits that follow: the reservation in WAL
 * covers them. One small record per half second of generation at most.
 *
 * A non-transactional logical message (prefix "idtypes.floor", the reservation's Unix
 * microseconds as text), written before the IDs it covers go out, so it precedes in WAL every
 * commit of them. Logical decoding shows it to consumers that ask for messages.
 */

namespace gen
{

namespace
{
constexpr char prefix[] = "idtypes.floor";

/* How much WAL before the end of recovery a promoted standby reads back for the newest message:
 * while the generators run ahead they write one every half second of their time. */
constexpr std::uint64_t wal_read_back_bytes = 256ull * 1024 * 1024;

/* The message of the record just read, if it is ours: its time, else -1 (18 digits at most:
 * every time an ID type holds has fewer). */
std::int64_t
message_time(XLogReaderState *reader)
{
	if (XLogRecGetRmid(reader) != RM_LOGICALMSG_ID ||
		(XLogRecGetInfo(reader) & ~XLR_INFO_MASK) != XLOG_LOGICAL_MESSAGE)
		return -1;
	const auto *m = reinterpret_cast<const xl_logical_message *>(XLogRecGetData(reader));
	if (m->transactional || m->prefix_size != sizeof(prefix) ||
		memcmp(m->message, prefix, sizeof(prefix)) != 0 || m->message_size == 0 ||
		m->message_size > 18)
		return -1;
	std::int64_t v = 0;
	for (Size i = 0; i < m->message_size; i++)
	{
		const char c = m->message[sizeof(prefix) + i];
		if (c < '0' || c > '9')
			return -1;
		v = v * 10 + (c - '0');
	}
	return v;
}

/* The newest of our messages in [from, to), or 0. */
std::int64_t
newest_message(XLogReaderState *reader, XLogRecPtr from, XLogRecPtr to)
{
	std::int64_t newest = 0;
	if (XLogRecPtrIsInvalid(idt_xlog_find_next_record(reader, from)))
		return 0;
	for (;;)
	{
		char *error = nullptr;
		if (XLogReadRecord(reader, &error) == nullptr || reader->ReadRecPtr >= to)
			break;
		newest = Max(newest, message_time(reader));
	}
	return newest;
}
} /* namespace */

void
log_reservation(std::int64_t until_us)
{
	if (RecoveryInProgress() || !XLogIsNeeded())
		return;
	char buf[24];
	const int len = snprintf(buf, sizeof(buf), "%lld", static_cast<long long>(until_us));
	(void) idt_log_logical_message(prefix, buf, static_cast<size_t>(len));
}

namespace
{

/* The read-back's own page reader: pg_wal's files read with open() and pread(), so that a
 * missing or unreadable segment ends the read-back instead of raising an error (core's readers
 * raise one, and an error caught without a subtransaction would leave the backend's state to
 * chance). */
struct read_back
{
	XLogSegNo first;   /* the oldest segment looked at */
	XLogSegNo count;   /* segments from first on */
	TimeLineID *tlis;  /* per segment from first: the newest timeline with a file of it, or 0 */
	XLogSegNo open_seg;
	int fd;
	bool failed;
	char *why;
	size_t why_size;
};

void
fail(read_back *rb, const char *what, const char *path)
{
	if (!rb->failed)
		snprintf(rb->why, rb->why_size, "%s \"%s\": %s", what, path, strerror(errno));
	rb->failed = true;
}

int
read_back_page(XLogReaderState *reader, XLogRecPtr page, int req_len, XLogRecPtr, char *buf)
{
	auto *rb = static_cast<read_back *>(reader->private_data);
	XLogSegNo seg;
	XLByteToSeg(page, seg, wal_segment_size);
	if (seg < rb->first || seg - rb->first >= rb->count || rb->tlis[seg - rb->first] == 0)
		return -1;
	char path[MAXPGPATH];
	XLogFilePath(path, rb->tlis[seg - rb->first], seg, wal_segment_size);
	if (rb->fd < 0 || rb->open_seg != seg)
	{
		if (rb->fd >= 0)
			close(rb->fd);
		rb->fd = open(path, O_RDONLY | PG_BINARY, 0);
		rb->open_seg = seg;
		if (rb->fd < 0)
		{
			/* Removed since the directory was read (a checkpoint): where the WAL ends. */
			if (errno != ENOENT)
				fail(rb, "could not open file", path);
			return -1;
		}
	}
	const off_t offset = static_cast<off_t>(XLogSegmentOffset(page, wal_segment_size));
	const ssize_t got = pread(rb->fd, buf, XLOG_BLCKSZ, offset);
	if (got < 0)
	{
		fail(rb, "could not read file", path);
		return -1;
	}
	return got >= req_len ? static_cast<int>(got) : -1;
}

/* The segments in [first, first + count) that pg_wal holds, each with its newest timeline (a
 * promotion copies the segment of the switch to the new timeline). False if it cannot be read. */
bool
list_segments(read_back *rb)
{
	DIR *dir = opendir(XLOGDIR);
	if (dir == nullptr)
	{
		fail(rb, "could not open directory", XLOGDIR);
		return false;
	}
	errno = 0;
	for (struct dirent *de; (de = readdir(dir)) != nullptr; errno = 0)
	{
		if (!IsXLogFileName(de->d_name))
			continue;
		/* (Not "seg": PostgreSQL 15's XLogFromFileName() is a macro with a local of that name.) */
		TimeLineID tli = 0;
		XLogSegNo segno = 0;
		XLogFromFileName(de->d_name, &tli, &segno, wal_segment_size);
		if (segno >= rb->first && segno - rb->first < rb->count && tli > rb->tlis[segno - rb->first])
			rb->tlis[segno - rb->first] = tli;
	}
	const bool ok = errno == 0;
	if (!ok)
		fail(rb, "could not read directory", XLOGDIR);
	closedir(dir);
	return ok;
}

} /* namespace */

/*
 * The newest reservation in the WAL this server replayed before it left recovery, read back
 * from the end one segment at a time (the newest message is in the last segment that has one):
 * at most wal_read_back_bytes, and no further back than the newest segment pg_wal lacks (a
 * standby made by pg_basebackup has none before its backup's start; that is no failure). 0 when
 * none is found. A segment that is there but cannot be read sets *failed (with why).
 */
std::int64_t
replayed_reservation(bool *failed, char *why, size_t why_size)
{
	*failed = false;
	const XLogRecPtr end = GetXLogReplayRecPtr(nullptr);
	if (XLogRecPtrIsInvalid(end) || RecoveryInProgress())
		return 0;
	XLogSegNo last;
	XLByteToPrevSeg(end, last, wal_segment_size);
	const XLogSegNo count = Min(last + 1, Max(static_cast<XLogSegNo>(1),
											  wal_read_back_bytes /
												  static_cast<std::uint64_t>(wal_segment_size)));
	read_back rb = {};
	rb.first = last + 1 - count;
	rb.count = count;
	rb.tlis = static_cast<TimeLineID *>(palloc0(sizeof(TimeLineID) * count));
	rb.fd = -1;
	rb.why = why;
	rb.why_size = why_size;
	std::int64_t newest = 0;
	if (list_segments(&rb))
	{
		XLogReaderRoutine routine = {};
		routine.page_read = &read_back_page;
		XLogReaderState *reader = XLogReaderAllocate(wal_segment_size, nullptr, &routine, &rb);
		for (XLogSegNo at = last; reader != nullptr && newest == 0 && !rb.failed; at--)
		{
			if (rb.tlis[at - rb.first] == 0)
				break;
			XLogRecPtr from, to;
			XLogSegNoOffsetToRecPtr(at, 0, wal_segment_size, from);
			XLogSegNoOffsetToRecPtr(at + 1, 0, wal_segment_size, to);
			newest = newest_message(reader, from, Min(to, end));
			if (at == rb.first)
				break;
		}
		if (reader != nullptr)
			XLogReaderFree(reader);
	}
	if (rb.fd >= 0)
		close(rb.fd);
	pfree(rb.tlis);
	*failed = rb.failed;
	return newest;
}

} /* namespace gen */
