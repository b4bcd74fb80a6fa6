// ChaCha20 (RFC 8439) and a fast-key-erasure random bit generator on top of it.
#include "idtypes/chacha.hpp"

#include <cstring>

namespace idt
{
namespace
{

inline std::uint32_t
load_le32(const unsigned char *p) noexcept
{
	return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
		   static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

inline void
store_le32(std::uint32_t v, unsigned char *p) noexcept
{
	p[0] = static_cast<unsigned char>(v);
	p[1] = static_cast<unsigned char>(v >> 8);
	p[2] = static_cast<unsigned char>(v >> 16);
	p[3] = static_cast<unsigned char>(v >> 24);
}

// Several consecutive blocks (counters counter, counter + 1, ...) at once: each 32-bit word of
// the state is a vector with one lane per block, so the rounds run on all of them in the same
// instructions (four lanes: SSE2 on x86-64, NEON on arm64, a plain loop where there is no vector
// unit; eight: AVX2, where the CPU has it). The output is byte for byte that of one
// chacha20_block call per block.
typedef std::uint32_t lanes4 __attribute__((vector_size(16)));
#if defined(__x86_64__)
#define IDT_CHACHA_LANES8 1
typedef std::uint32_t lanes8 __attribute__((vector_size(32)));
#endif

// *d = (*d ^ *s) rotated left by n (lane by lane in a vector). Vectors go by pointer: passed or
// returned by value they would change the calling convention where the vector unit is optional
// (i386 without SSE, AVX).
template <class V>
inline __attribute__((always_inline)) void
xor_rotl(V *d, const V *s, int n) noexcept
{
	const V v = *d ^ *s;
	*d = (v << n) | (v >> (32 - n));
}

template <class V>
inline __attribute__((always_inline)) void
quarter_round(V *x, int a, int b, int c, int d) noexcept
{
	x[a] += x[b];
	xor_rotl(&x[d], &x[a], 16);
	x[c] += x[d];
	xor_rotl(&x[b], &x[c], 12);
	x[a] += x[b];
	xor_rotl(&x[d], &x[a], 8);
	x[c] += x[d];
	xor_rotl(&x[b], &x[c], 7);
}

// ChaCha20's 20 rounds over the state x: V is a word (one block) or a vector of words (one block
// per lane).
template <class V>
inline __attribute__((always_inline)) void
rounds(V *x) noexcept
{
	for (int i = 0; i < 10; i++)
	{
		quarter_round(x, 0, 4, 8, 12);
		quarter_round(x, 1, 5, 9, 13);
		quarter_round(x, 2, 6, 10, 14);
		quarter_round(x, 3, 7, 11, 15);
		quarter_round(x, 0, 5, 10, 15);
		quarter_round(x, 1, 6, 11, 12);
		quarter_round(x, 2, 7, 8, 13);
		quarter_round(x, 3, 4, 9, 14);
	}
}

// The blocks' 16 words (x[i]: word i of every block) out as N blocks of 64 bytes, block by block:
// four words at a time, turned from a vector per word into a vector per block (a transpose of 4
// vectors, in registers), so that each block's 16 bytes go out in one store. Little-endian only
// (the words go out in memory order); elsewhere, word by word.
inline __attribute__((always_inline)) void
store_blocks(const lanes4 *x, unsigned char *out) noexcept
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (int i = 0; i < 16; i += 4)
	{
		const lanes4 a = __builtin_shufflevector(x[i], x[i + 1], 0, 4, 1, 5);
		const lanes4 b = __builtin_shufflevector(x[i], x[i + 1], 2, 6, 3, 7);
		const lanes4 c = __builtin_shufflevector(x[i + 2], x[i + 3], 0, 4, 1, 5);
		const lanes4 d = __builtin_shufflevector(x[i + 2], x[i + 3], 2, 6, 3, 7);
		const lanes4 rows[4] = {
			__builtin_shufflevector(a, c, 0, 1, 4, 5), __builtin_shufflevector(a, c, 2, 3, 6, 7),
			__builtin_shufflevector(b, d, 0, 1, 4, 5), __builtin_shufflevector(b, d, 2, 3, 6, 7)};
		for (int lane = 0; lane < 4; lane++)
			std::memcpy(out + 64 * lane + 4 * i, &rows[lane], 16);
	}
#else
	for (int i = 0; i < 16; i++)
		for (int lane = 0; lane < 4; lane++)
			store_le32(x[i][lane], out + 64 * lane + 4 * i);
#endif
}

#ifdef IDT_CHACHA_LANES8
// The same for eight lanes (x86-64: little-endian); an AVX2 shuffle works within each 16-byte
// half, so a row holds block lane in its low half and block lane + 4 in its high half.
inline __attribute__((always_inline)) void
store_blocks(const lanes8 *x, unsigned char *out) noexcept
{
	for (int i = 0; i < 16; i += 4)
	{
		const lanes8 a = __builtin_shufflevector(x[i], x[i + 1], 0, 8, 1, 9, 4, 12, 5, 13);
		const lanes8 b = __builtin_shufflevector(x[i], x[i + 1], 2, 10, 3, 11, 6, 14, 7, 15);
		const lanes8 c = __builtin_shufflevector(x[i + 2], x[i + 3], 0, 8, 1, 9, 4, 12, 5, 13);
		const lanes8 d = __builtin_shufflevector(x[i + 2], x[i + 3], 2, 10, 3, 11, 6, 14, 7, 15);
		const lanes8 rows[4] = {__builtin_shufflevector(a, c, 0, 1, 8, 9, 4, 5, 12, 13),
								__builtin_shufflevector(a, c, 2, 3, 10, 11, 6, 7, 14, 15),
								__builtin_shufflevector(b, d, 0, 1, 8, 9, 4, 5, 12, 13),
								__builtin_shufflevector(b, d, 2, 3, 10, 11, 6, 7, 14, 15)};
		for (int lane = 0; lane < 4; lane++)
		{
			const unsigned char *row = reinterpret_cast<const unsigned char *>(&rows[lane]);
			std::memcpy(out + 64 * lane + 4 * i, row, 16);
			std::memcpy(out + 64 * (lane + 4) + 4 * i, row + 16, 16);
		}
	}
}
#endif

// N blocks into out (64 * N bytes), V a vector of N lanes. Inlined into each caller, so that it
// is compiled for the caller's instruction set.
template <class V, int N>
inline __attribute__((always_inline)) void
chacha20_blocks(const std::uint32_t key[8], std::uint32_t counter, const std::uint32_t nonce[3],
				unsigned char *out) noexcept
{
	V in[16];
	const std::uint32_t words[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574, key[0], key[1],
									 key[2],     key[3],     key[4],     key[5],     key[6], key[7],
									 0,          nonce[0],   nonce[1],   nonce[2]};
	for (int i = 0; i < 16; i++)
		for (int lane = 0; lane < N; lane++)
			in[i][lane] = words[i];
	for (int lane = 0; lane < N; lane++)
		in[12][lane] = counter + static_cast<std::uint32_t>(lane);
	V x[16];
	for (int i = 0; i < 16; i++)
		x[i] = in[i];
	rounds(x);
	for (int i = 0; i < 16; i++)
		x[i] += in[i];
	store_blocks(x, out);
}

void
chacha20_blocks4(const std::uint32_t key[8], std::uint32_t counter, const std::uint32_t nonce[3],
				 unsigned char out[256]) noexcept
{
	chacha20_blocks<lanes4, 4>(key, counter, nonce, out);
}

#ifdef IDT_CHACHA_LANES8
__attribute__((target("avx2"))) void
chacha20_blocks8_avx2(const std::uint32_t key[8], std::uint32_t counter,
					  const std::uint32_t nonce[3], unsigned char out[512]) noexcept
{
	chacha20_blocks<lanes8, 8>(key, counter, nonce, out);
}

// The same with AVX-512VL: the eight lanes rotate in one instruction (vprold), not three.
__attribute__((target("avx2,avx512f,avx512vl"))) void
chacha20_blocks8_avx512(const std::uint32_t key[8], std::uint32_t counter,
						const std::uint32_t nonce[3], unsigned char out[512]) noexcept
{
	chacha20_blocks<lanes8, 8>(key, counter, nonce, out);
}
#endif

// Does this CPU run the implementation? Asked of the CPU once (two threads asking at once would
// get the same answers).
bool
runs(chacha_lanes which) noexcept
{
	if (which == chacha_lanes::four)
		return true;
#ifdef IDT_CHACHA_LANES8
	static int features = -1; /* -1: not asked yet; else bit 0 AVX2, bit 1 AVX-512VL (one store) */
	if (features < 0)
	{
		__builtin_cpu_init();
		const bool avx2 = __builtin_cpu_supports("avx2");
		const bool avx512 =
			avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
		features = (avx2 ? 1 : 0) | (avx512 ? 2 : 0);
	}
	return (features & (which == chacha_lanes::eight_avx2 ? 1 : 2)) != 0;
#else
	return false;
#endif
}

// Blocks counter .. counter + n - 1 (n a multiple of 8) into out with the implementation, which
// this CPU runs.
void
blocks_with(chacha_lanes which, const std::uint32_t key[8], std::uint32_t counter,
			const std::uint32_t nonce[3], unsigned char *out, std::size_t n) noexcept
{
#ifdef IDT_CHACHA_LANES8
	if (which != chacha_lanes::four)
	{
		for (std::size_t block = 0; block < n; block += 8)
		{
			const auto c = counter + static_cast<std::uint32_t>(block);
			if (which == chacha_lanes::eight_avx512)
				chacha20_blocks8_avx512(key, c, nonce, out + 64 * block);
			else
				chacha20_blocks8_avx2(key, c, nonce, out + 64 * block);
		}
		return;
	}
#else
	(void) which; /* runs() says only four lanes run here */
#endif
	for (std::size_t block = 0; block < n; block += 4)
		chacha20_blocks4(key, counter + static_cast<std::uint32_t>(block), nonce, out + 64 * block);
}

// The fastest implementation this CPU runs.
chacha_lanes
fastest() noexcept
{
	return runs(chacha_lanes::eight_avx512) ? chacha_lanes::eight_avx512
		   : runs(chacha_lanes::eight_avx2) ? chacha_lanes::eight_avx2
											: chacha_lanes::four;
}

// Fill the buffer from the current key and take the next key from the output's first 32 bytes
// (computed in place: no copy of the output to wipe).
void
refill(chacha_rng &r) noexcept
{
	const std::uint32_t nonce[3] = {0, static_cast<std::uint32_t>(r.refills),
									static_cast<std::uint32_t>(r.refills >> 32)};
	static_assert(chacha_rng::blocks % 8 == 0, "or eight at a time");
	blocks_with(fastest(), r.key, 0, nonce, r.buffer, chacha_rng::blocks);
	r.refills++;
	for (int i = 0; i < 8; i++)
		r.key[i] = load_le32(r.buffer + 4 * i);
	std::memset(r.buffer, 0, 32);
	r.available = sizeof(r.buffer) - 32;
}

} // namespace

void
chacha20_block(const std::uint32_t key[8], std::uint32_t counter, const std::uint32_t nonce[3],
			   unsigned char out[64]) noexcept
{
	// "expand 32-byte k"
	const std::uint32_t in[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574, key[0], key[1],
								  key[2],     key[3],     key[4],     key[5],     key[6], key[7],
								  counter,    nonce[0],   nonce[1],   nonce[2]};
	std::uint32_t x[16];
	std::memcpy(x, in, sizeof(x));
	rounds(x);
	for (int i = 0; i < 16; i++)
		store_le32(x[i] + in[i], out + 4 * i);
}

void
chacha_rng_seed(chacha_rng &r, const unsigned char seed[32]) noexcept
{
	for (int i = 0; i < 8; i++)
		r.key[i] = load_le32(seed + 4 * i);
	r.refills = 0;
	r.available = 0;
}

void
chacha_rng_stir(chacha_rng &r, const unsigned char fresh[32]) noexcept
{
	for (int i = 0; i < 8; i++)
		r.key[i] ^= load_le32(fresh + 4 * i);
	std::memset(r.buffer, 0, sizeof(r.buffer));
	r.available = 0;
}

namespace
{
// The next sizeof(T) bytes of output, taken from the top of what is left, and wiped.
template <class T>
T
take(chacha_rng &r) noexcept
{
	if (r.available < sizeof(T))
		refill(r);
	r.available -= sizeof(T);
	unsigned char *p = r.buffer + 32 + r.available;
	T v;
	std::memcpy(&v, p, sizeof(T));
	std::memset(p, 0, sizeof(T));
	return v;
}
} // namespace

std::uint64_t
chacha_rng_next64(chacha_rng &r) noexcept
{
	return take<std::uint64_t>(r);
}

std::uint32_t
chacha_rng_next32(chacha_rng &r) noexcept
{
	return take<std::uint32_t>(r);
}

bool
chacha20_blocks_run(chacha_lanes which) noexcept
{
	return runs(which);
}

void
chacha20_blocks(chacha_lanes which, const std::uint32_t key[8], std::uint32_t counter,
				const std::uint32_t nonce[3], unsigned char *out, std::size_t n) noexcept
{
	blocks_with(which, key, counter, nonce, out, n);
}

} // namespace idt
