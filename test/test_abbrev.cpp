// Unit tests of the 16-byte IDs' abbreviated sort key (idtypes/abbrev.hpp): it keeps order over
// every kind of input (keys made in a random order, as a sort meets its rows), equal IDs get
// equal keys, and IDs counted up within a millisecond get distinct keys.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "idtypes/abbrev.hpp"
#include "test_support.hpp"

namespace
{

struct counted_alloc
{
	int left; // allocations it still grants
	std::vector<std::vector<idt::abbrev_slot>> arrays;
	int live = 0; // arrays granted and not released
};

void *
test_alloc(void *context, std::size_t bytes)
{
	auto *a = static_cast<counted_alloc *>(context);
	if (a->left == 0)
		return nullptr;
	a->left--;
	a->arrays.emplace_back(bytes / sizeof(idt::abbrev_slot));
	a->live++;
	return a->arrays.back().data();
}

// Frees the array at once (AddressSanitizer sees any later use of it).
void
test_release(void *context, void *memory)
{
	auto *a = static_cast<counted_alloc *>(context);
	for (auto &array : a->arrays)
		if (!array.empty() && array.data() == memory)
		{
			std::vector<idt::abbrev_slot>().swap(array);
			a->live--;
			return;
		}
	FAIL("released an array that was not granted, or twice");
}

struct keyed
{
	idt::u128 id;
	std::uint64_t key;
};

// Makes the keys in the given (shuffled) order, then checks them in value order.
void
check_order(std::vector<idt::u128> ids, int allocations, std::mt19937_64 &rng,
			std::size_t *distinct_keys = nullptr)
{
	std::shuffle(ids.begin(), ids.end(), rng);
	counted_alloc a{allocations, {}};
	idt::abbrev128 abbrev(test_alloc, test_release, &a);
	std::vector<keyed> k;
	k.reserve(ids.size());
	for (const idt::u128 &id : ids)
		k.push_back({id, abbrev.key(id.hi, id.lo)});
	// Every outgrown table went back: one array is left, if any was granted.
	REQUIRE(a.live == (a.arrays.empty() ? 0 : 1));
	std::sort(k.begin(), k.end(), [](const keyed &x, const keyed &y) { return x.id < y.id; });
	std::size_t distinct = k.empty() ? 0 : 1;
	for (std::size_t i = 1; i < k.size(); i++)
	{
		INFO("i = " << i);
		if (k[i - 1].id == k[i].id)
			REQUIRE(k[i - 1].key == k[i].key);
		else
		{
			REQUIRE(k[i - 1].key <= k[i].key);
			distinct += k[i - 1].key != k[i].key ? 1 : 0;
		}
	}
	if (distinct_keys != nullptr)
		*distinct_keys = distinct;
}

constexpr std::uint64_t ms_2026 = 1795000000000ull; // a millisecond of 2026-11

idt::u128
id_at(std::uint64_t ms, std::uint64_t r_hi16, std::uint64_t r_lo)
{
	return {(ms << 16) | (r_hi16 & 0xFFFF), r_lo};
}

// A monotonic ULID generator's run: one random start per millisecond, then +1.
void
ulid_runs(std::vector<idt::u128> &out, std::uint64_t first_ms, int ms_count, int per_ms,
		  std::mt19937_64 &rng)
{
	for (int m = 0; m < ms_count; m++)
	{
		std::uint64_t hi = rng() & 0xFFFF, lo = rng();
		for (int i = 0; i < per_ms; i++)
		{
			out.push_back(id_at(first_ms + m, hi, lo));
			if (++lo == 0)
				hi = (hi + 1) & 0xFFFF;
		}
	}
}

// An EUID generator's run: bit 32 of the last word counts up, its low 32 bits are random.
void
euid_runs(std::vector<idt::u128> &out, std::uint64_t first_ms, int ms_count, int per_ms,
		  std::mt19937_64 &rng)
{
	for (int m = 0; m < ms_count; m++)
	{
		const std::uint64_t hi = rng() & 0xFFFF;
		std::uint64_t counter = rng() >> 40;
		for (int i = 0; i < per_ms; i++, counter++)
			out.push_back(id_at(first_ms + m, hi, (counter << 32) | (rng() & 0xFFFFFFFFull)));
	}
}

} // namespace

