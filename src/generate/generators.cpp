/* generators.cpp: the generator functions SQL calls: their arguments, and each format's step
 * under the monotonic state; the _at variants, which have no state. */
#include "state.h"

extern "C" {
#include "miscadmin.h"
#include "access/xlog.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
}

using namespace gen;

namespace
{

/* ---- arguments --------------------------------------------------------------------------- */

int
checked_arg(FunctionCallInfo fcinfo, int n, const char *what, int max)
{
	const int32 v = PG_GETARG_INT32(n);
	if (v < 0 || v > max)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s %d is out of range", what, v),
				 errdetail("The %s must be between 0 and %d.", what, max)));
	return v;
}

/* Unix microseconds of a timestamptz argument, or an error naming the type's era. */
std::int64_t
arg_unix_us(FunctionCallInfo fcinfo, int n, const char *type_name, std::int64_t lo_us,
			std::int64_t hi_us)
{
	const TimestampTz ts = PG_GETARG_TIMESTAMPTZ(n);
	std::int64_t us;
	if (TIMESTAMP_NOT_FINITE(ts) || __builtin_add_overflow(ts, glue::unix_to_pg_us, &us) ||
		us < lo_us || us > hi_us)
		ereport(ERROR, (errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
						errmsg("timestamp out of range for type %s", type_name),
						errdetail("A %s holds times from %s to %s.", type_name,
								  /* copies: timestamptz_to_str reuses one static buffer */
								  pstrdup(timestamptz_to_str(lo_us - glue::unix_to_pg_us)),
								  pstrdup(timestamptz_to_str(hi_us - glue::unix_to_pg_us)))));
	return us;
}

constexpr std::int64_t ms = 1000;

/* The ms since epoch_ms of a timestamptz argument, which must lie in [epoch, epoch + max_ms]. */
std::uint64_t
arg_ms_since(FunctionCallInfo fcinfo, int n, const char *type_name, std::int64_t epoch_ms,
			 std::uint64_t max_ms)
{
	const std::int64_t lo = epoch_ms * ms;
	const std::int64_t hi = (epoch_ms + static_cast<std::int64_t>(max_ms)) * ms + (ms - 1);
	const std::int64_t t = floor_div(arg_unix_us(fcinfo, n, type_name, lo, hi), ms);
	return static_cast<std::uint64_t>(t - epoch_ms);
}

/* TID clock id: the argument, else the setting, else a default (see tid_default_clock_id). */
unsigned
tid_default_clock_id()
{
	constexpr unsigned clock_id_bits = 10;
	const int node_id = node_id_in_force();
	if (tid_clock_id_setting >= 0)
	{
		/* A database's or a user's setting must not undo the node partitioning of the server's. */
		if (node_id >= 0 && (tid_clock_id_setting >> (clock_id_bits - node_id_bits)) != node_id)
			ereport(
				ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("idtypes.tid_clock_id %d does not carry idtypes.node_id %d",
						tid_clock_id_setting, node_id),
				 errdetail("With idtypes.node_id set, the top %u bits of a TID clock id are the "
						   "node id: clock ids %d to %d.",
						   node_id_bits, node_id << (clock_id_bits - node_id_bits),
						   ((node_id + 1) << (clock_id_bits - node_id_bits)) - 1),
				 errhint("Reset idtypes.tid_clock_id, or set it within that range.")));
		return static_cast<unsigned>(tid_clock_id_setting);
	}
	const unsigned sbits = slot_bits();
	/*
	 * With shared state the micros never repeat in the cluster, so a best-effort id (0..31)
	 * derived from the cluster's system identifier serves, or the node id in the top 5 bits when
	 * idtypes.node_id is set. Without it, two backends can hit the same microsecond: the backend's
	 * slot, unique among live backends, is then the clock id (the spec's "context-dependent"
	 * use), below the node id if one is set, so their IDs cannot collide.
	 */
	if (node_id >= 0)
	{
		constexpr unsigned low_bits = clock_id_bits - node_id_bits;
		if (sbits > low_bits)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("idtypes.node_id leaves too few clock id bits for type timeid with "
							"per-backend generator state"),
					 errdetail("The node id takes %u of the clock id's %u bits; the backend slot "
							   "needs %u more.",
							   node_id_bits, clock_id_bits, sbits),
					 errhint("Add idtypes to shared_preload_libraries, or use PostgreSQL 17 or "
							 "later, so that the generator state is shared.")));
		return (static_cast<unsigned>(node_id) << low_bits) |
			   static_cast<unsigned>(session_slot_value(sbits));
	}
	if (sbits == 0)
		return static_cast<unsigned>(GetSystemIdentifier() % 32);
	if (sbits > clock_id_bits)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("too many backends for a distinct TID clock id each with per-backend "
						"generator state"),
				 errdetail("The backend slot needs %u bits; a TID clock id has %u.", sbits,
						   clock_id_bits),
				 errhint("Pass a clock id to generate_tid(), add idtypes to "
						 "shared_preload_libraries, or use PostgreSQL 17 or later.")));
	return static_cast<unsigned>(session_slot_value(sbits));
}

