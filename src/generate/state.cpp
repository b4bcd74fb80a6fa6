/* state.cpp: the generators' monotonic state and its scope (the cluster's shared memory or each
 * backend's own), its reservations, the counter bits given to node ids and backend slots, and the
 * settings. */
#include "state.h"

extern "C" {
#include "miscadmin.h"
#include "access/parallel.h"
#include "access/xlog.h"
#include "port/pg_bitutils.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#if IDT_HAVE_DSM_REGISTRY
#include "storage/dsm_registry.h"
#endif
}

namespace gen
{

/* ---- settings ---------------------------------------------------------------------------- */

namespace
{
const struct config_enum_entry overflow_options[] = {
	{"wait", OVERFLOW_WAIT, false}, {"error", OVERFLOW_ERROR, false}, {nullptr, 0, false}};

/* Tests only: ms a backend sleeps once it reserves for the cluster, before it writes anything. */
int test_reservation_pause_ms = 0;
} /* namespace */

int on_overflow = OVERFLOW_WAIT;
/*
 * Tests only: 0 (default) leaves the counters alone; N > 0 keeps at most N counter bits in the
 * xid and ulidflake fields (the bits above them zero), so a time unit overflows after a few IDs
 * on any server and under any scope, and idtypes.on_overflow can be tested everywhere.
 */
int test_counter_bits = 0;
int tid_clock_id_setting = -1;
/*
 * idtypes.node_id (0..31; -1 when not set) makes the IDs of nodes with different node ids
 * disjoint: the top node_id_bits of the xid and ulidflake counter fields hold it, and the top
 * bits of TID's clock id (see tid_default_clock_id). ulid and euid keep their 80/64 random bits.
 */
int node_id_setting = -1;
int accept_timeline_setting = 0;

/* ---- the state: shared (preloaded, or 17+) or this backend's ---------------------------- */

gen_state local_state;
shared_gen_state *shared = nullptr;

namespace
{
shmem_startup_hook_type prev_shmem_startup_hook = nullptr;
shmem_request_hook_type prev_shmem_request_hook = nullptr;

void
shmem_request()
{
	if (prev_shmem_request_hook)
		prev_shmem_request_hook();
	RequestAddinShmemSpace(sizeof(shared_gen_state));
}

constexpr const char *shared_state_name = "idtypes generator state";

void
shared_state_init(void *p)
{
	auto *s = static_cast<shared_gen_state *>(p);
	memset(s, 0, sizeof(shared_gen_state));
	SpinLockInit(&s->mutex);
	ConditionVariableInit(&s->reserved);
}

void
shmem_startup()
{
	if (prev_shmem_startup_hook)
		prev_shmem_startup_hook();
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	bool found;
	shared = static_cast<shared_gen_state *>(
		ShmemInitStruct(shared_state_name, sizeof(shared_gen_state), &found));
	if (!found)
		shared_state_init(shared);
	LWLockRelease(AddinShmemInitLock);
}
} /* namespace */

void
attach_dsm_state()
{
#if IDT_HAVE_DSM_REGISTRY
	bool found;
	shared = static_cast<shared_gen_state *>(idt_get_named_dsm_segment(
		shared_state_name, sizeof(shared_gen_state), shared_state_init, &found));
#endif
}

/* ---- reservations ---------------------------------------------------------------------- */

namespace
{
/* The reserving backend's error or exit: the others wait no longer (one of them reserves). */
void
end_reserving(int, Datum)
{
	SpinLockAcquire(&shared->mutex);
	shared->reserving = false;
	SpinLockRelease(&shared->mutex);
	ConditionVariableBroadcast(&shared->reserved);
}
} /* namespace */

void
reserve_covering(std::int64_t id_us, std::uint64_t life)
{
	const std::int64_t need = add_sat(id_us, 1), want = add_sat(id_us, reserve_window_us);
	if (!shared_scope())
	{
		local_state.reserved_us = Max(local_state.reserved_us, reserve_until(need, want, life));
		return;
	}
	/* One backend reserves at a time; the others sleep until it is done, interruptibly, in the
	 * wait event IdtypesFloorReservation, and go on without writing if it covers their IDs. */
	static uint32 wait_event = 0;
	if (wait_event == 0)
		wait_event = named_wait_event("IdtypesFloorReservation");
	for (;;)
	{
		SpinLockAcquire(&shared->mutex);
		const bool covered = id_us < shared->state.reserved_us;
		const bool mine = !covered && !shared->reserving;
		if (mine)
			shared->reserving = true;
		SpinLockRelease(&shared->mutex);
		if (covered)
		{
			ConditionVariableCancelSleep();
			return;
		}
		if (mine)
			break;
		ConditionVariableSleep(&shared->reserved, wait_event);
	}
	ConditionVariableCancelSleep();
	/* Set inside the cleanup block and read after it: volatile, as longjmp requires. */
	volatile std::int64_t held = 0;
	PG_ENSURE_ERROR_CLEANUP(end_reserving, 0);
	{
		/* Tests: widen the time another backend's IDs wait for this reservation (t/040_order.pl). */
		for (int i = 0; i < test_reservation_pause_ms; i++)
		{
			pg_usleep(1000);
			CHECK_FOR_INTERRUPTS();
		}
		held = reserve_until(need, want, life);
	}
	PG_END_ENSURE_ERROR_CLEANUP(end_reserving, 0);
	SpinLockAcquire(&shared->mutex);
	shared->state.reserved_us = Max(shared->state.reserved_us, static_cast<std::int64_t>(held));
	shared->reserving = false;
	SpinLockRelease(&shared->mutex);
	ConditionVariableBroadcast(&shared->reserved);
}

void
refuse_in_recovery(const char *type_name)
{
	ereport(ERROR,
			(errcode(ERRCODE_READ_ONLY_SQL_TRANSACTION),
			 errmsg("cannot generate a monotonic %s during recovery", type_name),
			 errdetail("A standby's monotonic generators would go on from the primary's floor, "
					   "node id and clock id: their IDs could equal the primary's."),
			 errhint("Generate it on the primary. generate_ulid(), the generate_*_at() "
					 "functions and uuidv7() run on a standby: their random bits keep servers "
					 "apart.")));
}

/* ---- fixed top bits of the narrow counter fields: node id, backend slot ------------------ */

/*
 * Without shared state each backend steps on its own, so two backends could draw the same
 * xid or ulidflake in the same millisecond. The top bits of their counter fields (below the node
 * id, if any) hold the backend's slot, unique among live backends, which makes that impossible;
 * the counter keeps the rest. With shared state one sequence serves the cluster (the node) and no
 * bits are given up for backends.
 */
unsigned
slot_bits()
{
	attach_shared_state();
	if (shared != nullptr)
		return 0;
	return MaxBackends > 1 ? pg_ceil_log2_32(static_cast<uint32>(MaxBackends)) : 0;
}

std::uint64_t
slot_value(unsigned bits)
{
	return bits == 0 ? 0 : static_cast<std::uint64_t>(IDT_BACKEND_SLOT()) & ((1ull << bits) - 1);
}

std::uint64_t
session_slot_value(unsigned bits)
{
	return bits == 0 ? 0 : static_cast<std::uint64_t>(IDT_SESSION_SLOT()) & ((1ull << bits) - 1);
}

namespace
{
partition
shrink_for_tests(partition p, unsigned counter_bits)
{
	const unsigned keep = static_cast<unsigned>(test_counter_bits);
	if (keep == 0 || counter_bits - p.bits <= keep)
		return p;
	const unsigned extra = counter_bits - p.bits - keep;
	return {p.bits + extra, p.value << extra};
}

partition
field_partition_unshrunk(unsigned counter_bits, const char *type_name)
{
	unsigned sbits = slot_bits();
	const int node_id = node_id_in_force();
	if (node_id < 0)
	{
		/* The slot's bits must all fit, and leave the counter one: masked, two backends would
		 * share a partition. */
		if (sbits >= counter_bits)
			ereport(
				ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("too many backends for a partition each of type %s's counter field "
						"with per-backend generator state",
						type_name),
				 errdetail("The backend slot needs %u bits (%d backends); the field has %u.", sbits,
						   MaxBackends, counter_bits),
				 errhint("Lower max_connections, add idtypes to shared_preload_libraries, or "
						 "use PostgreSQL 17 or later, so that the generator state is shared.")));
		return {sbits, slot_value(sbits)};
	}
	if (node_id_bits + sbits >= counter_bits)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("idtypes.node_id leaves no counter bits for type %s with per-backend "
						"generator state",
						type_name),
				 errdetail("The node id takes %u bits and the backend slot %u of its %u-bit field.",
						   node_id_bits, sbits, counter_bits),
				 errhint("Add idtypes to shared_preload_libraries, or use PostgreSQL 17 or later, "
						 "so that the generator state is shared.")));
	return {node_id_bits + sbits,
			(static_cast<std::uint64_t>(node_id) << sbits) | slot_value(sbits)};
}
} /* namespace */

