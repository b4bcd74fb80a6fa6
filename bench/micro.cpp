// micro.cpp: Google Benchmark of the core codecs (ns per parse and per format of each type),
// next to strtoull/snprintf and a hex uuid codec in the same binary, so that a regression in a
// codec shows without a server, and the cost of one draw of the generators' random stream. Built and
// run by `make bench-micro`.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "idtypes/chacha.hpp"
#include "idtypes/formats.hpp"

namespace
{

constexpr std::size_t pool = 1024; // distinct inputs, cycled, so branch predictors see variety

std::vector<std::uint64_t>
values64(std::uint64_t mask)
{
	std::mt19937_64 rng(42);
	std::vector<std::uint64_t> v(pool);
	for (auto &x : v)
		x = rng() & mask;
	return v;
}

std::vector<idt::u128>
values128()
{
	std::mt19937_64 rng(43);
	std::vector<idt::u128> v(pool);
	for (auto &x : v)
		x = {rng(), rng()};
	return v;
}

// The comparison codec: a uuid's 32 hex digits with dashes, as PostgreSQL's uuid_out/uuid_in.
void
hex_format(idt::u128 v, char out[36])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char b[16];
	for (int i = 0; i < 8; i++)
	{
		b[i] = static_cast<unsigned char>(v.hi >> (56 - 8 * i));
		b[8 + i] = static_cast<unsigned char>(v.lo >> (56 - 8 * i));
	}
	int o = 0;
	for (int i = 0; i < 16; i++)
	{
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[o++] = '-';
		out[o++] = digits[b[i] >> 4];
		out[o++] = digits[b[i] & 15];
	}
}

int
hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

bool
hex_parse(const char *s, idt::u128 &v)
{
	std::uint64_t w[2] = {0, 0};
	int n = 0;
	for (int i = 0; i < 36; i++)
	{
		if (s[i] == '-')
			continue;
		const int d = hexval(s[i]);
		if (d < 0)
			return false;
		w[n / 16] = (w[n / 16] << 4) | static_cast<std::uint64_t>(d);
		n++;
	}
	v = {w[0], w[1]};
	return n == 32;
}

template <std::size_t Len, class Format, class V>
std::vector<std::string>
texts(const std::vector<V> &vals, Format fmt)
{
	std::vector<std::string> t;
	for (const V &x : vals)
	{
		char buf[64];
		fmt(x, buf);
		t.emplace_back(buf, Len);
	}
	return t;
}

template <std::size_t Len, class Format, class V>
void
bench_format(benchmark::State &state, const std::vector<V> &vals, Format fmt)
{
	char out[64];
	std::size_t i = 0;
	for (auto _ : state)
	{
		fmt(vals[i++ % pool], out);
		benchmark::DoNotOptimize(out);
		benchmark::ClobberMemory();
	}
}

template <class Parse>
void
bench_parse(benchmark::State &state, const std::vector<std::string> &ts, Parse parse)
{
	std::size_t i = 0;
	for (auto _ : state)
	{
		const std::string &t = ts[i++ % pool];
		auto r = parse(t.data(), t.size());
		benchmark::DoNotOptimize(r);
	}
}

const auto v64 = values64(~0ull);
const auto v63 = values64(~0ull >> 1);
const auto v128 = values128();

void uid11_format(benchmark::State &s) { bench_format<11>(s, v64, idt::uid11_format); }
void timeid_format(benchmark::State &s) { bench_format<13>(s, v63, idt::timeid_format); }
void ulidflake_format(benchmark::State &s) { bench_format<13>(s, v63, idt::ulidflake_format); }
void ulid_format(benchmark::State &s) { bench_format<26>(s, v128, idt::ulid_format); }
void euid_format(benchmark::State &s) { bench_format<27>(s, v128, idt::euid_format); }
void uuid_hex_format(benchmark::State &s) { bench_format<36>(s, v128, hex_format); }
void snprintf_u64(benchmark::State &s)
{
	bench_format<20>(s, v64, [](std::uint64_t x, char *out) { snprintf(out, 21, "%" PRIu64, x); });
}

void uid11_parse(benchmark::State &s) { bench_parse(s, texts<11>(v64, idt::uid11_format), idt::uid11_parse); }
void timeid_parse(benchmark::State &s) { bench_parse(s, texts<13>(v63, idt::timeid_format), idt::timeid_parse); }
void ulidflake_parse(benchmark::State &s)
{
	bench_parse(s, texts<13>(v63, idt::ulidflake_format), idt::ulidflake_parse);
}
void ulid_parse(benchmark::State &s) { bench_parse(s, texts<26>(v128, idt::ulid_format), idt::ulid_parse); }
void euid_parse(benchmark::State &s) { bench_parse(s, texts<27>(v128, idt::euid_format), idt::euid_parse); }
void uuid_hex_parse(benchmark::State &s)
{
	bench_parse(s, texts<36>(v128, hex_format), [](const char *t, std::size_t) {
		idt::u128 v;
		return hex_parse(t, v) ? v.lo : 0;
	});
}
void strtoull_u64(benchmark::State &s)
{
	std::vector<std::string> ts;
	for (std::uint64_t x : v64)
		ts.push_back(std::to_string(x));
	bench_parse(s, ts, [](const char *t, std::size_t) { return std::strtoull(t, nullptr, 10); });
}

// One draw of the generators' random stream (refills included, amortised): 64 bits, or 32 bits,
// what xid and ulidflake take per ID.
template <class Word, Word (*Next)(idt::chacha_rng &) noexcept>
void chacha_draw(benchmark::State &s)
{
	idt::chacha_rng r;
	const unsigned char seed[32] = {1, 2, 3};
	idt::chacha_rng_seed(r, seed);
	for (auto _ : s)
		benchmark::DoNotOptimize(Next(r));
}
void chacha_next64(benchmark::State &s)
{
	chacha_draw<std::uint64_t, idt::chacha_rng_next64>(s);
}
void chacha_next32(benchmark::State &s)
{
	chacha_draw<std::uint32_t, idt::chacha_rng_next32>(s);
}

// One read of the wall clock, as each generator call makes (clock_gettime through the vDSO where
// the kernel offers one): the floor under the time-ordered generators' cost per ID.
void clock_realtime(benchmark::State &s)
{
	struct timespec ts;
	for (auto _ : s)
	{
		clock_gettime(CLOCK_REALTIME, &ts);
		benchmark::DoNotOptimize(ts);
	}
}

} // namespace

BENCHMARK(uid11_format);
BENCHMARK(timeid_format);
BENCHMARK(ulidflake_format);
BENCHMARK(snprintf_u64);
BENCHMARK(ulid_format);
BENCHMARK(euid_format);
BENCHMARK(uuid_hex_format);
BENCHMARK(uid11_parse);
BENCHMARK(timeid_parse);
BENCHMARK(ulidflake_parse);
BENCHMARK(strtoull_u64);
BENCHMARK(ulid_parse);
BENCHMARK(euid_parse);
BENCHMARK(uuid_hex_parse);
BENCHMARK(chacha_next64);
BENCHMARK(chacha_next32);
BENCHMARK(clock_realtime);

BENCHMARK_MAIN();