Datum
xid_generate()
{
	static partition_cache cache;
	const partition p = cached_partition(cache, idt::xid_random_bits, "uid11");
	const unsigned pbits = p.bits;
	const std::uint64_t part = p.value;
	std::uint64_t out = 0;
	/* One 32-bit random word: its low bits start a new ms, or it makes the same-ms step (an ID
	 * does one or the other). */
	generate<1, std::uint32_t>("uid11", [&](gen_state &s, std::int64_t now, const std::uint32_t *r,
											std::int64_t &id_us) {
		id_us = now;
		return keep(s.xid,
					idt::xid_next(
						s.xid.value, s.xid.have, floor_div(now, ms), pbits, part, r[0],
						idt::same_unit_step(
							idt::counter_left(s.xid.value, idt::xid_random_bits - pbits, 0), r[0])),
					out);
	});
	return Int64GetDatum(static_cast<int64>(out));
}

Datum
ulidflake_generate(int sid)
{
	const unsigned field = sid < 0 ? idt::ulidflake_random_bits : idt::ulidflake_random_bits - 5;
	const unsigned low = sid < 0 ? 0 : 5; /* the scalable variant's sid */
	static partition_cache caches[2];     /* stand-alone, scalable */
	const partition p = cached_partition(caches[sid >= 0], field, "ulidflake");
	const unsigned pbits = p.bits;
	const std::uint64_t part = p.value;
	std::uint64_t out = 0;
	/* As xid's: one 32-bit word starts a new ms or makes the step. */
	generate<1, std::uint32_t>("ulidflake", [&](gen_state &s, std::int64_t now,
												const std::uint32_t *r, std::int64_t &id_us) {
		id_us = now;
		return keep(
			s.ulidflake,
			idt::ulidflake_next(
				s.ulidflake.value, s.ulidflake.have, floor_div(now, ms), pbits, part, sid, r[0],
				idt::same_unit_step(idt::counter_left(s.ulidflake.value, field - pbits, low),
									r[0])),
			out);
	});
	return Int64GetDatum(static_cast<int64>(out));
}

Datum
tid_generate(unsigned clock_id)
{
	std::uint64_t out = 0;
	/* TID has no random bits: it draws none. */
	generate<0>("timeid", [&](gen_state &s, std::int64_t now, const std::uint64_t *,
							  std::int64_t &id_us) {
		const idt::gen_status status = keep(
			s.tid, idt::tid_next(s.tid.value, s.tid.have, now, clock_id, tid_max_ahead_us), out);
		id_us = static_cast<std::int64_t>(idt::timeid_micros(out));
		return status;
	});
	return Int64GetDatum(static_cast<int64>(out));
}

