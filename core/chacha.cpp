// ChaCha20 (RFC 8439) and a fast-key-erasure random bit generator on top of it.
#include "idtypes/chacha.hpp"

#include <cstring>

namespace idt
{
namespace
{

constexpr std::uint32_t
rotl(std::uint32_t v, int n) noexcept
{
	return (v << n) | (v >> (32 - n));
}

inline void
quarter_round(std::uint32_t *x, int a, int b, int c, int d) noexcept
{
	x[a] += x[b];
	x[d] = rotl(x[d] ^ x[a], 16);
	x[c] += x[d];
	x[b] = rotl(x[b] ^ x[c], 12);
	x[a] += x[b];
	x[d] = rotl(x[d] ^ x[a], 8);
	x[c] += x[d];
	x[b] = rotl(x[b] ^ x[c], 7);
}

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

// Four consecutive blocks (counters counter..counter+3) at once: each 32-bit word of the state
// is a vector of four lanes, one per block, so the rounds run on all four in the same
// instructions (SSE2 on x86-64, NEON on arm64; a plain loop where there is no vector unit).
// The output is byte for byte that of four chacha20_block calls.
typedef std::uint32_t lanes4 __attribute__((vector_size(16)));

// *d = rotl(*d ^ s, n), lane by lane. Vectors go by pointer: passed or returned by value they
// would change the calling convention where the vector unit is optional (i386 without SSE).
inline void
xor_rotl4(lanes4 *d, const lanes4 *s, int n) noexcept
{
	const lanes4 v = *d ^ *s;
	*d = (v << n) | (v >> (32 - n));
}

inline void
quarter_round4(lanes4 *x, int a, int b, int c, int d) noexcept
{
	x[a] += x[b];
	xor_rotl4(&x[d], &x[a], 16);
	x[c] += x[d];
	xor_rotl4(&x[b], &x[c], 12);
	x[a] += x[b];
	xor_rotl4(&x[d], &x[a], 8);
	x[c] += x[d];
	xor_rotl4(&x[b], &x[c], 7);
}

void
chacha20_blocks4(const std::uint32_t key[8], std::uint32_t counter, const std::uint32_t nonce[3],
				 unsigned char out[256]) noexcept
{
	lanes4 in[16];
	const std::uint32_t words[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574, key[0], key[1],
									 key[2],     key[3],     key[4],     key[5],     key[6], key[7],
									 0,          nonce[0],   nonce[1],   nonce[2]};
	for (int i = 0; i < 16; i++)
		in[i] = lanes4{words[i], words[i], words[i], words[i]};
	in[12] = lanes4{counter, counter + 1, counter + 2, counter + 3};
	lanes4 x[16];
	for (int i = 0; i < 16; i++)
		x[i] = in[i];
	for (int i = 0; i < 10; i++)
	{
		quarter_round4(x, 0, 4, 8, 12);
		quarter_round4(x, 1, 5, 9, 13);
		quarter_round4(x, 2, 6, 10, 14);
		quarter_round4(x, 3, 7, 11, 15);
		quarter_round4(x, 0, 5, 10, 15);
		quarter_round4(x, 1, 6, 11, 12);
		quarter_round4(x, 2, 7, 8, 13);
		quarter_round4(x, 3, 4, 9, 14);
	}
	for (int i = 0; i < 16; i++)
	{
		const lanes4 v = x[i] + in[i];
		for (int lane = 0; lane < 4; lane++)
			store_le32(v[lane], out + 64 * lane + 4 * i);
	}
}

// Fill the buffer from the current key and take the next key from the output's first 32 bytes
// (computed in place: no copy of the output to wipe).
void
refill(chacha_rng &r) noexcept
{
	static_assert(chacha_rng::blocks % 4 == 0, "the buffer is filled four blocks at a time");
	const std::uint32_t nonce[3] = {0, static_cast<std::uint32_t>(r.refills),
									static_cast<std::uint32_t>(r.refills >> 32)};
	for (std::size_t i = 0; i < chacha_rng::blocks; i += 4)
		chacha20_blocks4(r.key, static_cast<std::uint32_t>(i), nonce, r.buffer + 64 * i);
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

} // namespace idt