int
node_id_in_force()
{
	/* Fixed for the server's life: the shared state (which lives as long) takes it from its first
	 * user; a backend's own state from the floor file's record of the life. Once read, a backend
	 * keeps it. */
	static bool have = false;
	static int node = -1;
	static int warned_for = INT_MIN;
	if (!have)
	{
		attach_shared_state();
		if (shared_scope())
		{
			lock_state();
			if (!shared->state.node_fixed)
			{
				shared->state.node_id = node_id_setting;
				shared->state.node_fixed = true;
			}
			node = shared->state.node_id;
			unlock_state();
		}
		else
		{
			/* The floor first: it reports a damaged reservation as it found it, before the node
			 * id's record is written into the file. Not in a parallel worker: it makes no
			 * monotonic ID (those generators are PARALLEL RESTRICTED), and its TID clock id is
			 * its leader's slot, so it neither needs a floor nor may claim its own slot's. */
			if (!local_state.floor_set && !IsParallelWorker())
				apply_restart_floor();
			node = node_id_of_life(node_id_setting);
		}
		have = true;
	}
	if (node_id_setting != node && node_id_setting != warned_for)
	{
		warned_for = node_id_setting;
		ereport(WARNING,
				(errmsg("idtypes.node_id is %d, but the generators use node id %d until the server "
						"restarts",
						node_id_setting, node),
				 errdetail("The setting was changed after this server's generators started: "
						   "backends on two node ids could make the same ID in one millisecond."),
				 errhint("Restart the server for the new node id to take effect.")));
	}
	return node;
}

