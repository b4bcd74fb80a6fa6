// The order-keeping abbreviation of 16-byte IDs: see abbrev.hpp.
#include "idtypes/abbrev.hpp"

namespace idt
{

namespace
{

constexpr unsigned time_bits = 40;
constexpr unsigned code_bits = 24;
constexpr std::int64_t time_offset = std::int64_t{1} << (time_bits - 1);
constexpr std::int64_t time_max = (std::int64_t{1} << time_bits) - 2;

inline unsigned
bit_length(std::uint64_t v) noexcept
{
	return v == 0 ? 0 : 64 - static_cast<unsigned>(__builtin_clzll(v));
}

inline std::size_t
slot_of(std::uint64_t t, std::size_t capacity) noexcept
{
	return static_cast<std::size_t>((t * 0x9E3779B97F4A7C15ull) >> 32) & (capacity - 1);
}

} // namespace

std::uint32_t
abbrev_diff_code(std::uint64_t r_hi, std::uint64_t r_lo, std::uint64_t base_hi,
				 std::uint64_t base_lo) noexcept
{
	const bool negative = r_hi < base_hi || (r_hi == base_hi && r_lo < base_lo);
	std::uint64_t m_hi, m_lo; // |d|, below 2^80
	if (negative)
	{
		m_lo = base_lo - r_lo;
		m_hi = base_hi - r_hi - (base_lo < r_lo ? 1 : 0);
	}
	else
	{
		m_lo = r_lo - base_lo;
		m_hi = r_hi - base_hi - (r_lo < base_lo ? 1 : 0);
	}
	const unsigned e = m_hi != 0 ? 64 + bit_length(m_hi) : bit_length(m_lo); // 0 .. 80
	// The 17 bits from the leading one down (fewer below 2^17: shifted up, exact).
	std::uint64_t top;
	if (e <= 17)
		top = m_lo << (17 - e);
	else
	{
		const unsigned s = e - 17; // 1 .. 63
		top = (m_lo >> s) | (m_hi << (64 - s));
	}
	const std::uint32_t magnitude = (static_cast<std::uint32_t>(e) << 16) |
									static_cast<std::uint32_t>(top & 0xFFFF); // below 2^23
	const std::uint32_t half = std::uint32_t{1} << (code_bits - 1);
	return negative ? half - 1 - magnitude : half | magnitude;
}

bool
abbrev128::grow() noexcept
{
	const std::size_t capacity = capacity_ == 0 ? min_slots : capacity_ * 2;
	if (capacity > max_slots || alloc_ == nullptr)
		return false;
	auto *slots = static_cast<abbrev_slot *>(alloc_(context_, capacity * sizeof(abbrev_slot)));
	if (slots == nullptr)
		return false;
	for (std::size_t i = 0; i < capacity_; i++)
	{
		const abbrev_slot &old = slots_[i];
		if (old.t_plus_1 == 0)
			continue;
		std::size_t j = slot_of(old.t_plus_1 - 1, capacity);
		while (slots[j].t_plus_1 != 0)
			j = (j + 1) & (capacity - 1);
		slots[j] = old;
	}
	if (slots_ != nullptr && release_ != nullptr)
		release_(context_, slots_);
	slots_ = slots;
	capacity_ = capacity;
	return true;
}

const abbrev_slot *
abbrev128::base_of(std::uint64_t t, std::uint64_t r_hi, std::uint64_t r_lo) noexcept
{
	if (capacity_ != 0)
	{
		std::size_t j = slot_of(t, capacity_);
		for (;;)
		{
			const abbrev_slot &s = slots_[j];
			if (s.t_plus_1 == t + 1)
				return &s;
			if (s.t_plus_1 == 0)
				break;
			j = (j + 1) & (capacity_ - 1);
		}
	}
	if (full_)
		return nullptr;
	if (2 * (used_ + 1) > capacity_ && !grow())
	{
		full_ = true;
		return nullptr;
	}
	std::size_t j = slot_of(t, capacity_);
	while (slots_[j].t_plus_1 != 0)
		j = (j + 1) & (capacity_ - 1);
	slots_[j] = {t + 1, r_hi, r_lo};
	used_++;
	return &slots_[j];
}

std::uint64_t
abbrev128::key(std::uint64_t hi, std::uint64_t lo) noexcept
{
	const std::uint64_t t = hi >> 16;
	const std::uint64_t r_hi = hi & 0xFFFF;
	if (!started_)
	{
		t0_ = t;
		started_ = true;
	}
	const std::int64_t rel =
		static_cast<std::int64_t>(t) - static_cast<std::int64_t>(t0_) + time_offset;
	if (rel < 1)
		return 0;
	if (rel > time_max)
		return ~std::uint64_t{0};
	const abbrev_slot *base = base_of(t, r_hi, lo);
	const std::uint32_t code = base != nullptr
								   ? abbrev_diff_code(r_hi, lo, base->base_hi, base->base_lo)
								   : abbrev_diff_code(r_hi, lo, 0, 0);
	return (static_cast<std::uint64_t>(rel) << code_bits) | code;
}

} // namespace idt
