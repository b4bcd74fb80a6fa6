// Unit tests of the ChaCha20 block function (RFC 8439 vectors) and the random bit generator.
#include <cstdint>
#include <cstring>
#include <set>

#include "idtypes/chacha.hpp"

#include "test_support.hpp"

namespace
{

std::string
hex(const unsigned char *p, std::size_t n)
{
	static const char digits[] = "0123456789abcdef";
	std::string s;
	for (std::size_t i = 0; i < n; i++)
	{
		s += digits[p[i] >> 4];
		s += digits[p[i] & 15];
	}
	return s;
}

// Two generators seeded alike, with the seed bytes i * mul + add.
void
seed_pair(idt::chacha_rng &a, idt::chacha_rng &b, int mul, int add)
{
	unsigned char seed[32];
	for (int i = 0; i < 32; i++)
		seed[i] = static_cast<unsigned char>(i * mul + add);
	idt::chacha_rng_seed(a, seed);
	idt::chacha_rng_seed(b, seed);
}

} // namespace

TEST_CASE("chacha20_block: RFC 8439 section 2.3.2", "[chacha]")
{
	std::uint32_t key[8];
	for (int i = 0; i < 8; i++)
		key[i] = static_cast<std::uint32_t>(4 * i) | static_cast<std::uint32_t>(4 * i + 1) << 8 |
				 static_cast<std::uint32_t>(4 * i + 2) << 16 |
				 static_cast<std::uint32_t>(4 * i + 3) << 24;
	const std::uint32_t nonce[3] = {0x09000000, 0x4a000000, 0};
	unsigned char out[64];
	idt::chacha20_block(key, 1, nonce, out);
	CHECK(hex(out, 64) == "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
						  "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e");
	// the next block of the same stream (also what `openssl enc -chacha20` gives)
	idt::chacha20_block(key, 2, nonce, out);
	CHECK(hex(out, 16) == "0a88837739d7bf4ef8ccacb0ea2bb9d6");
}

TEST_CASE("chacha20_blocks: every implementation this CPU runs gives chacha20_block's bytes",
		  "[chacha]")
{
	std::uint32_t key[8];
	for (int i = 0; i < 8; i++)
		key[i] = 0x9e3779b9u * static_cast<std::uint32_t>(i + 1);
	const std::uint32_t nonce[3] = {7, 0x01020304, 0xfffffffe};
	// Counters that wrap within the run of 16 blocks, and a plain start.
	for (std::uint32_t counter : {0u, 0xfffffff9u})
	{
		unsigned char want[64 * 16];
		for (std::uint32_t b = 0; b < 16; b++)
			idt::chacha20_block(key, counter + b, nonce, want + 64 * b);
		int ran = 0;
		for (idt::chacha_lanes which : {idt::chacha_lanes::four, idt::chacha_lanes::eight_avx2,
										idt::chacha_lanes::eight_avx512})
		{
			if (!idt::chacha20_blocks_run(which))
				continue;
			ran++;
			unsigned char got[64 * 16];
			idt::chacha20_blocks(which, key, counter, nonce, got, 16);
			INFO("implementation " << static_cast<int>(which) << ", counter " << counter);
			CHECK(hex(got, sizeof(got)) == hex(want, sizeof(want)));
		}
		CHECK(ran >= 1);
	}
}

TEST_CASE("chacha20_block: the all-zero key and nonce", "[chacha]")
{
	const std::uint32_t key[8] = {};
	const std::uint32_t nonce[3] = {};
	unsigned char out[64];
	idt::chacha20_block(key, 0, nonce, out);
	CHECK(hex(out, 64) == "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
						  "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586");
}

TEST_CASE("chacha_rng: output, key erasure and wiping", "[chacha]")
{
	idt::chacha_rng a, b;
	seed_pair(a, b, 7, 1);

	// The first refill: 16 blocks of the seed key with nonce 0; the first 32 bytes become the
	// next key, the rest is handed out from its end down.
	std::uint32_t key[8];
	std::memcpy(key, a.key, sizeof(key));
	unsigned char stream[64 * idt::chacha_rng::blocks];
	const std::uint32_t nonce0[3] = {0, 0, 0};
	for (std::uint32_t i = 0; i < idt::chacha_rng::blocks; i++)
		idt::chacha20_block(key, i, nonce0, stream + 64 * i);
	const std::uint64_t first = idt::chacha_rng_next64(a);
	std::uint64_t want;
	std::memcpy(&want, stream + sizeof(stream) - 8, 8);
	CHECK(first == want);
	// The old key is gone: the new one is the first 32 bytes as little-endian words (RFC 8439's
	// byte order, on every CPU).
	std::uint32_t next_key[8];
	for (int i = 0; i < 8; i++)
		next_key[i] = static_cast<std::uint32_t>(stream[4 * i]) |
					  static_cast<std::uint32_t>(stream[4 * i + 1]) << 8 |
					  static_cast<std::uint32_t>(stream[4 * i + 2]) << 16 |
					  static_cast<std::uint32_t>(stream[4 * i + 3]) << 24;
	CHECK(std::memcmp(a.key, next_key, 32) == 0);
	CHECK(a.available == sizeof(a.buffer) - 32 - 8);
	// Every block of the refill (computed four at a time) is the RFC block function's.
	CHECK(std::memcmp(a.buffer + 32, stream + 32, a.available) == 0);
	// The next key and what was handed out are wiped from the buffer.
	const unsigned char zero[32] = {};
	CHECK(std::memcmp(a.buffer, zero, 32) == 0);
	CHECK(std::memcmp(a.buffer + 32 + a.available, zero, 8) == 0);

	// The same seed gives the same stream; 10,000 draws across many refills are distinct.
	std::set<std::uint64_t> seen;
	CHECK(idt::chacha_rng_next64(b) == first);
	seen.insert(first);
	for (int i = 1; i < 10000; i++)
	{
		const std::uint64_t x = idt::chacha_rng_next64(a);
		LOOP_REQUIRE(x == idt::chacha_rng_next64(b), "i=" << i);
		seen.insert(x);
	}
	CHECK(seen.size() == 10000);
	CHECK(a.refills == b.refills);
	CHECK(a.refills > 1);

	// Stirring in fresh bytes changes what follows.
	unsigned char fresh[32] = {1};
	idt::chacha_rng_stir(b, fresh);
	CHECK(idt::chacha_rng_next64(a) != idt::chacha_rng_next64(b));
}

TEST_CASE("chacha_rng: 32-bit draws are the same stream, four bytes at a time", "[chacha]")
{
	idt::chacha_rng a, b;
	seed_pair(a, b, 11, 3);
	// Two 32-bit draws hand out the bytes of one 64-bit draw, from the top down, and wipe them;
	// mixed with 64-bit draws across refills (a 64-bit draw with four bytes left refills).
	const unsigned char zero[4] = {};
	for (int i = 0; i < 1000; i++)
	{
		const std::uint64_t whole = idt::chacha_rng_next64(a);
		const std::uint32_t high = idt::chacha_rng_next32(b);
		LOOP_REQUIRE(std::memcmp(b.buffer + 32 + b.available, zero, 4) == 0, "i=" << i);
		const std::uint32_t low = idt::chacha_rng_next32(b);
		unsigned char bytes[8];
		std::memcpy(bytes, &low, 4);
		std::memcpy(bytes + 4, &high, 4);
		std::uint64_t joined;
		std::memcpy(&joined, bytes, 8);
		LOOP_REQUIRE(joined == whole, "i=" << i);
		LOOP_REQUIRE(a.available == b.available, "i=" << i);
	}
	CHECK(a.refills > 1);
}