namespace
{
partition
field_partition(unsigned counter_bits, const char *type_name)
{
	return shrink_for_tests(field_partition_unshrunk(counter_bits, type_name), counter_bits);
}
} /* namespace */

/* cached_partition()'s miss. The backend's slot and MaxBackends are fixed for its life, and
 * whether the state is shared once it attached (field_partition attaches); the node id in force
 * is fixed for the server's, but node_id_in_force() warns when the setting differs from it: a
 * changed setting misses. */
partition
refresh_partition(partition_cache &c, unsigned counter_bits, const char *type_name)
{
	c.p = field_partition(counter_bits, type_name);
	c.node_id_setting = node_id_setting;
	c.test_counter_bits = test_counter_bits;
	c.valid = true;
	return c.p;
}

/*
 * Tests only (idtypes.test_counter_bits = k > 0), the 128-bit kinds' counterpart: the random words
 * of a fresh generate_ulid_monotonic() (r[0]: the 16 high random bits, r[1]: the 64 low) or
 * generate_euid() (r[1]: its 64 random bits, whose high 32 count within a ms) leave room for at
 * most 2^k IDs in their millisecond, so that their overflow can be tested through the server.
 */
void
shrink_random_for_tests_now(bool euid, std::uint64_t *r)
{
	const unsigned k = static_cast<unsigned>(test_counter_bits);
	if (k == 0)
		return;
	const std::uint64_t mask = (1ull << k) - 1;
	if (euid)
	{
		const std::uint64_t hi32 = (0xFFFFFFFFull & ~mask) | ((r[1] >> 32) & mask);
		r[1] = (hi32 << 32) | (r[1] & 0xFFFFFFFFull);
	}
	else
	{
		r[0] = 0xFFFF;
		r[1] = ~mask | (r[1] & mask);
	}
}

} /* namespace gen */

