// An order-keeping 64-bit abbreviation of 16-byte IDs that begin with a 48-bit time.
//
// A sort compares abbreviated keys first and reads the full values only when two keys tie, so
// a key must keep order (a < b implies key(a) <= key(b)) and should separate the values a sort
// meets. The leading 8 bytes keep order but tie for IDs of one millisecond from a monotonic
// generator (ULID adds 1 to its 80 random bits, EUID to bit 32 of them): they share their time
// and the high bits of their random part, and differ only in low bits.
//
// This key is made of two fields:
//   bits 63-24: the time t relative to the first ID the sort abbreviates, plus 2^39 (about 17
//               years either side of it; an ID outside that window gets key 0 below it and
//               2^64-1 above it, which keeps order and leaves the tie to the full comparison);
//   bits 23-0:  the difference d = r - base(t) of the 80 bits r that follow the time, where
//               base(t) is the r of the first ID of millisecond t that the sort abbreviated,
//               coded as a floating-point number (sign, 7-bit exponent, 16 bits below the
//               leading one): exact while |d| < 2^17, so IDs counted up from one random start
//               get distinct keys; random bits (|d| near 2^79) keep their 16 leading bits, as
//               the plain leading bytes did.
// The code of d is monotone within a millisecond, and the time field orders across
// milliseconds, so key order is value order. base(t) is kept in a table of milliseconds; once
// the table is full (max_slots / 2 milliseconds), a millisecond met for the first time takes
// base 0, and keeps it: a key depends only on the ID and the IDs abbreviated before it, and is
// the same each time for the same ID.
#pragma once

#include <cstddef>
#include <cstdint>

namespace idt
{

// The code of d = r - base over 80-bit values (high 16 bits, low 64): 24 bits, monotone in d.
std::uint32_t abbrev_diff_code(std::uint64_t r_hi, std::uint64_t r_lo, std::uint64_t base_hi,
							   std::uint64_t base_lo) noexcept;

struct abbrev_slot
{
	std::uint64_t t_plus_1; // 0: empty
	std::uint64_t base_hi;
	std::uint64_t base_lo;
};

// The table of milliseconds grows by doubling; memory comes from the caller's allocator
// (zeroed memory of the given size, or nullptr) and an outgrown table goes back to its release
// function (which may be nullptr: the memory then goes with the caller's context). A table the
// allocator cannot grow stays as it is, and its new milliseconds take base 0.
using abbrev_alloc = void *(*) (void *context, std::size_t bytes);
using abbrev_release = void (*)(void *context, void *memory);

class abbrev128
{
public:
	static constexpr unsigned min_slots = 256;
	static constexpr unsigned max_slots = 1u << 17;

	abbrev128(abbrev_alloc alloc, abbrev_release release, void *context) noexcept
		: alloc_(alloc), release_(release), context_(context)
	{
	}

	// hi and lo: the ID's two big-endian halves as unsigned integers.
	std::uint64_t key(std::uint64_t hi, std::uint64_t lo) noexcept;

	std::size_t milliseconds() const noexcept { return used_; }

private:
	const abbrev_slot *base_of(std::uint64_t t, std::uint64_t r_hi, std::uint64_t r_lo) noexcept;
	bool grow() noexcept;

	abbrev_alloc alloc_;
	abbrev_release release_;
	void *context_;
	abbrev_slot *slots_ = nullptr;
	std::size_t capacity_ = 0; // a power of two, or 0
	std::size_t used_ = 0;
	bool full_ = false;
	bool started_ = false;
	std::uint64_t t0_ = 0;
};

} // namespace idt