TEST_CASE("abbrev: the difference code is monotone, exact below 2^17")
{
	std::mt19937_64 rng(11);
	// Exact: every difference in -2^17 .. 2^17 around a base gets its own code, in order.
	const std::uint64_t base_hi = 0x1234, base_lo = 0xFFFFFFFFFFFF0000ull;
	std::uint32_t prev = 0;
	for (std::int64_t d = -(1 << 17) + 1; d < (1 << 17); d++)
	{
		std::uint64_t lo = base_lo + static_cast<std::uint64_t>(d);
		std::uint64_t hi =
			base_hi + (d > 0 && lo < base_lo ? 1 : 0) - (d < 0 && lo > base_lo ? 1 : 0);
		const std::uint32_t c = idt::abbrev_diff_code(hi, lo, base_hi, base_lo);
		REQUIRE(c < (1u << 24));
		if (d > -(1 << 17) + 1)
			REQUIRE(c > prev);
		prev = c;
	}
	// Monotone: random pairs over the whole 80-bit range.
	for (int i = 0; i < rounds(200000); i++)
	{
		const std::uint64_t bh = rng() & 0xFFFF, bl = rng();
		std::uint64_t ah = rng() & 0xFFFF, al = rng(), ch = rng() & 0xFFFF, cl = rng();
		const int shrink = static_cast<int>(rng() % 80);
		if (shrink > 0) // bring c near a, so that both large and small steps are tried
		{
			ch = ah;
			cl = al ^ (rng() >> (64 - std::min(shrink, 63)));
		}
		if (ch < ah || (ch == ah && cl < al))
		{
			std::swap(ah, ch);
			std::swap(al, cl);
		}
		REQUIRE(idt::abbrev_diff_code(ah, al, bh, bl) <= idt::abbrev_diff_code(ch, cl, bh, bl));
	}
	// The ends: the largest differences either way, and none.
	CHECK(idt::abbrev_diff_code(0, 0, 0xFFFF, ~0ull) < idt::abbrev_diff_code(0, 0, 0, 0));
	CHECK(idt::abbrev_diff_code(0, 0, 0, 0) == 1u << 23);
	CHECK(idt::abbrev_diff_code(0xFFFF, ~0ull, 0, 0) > idt::abbrev_diff_code(0, 0, 0, 0));
	CHECK(idt::abbrev_diff_code(0xFFFF, ~0ull, 0, 0) < 1u << 24);
}

TEST_CASE("abbrev: keys keep order and separate monotonic runs")
{
	std::mt19937_64 rng(7);
	const int per_ms = small_run() ? 300 : 3000;
	SECTION("ULID monotonic runs")
	{
		std::vector<idt::u128> ids;
		ulid_runs(ids, ms_2026, 40, per_ms, rng);
		std::size_t distinct = 0;
		check_order(ids, 100, rng, &distinct);
		CHECK(distinct == ids.size());
	}
	SECTION("EUID runs")
	{
		std::vector<idt::u128> ids;
		euid_runs(ids, ms_2026, 40, per_ms, rng);
		std::size_t distinct = 0;
		check_order(ids, 100, rng, &distinct);
		// Neighbours differ by 2^32 plus the difference of two random 32-bit words: a pair
		// closer than the code's 16 bits below the leading one resolve may tie (6 in 120,000).
		CHECK(distinct > ids.size() - ids.size() / 1000);
	}
	SECTION("random IDs, several per millisecond, and duplicates")
	{
		std::vector<idt::u128> ids;
		for (int i = 0; i < per_ms * 20; i++)
			ids.push_back(id_at(ms_2026 + rng() % 50, rng(), rng()));
		for (int i = 0; i < per_ms; i++)
			ids.push_back(ids[rng() % ids.size()]);
		std::size_t distinct = 0;
		check_order(ids, 100, rng, &distinct);
		CHECK(distinct > ids.size() * 9 / 10);
	}
	SECTION("times across and outside the window, edge values")
	{
		std::vector<idt::u128> ids;
		ulid_runs(ids, ms_2026, 5, 50, rng);
		for (std::uint64_t ms :
			 {0ull, 1ull, ms_2026 - (1ull << 39) - 1, ms_2026 - (1ull << 39),
			  ms_2026 - (1ull << 39) + 1, ms_2026 + (1ull << 39) - 3, ms_2026 + (1ull << 39) - 2,
			  ms_2026 + (1ull << 39), (1ull << 48) - 1})
		{
			ulid_runs(ids, ms, 1, 20, rng);
			ids.push_back(id_at(ms, 0, 0));
			ids.push_back(id_at(ms, 0xFFFF, ~0ull));
		}
		for (int i = 0; i < 2000; i++)
			ids.push_back(id_at(rng() >> 16, rng(), rng()));
		for (int round = 0; round < 20; round++)
			check_order(ids, 100, rng);
	}
	SECTION("a table of milliseconds that cannot grow")
	{
		std::vector<idt::u128> ids;
		ulid_runs(ids, ms_2026, 1000, 20, rng);
		euid_runs(ids, ms_2026 + 500, 1000, 20, rng);
		for (int allocations : {0, 1, 2, 3})
			check_order(ids, allocations, rng);
	}
}
