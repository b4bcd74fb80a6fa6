// A ChaCha20 keystream (RFC 8439) as a random bit generator with fast key erasure.
//
// The glue keys it from pg_strong_random() and draws from it; core only computes. Each refill
// runs the block function over the current key and counter, keeps the first 32 bytes of the
// output as the next key (so a later compromise of the state reveals nothing already handed
// out) and hands out the rest. Nothing here reads a clock, the OS or a global (only the CPU's
// features, once, to pick the block function's implementation).
#pragma once

#include <cstddef>
#include <cstdint>

namespace idt
{

// RFC 8439 section 2.3: one 64-byte block for key, 32-bit block counter and 96-bit nonce.
void chacha20_block(const std::uint32_t key[8], std::uint32_t counter, const std::uint32_t nonce[3],
					unsigned char out[64]) noexcept;

// The implementations of the block function run by the random bit generator: four blocks at a
// time (vector lanes where there are any), eight with AVX2 or AVX-512VL (x86-64). It runs the
// fastest the CPU has; every one gives chacha20_block's bytes.
enum class chacha_lanes
{
	four,
	eight_avx2,
	eight_avx512
};
// Whether this build and CPU run the implementation.
bool chacha20_blocks_run(chacha_lanes which) noexcept;
// Blocks counter .. counter + n - 1 (n a multiple of 8) into out (64 * n bytes), with an
// implementation that chacha20_blocks_run() says runs.
void chacha20_blocks(chacha_lanes which, const std::uint32_t key[8], std::uint32_t counter,
					 const std::uint32_t nonce[3], unsigned char *out, std::size_t n) noexcept;
struct chacha_rng
{
	static constexpr std::size_t blocks = 16;
	static constexpr std::size_t buffer_size = 64 * blocks;
	std::uint32_t key[8];
	std::uint64_t refills; // the nonce: a new one for every refill of a key
	// A refill's whole output: its first 32 bytes become the next key and are wiped; the rest is
	// handed out from the end down, and what is left lies at [32, 32 + available).
	unsigned char buffer[buffer_size];
	std::size_t available; // bytes left
};

// Start from 32 seed bytes (from a strong source).
void chacha_rng_seed(chacha_rng &r, const unsigned char seed[32]) noexcept;

// Mix 32 fresh bytes into the key (a rekey from the strong source) and drop buffered output.
void chacha_rng_stir(chacha_rng &r, const unsigned char fresh[32]) noexcept;

// The next 64 random bits. Bytes handed out are wiped from the buffer.
std::uint64_t chacha_rng_next64(chacha_rng &r) noexcept;

// The next 32 random bits, likewise (the next four bytes of the same output).
std::uint32_t chacha_rng_next32(chacha_rng &r) noexcept;

} // namespace idt
