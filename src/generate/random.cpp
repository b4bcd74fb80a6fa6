/* random.cpp: the generators' random bits, a per-process ChaCha20 stream keyed from
 * pg_strong_random(). */
#include "idtypes/chacha.hpp"

#include "state.h"

extern "C" {
#include "miscadmin.h"
}

namespace gen
{

/*
 * Keyed from pg_strong_random() on first use, stirred with 32 fresh strong bytes after every
 * rekey_after bytes of output, and keyed anew in a process whose pid is not the one that keyed
 * it, so that no two processes (a forked child, a parallel worker) ever share a stream. MyProcPid
 * is that pid, set by every process at its start (getpid() would be a system call on every draw).
 * pg_strong_random() is a system call; this is a few nanoseconds a draw.
 */
namespace
{
idt::chacha_rng rng;
int rng_pid = 0;
std::size_t rng_left = 0; /* bytes before the next stir */
constexpr std::size_t rekey_after = 1 << 20;

void
strong_bytes(unsigned char *out, std::size_t n)
{
	if (!pg_strong_random(out, n))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR), errmsg("could not generate random values")));
}

void
rekey()
{
	unsigned char fresh[32];
	strong_bytes(fresh, sizeof(fresh));
	if (rng_pid != MyProcPid)
		idt::chacha_rng_seed(rng, fresh);
	else
		idt::chacha_rng_stir(rng, fresh);
	memset(fresh, 0, sizeof(fresh));
	rng_pid = MyProcPid;
	rng_left = rekey_after;
}

/* Key the stream in a new process, stir it after rekey_after bytes; then count n bytes taken. */
inline void
before_draw(std::size_t n)
{
	if (unlikely(rng_left < n || rng_pid != MyProcPid))
		rekey();
	rng_left -= n;
}
} /* namespace */

std::uint64_t
random64()
{
	before_draw(8);
	return idt::chacha_rng_next64(rng);
}

std::uint32_t
random32()
{
	before_draw(4);
	return idt::chacha_rng_next32(rng);
}

} /* namespace gen */