Datum
euid_generate(int extension)
{
	idt::u128 out = {0, 0};
	const int slot = (extension + 1) % euid_slots;
	/*
	 * r[0]: the 32 random bits an ID in the same ms and extension as the last takes (the low ones
	 * of the 64 below); r[1] and r[2], drawn only for an ID that starts a ms or changes the
	 * extension: the high 32 of the low 64 random bits, and the 15 high random bits.
	 */
	generate<3, std::uint32_t, 2>("euid", [&](gen_state &s, std::int64_t now,
											  const std::uint32_t *r, bool drawn,
											  std::int64_t &id_us) {
		id_us = now;
		euid_slot &own = s.euid_by_extension[slot];
		const bool mine = own.last.have && own.extension == extension;
		const last_id<idt::u128> &prev = mine ? own.last : s.euid;
		const std::int64_t now_ms = floor_div(now, ms);
		/* (own.last has own.extension: mine is the same extension) */
		if (!drawn &&
			!(prev.have && now_ms <= static_cast<std::int64_t>(idt::euid_ms(prev.value)) &&
			  (mine || idt::euid_extension(prev.value) == extension)))
			return idt::gen_status::needs_random;
		/* Without the lazy words, r[0] alone: reading r[0] and r[1] as one 64-bit word (as the
		 * compiler does) would wait on two stores to them, a store-forwarding stall on every ID. */
		std::uint64_t rr[2] = {r[2], drawn ? static_cast<std::uint64_t>(r[1]) << 32 | r[0] : r[0]};
		shrink_random_for_tests(true, rr);
		const idt::gen128 g =
			idt::euid_next(prev.value, prev.have, now_ms, extension, rr[0], rr[1]);
		if (g.status != idt::gen_status::ok)
			return g.status;
		if (!mine && own.last.have && (!s.euid.have || s.euid.value < own.last.value))
			s.euid = own.last; /* pushed out */
		own.extension = extension;
		own.last = {g.value, true};
		out = g.value;
		return g.status;
	});
	return PointerGetDatum(glue::make_id128(out));
}

} /* namespace */