void
idt_generators_init()
{
	using namespace gen;
	DefineCustomEnumVariable(
		"idtypes.on_overflow",
		"What a monotonic generator does when a time unit has no larger ID left.",
		"wait: sleep until about the next clock unit (wait event IdtypesGeneratorOverflow); error: "
		"raise an error (the specs' behaviour).",
		&on_overflow, OVERFLOW_WAIT, overflow_options, PGC_USERSET, 0, nullptr, nullptr, nullptr);
	DefineCustomIntVariable(
		"idtypes.tid_clock_id", "Clock id of generate_tid() when no argument is given.",
		"-1 (default) lets idtypes choose; 0..1023 is used as given, and with idtypes.node_id set "
		"must carry it in its top 5 bits.",
		&tid_clock_id_setting, -1, -1, 1023, PGC_USERSET, 0, nullptr, nullptr, nullptr);
	DefineCustomIntVariable(
		"idtypes.node_id", "This node's id, which keeps generated IDs unique across nodes.",
		"-1 (default): not set. 0..31: the top 5 bits of the xid and ulidflake counter fields and "
		"of the TID clock id hold it, so nodes with different ids never generate the same ID.",
		&node_id_setting, -1, -1, 31,
		/* Taken at the server's start: where idtypes is preloaded the server keeps it so (a
		 * reload leaves it pending_restart); elsewhere the generators keep the node id they
		 * started with (node_id_in_force), and warn of a changed setting. */
		process_shared_preload_libraries_in_progress ? PGC_POSTMASTER : PGC_SIGHUP, 0, nullptr,
		nullptr, nullptr);
	DefineCustomIntVariable(
		"idtypes.accept_timeline",
		"The WAL timeline on which the monotonic generators go on without a known floor.",
		"0 (default): none. A server not preloaded that left recovery on a new timeline does not "
		"know what the old timeline's generators made, and they refuse; set to that timeline once "
		"the clock is past every ID the old timeline made.",
		&accept_timeline_setting, 0, 0, INT_MAX, PGC_SIGHUP, 0, nullptr, nullptr, nullptr);
	DefineCustomIntVariable(
		"idtypes.test_reservation_pause_ms",
		"For tests only: a pause of the backend that reserves for the cluster.",
		"0 (default): none. The backend that writes a reservation of the floor for the cluster "
		"pauses that many ms first, while others that need it wait.",
		&test_reservation_pause_ms, 0, 0, 10000, PGC_SUSET, GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE,
		nullptr, nullptr, nullptr);
	DefineCustomIntVariable(
		"idtypes.test_counter_bits", "For tests only: shrinks the monotonic generators' counters.",
		"0 (default): off. 1..8: the xid and ulidflake counters keep that many bits, and "
		"generate_ulid_monotonic() and generate_euid() start a millisecond that many increments "
		"from their top, so a millisecond overflows after a few IDs (tests of "
		"idtypes.on_overflow).",
		&test_counter_bits, 0, 0, 8, PGC_SUSET, GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE, nullptr,
		nullptr, nullptr);

	if (!process_shared_preload_libraries_in_progress)
		return;
	register_floor_rmgr();
	prev_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = shmem_request;
	prev_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = shmem_startup;
}

extern "C" {

PG_FUNCTION_INFO_V1(idtypes_generator_scope);
/* 'cluster' when the monotonic state is shared (preloaded, or 17+), else 'backend'. */
Datum
idtypes_generator_scope(PG_FUNCTION_ARGS)
{
	gen::attach_shared_state();
	PG_RETURN_TEXT_P(cstring_to_text(gen::shared_scope() ? "cluster" : "backend"));
}

} /* extern "C" */