extern "C" {

PG_FUNCTION_INFO_V1(generate_xid);
Datum
generate_xid(PG_FUNCTION_ARGS)
{
	return xid_generate();
}

/* The fullrand profile: 64 random bits, no state. */
PG_FUNCTION_INFO_V1(generate_uid11);
Datum
generate_uid11(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64(static_cast<int64>(random64()));
}

PG_FUNCTION_INFO_V1(generate_tid);
Datum
generate_tid(PG_FUNCTION_ARGS)
{
	return tid_generate(PG_NARGS() > 0 ? checked_arg(fcinfo, 0, "clock id", 1023)
									   : tid_default_clock_id());
}

PG_FUNCTION_INFO_V1(generate_ulidflake);
Datum
generate_ulidflake(PG_FUNCTION_ARGS)
{
	return ulidflake_generate(PG_NARGS() > 0 ? checked_arg(fcinfo, 0, "sid", 31) : -1);
}

/*
 * The default ULID: the ms, its fraction in 4096ths and 68 fresh random bits (core's
 * ulid_fraction_next), so that one backend's IDs increase and fill an index from its right edge,
 * as uuidv7() does. The order is this process's: no shared state, no floor (the random bits keep
 * processes apart).
 */
PG_FUNCTION_INFO_V1(generate_ulid);
Datum
generate_ulid(PG_FUNCTION_ARGS)
{
	static idt::ulid_clock clock = {0, false};
	const std::int64_t now = now_unix_us();
	const idt::gen128 g = idt::ulid_fraction_next(clock, now, random32(), random64());
	if (g.status != idt::gen_status::ok)
		report_time_out_of_range("ulid", now);
	PG_RETURN_POINTER(glue::make_id128(g.value));
}

PG_FUNCTION_INFO_V1(generate_ulid_monotonic);
Datum
generate_ulid_monotonic(PG_FUNCTION_ARGS)
{
	idt::u128 out = {0, 0};
	/* The random bits start a ms; within one an ID is the last + 1: drawn only when needed. */
	generate<2, std::uint64_t, 2>("ulid", [&](gen_state &s, std::int64_t now, std::uint64_t *r,
											  bool drawn, std::int64_t &id_us) {
		id_us = now;
		const std::int64_t now_ms = floor_div(now, ms);
		if (!drawn &&
			!(s.ulid.have && now_ms <= static_cast<std::int64_t>(idt::ulid_ms(s.ulid.value))))
			return idt::gen_status::needs_random;
		/* In place: a copy of the two words was one 16-byte load of two 8-byte stores (a
		 * store-forwarding stall on every ID). */
		shrink_random_for_tests(false, r);
		return keep(s.ulid, idt::ulid_next(s.ulid.value, s.ulid.have, now_ms, r[0], r[1]), out);
	});
	PG_RETURN_POINTER(glue::make_id128(out));
}

PG_FUNCTION_INFO_V1(generate_euid);
Datum
generate_euid(PG_FUNCTION_ARGS)
{
	return euid_generate(PG_NARGS() > 0 ? checked_arg(fcinfo, 0, "extension", 32767) : -1);
}

/* ---- the _at variants: the given time, fresh randomness, no monotonic state ---------------- */

PG_FUNCTION_INFO_V1(generate_xid_at);
Datum
generate_xid_at(PG_FUNCTION_ARGS)
{
	const std::uint64_t t = arg_ms_since(fcinfo, 0, "uid11", idt::xid_epoch_ms, idt::xid_max_ms);
	PG_RETURN_INT64(static_cast<int64>(idt::xid_pack(t, random32())));
}

PG_FUNCTION_INFO_V1(generate_tid_at);
Datum
generate_tid_at(PG_FUNCTION_ARGS)
{
	const std::int64_t us =
		arg_unix_us(fcinfo, 0, "timeid", 0, static_cast<std::int64_t>(idt::timeid_max_us));
	const unsigned clock_id =
		PG_NARGS() > 1 ? checked_arg(fcinfo, 1, "clock id", 1023) : tid_default_clock_id();
	PG_RETURN_INT64(static_cast<int64>(idt::timeid_pack(static_cast<std::uint64_t>(us), clock_id)));
}

PG_FUNCTION_INFO_V1(generate_ulidflake_at);
Datum
generate_ulidflake_at(PG_FUNCTION_ARGS)
{
	const std::uint64_t t =
		arg_ms_since(fcinfo, 0, "ulidflake", idt::ulidflake_epoch_ms, idt::ulidflake_max_ms);
	std::uint64_t field = random32() & ((1u << idt::ulidflake_random_bits) - 1);
	if (PG_NARGS() > 1)
		field = (field & ~31ull) | static_cast<std::uint64_t>(checked_arg(fcinfo, 1, "sid", 31));
	PG_RETURN_INT64(static_cast<int64>(idt::ulidflake_pack(t, field)));
}

PG_FUNCTION_INFO_V1(generate_ulid_at);
Datum
generate_ulid_at(PG_FUNCTION_ARGS)
{
	const std::uint64_t t = arg_ms_since(fcinfo, 0, "ulid", 0, idt::ulid_max_ms);
	PG_RETURN_POINTER(glue::make_id128(idt::ulid_pack(t, random32(), random64())));
}

PG_FUNCTION_INFO_V1(generate_euid_at);
Datum
generate_euid_at(PG_FUNCTION_ARGS)
{
	const std::uint64_t t = arg_ms_since(fcinfo, 0, "euid", 0, idt::euid_max_ms);
	const int ext = PG_NARGS() > 1 ? checked_arg(fcinfo, 1, "extension", 32767) : -1;
	PG_RETURN_POINTER(glue::make_id128(idt::euid_pack(t, ext, random32(), random64())));
}

} /* extern "C" */
