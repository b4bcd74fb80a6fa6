// The two codecs: fixed-width Base58 (uid11) and base-32 with three alphabets (TID, Crockford, EUID).
//
// Every function here is noexcept, allocates nothing and writes only to caller-supplied buffers.
#pragma once

#include "idtypes/common.hpp"

namespace idt
{

// ---- Base58, Bitcoin alphabet, fixed width 11 ------------------------------------------------

constexpr std::size_t uid11_len = 11;

// Strictly decode exactly 11 alphabet symbols. Rejects any other length (bad_length), any
// non-alphabet byte (bad_symbol, its offset) and values above 2^64-1 (out_of_range:
// 58^11 ~ 2^64.4, so the top of the 11-symbol space does not fit in 64 bits).
parse64 base58_decode11(const char *text, std::size_t len) noexcept;

// Encode value as exactly 11 symbols, MSB first, left-padded with '1'. Writes no NUL.
void base58_encode11(std::uint64_t value, char out[11]) noexcept;

// Value of a symbol (0..57), or -1.
int base58_symbol_value(char c) noexcept;

// Index of the first byte of text[0, len) that is no symbol, or -1 (what a report of a wrong
// length names).
int base58_find_non_symbol(const char *text, std::size_t len) noexcept;

// ---- base 32 -----------------------------------------------------------------------------------

enum class b32 : std::uint8_t
{
	sortable,  // TID's "234567abcdefghijklmnopqrstuvwxyz"; lower case only
	crockford, // "0123456789ABCDEFGHJKMNPQRSTVWXYZ"; either case; I L O U rejected
	euid,      // crockford plus the aliases I i L l -> 1 and O o -> 0; U rejected
};

// Map n symbols to their 5-bit values. Returns -1, or the index of the first bad symbol.
int b32_to_digits(const char *text, std::size_t n, b32 alphabet, std::uint8_t *digits) noexcept;

// Index of the first byte of text[0, len) that is no symbol of the alphabet (nor a dash, when
// dashes is true), or -1: what a report of a wrong length names.
int b32_find_non_symbol(const char *text, std::size_t len, b32 alphabet, bool dashes) noexcept;

// Write n symbols for n 5-bit values (upper case for Crockford). Writes no NUL.
void b32_from_digits(const std::uint8_t *digits, std::size_t n, b32 alphabet, char *out) noexcept;

// 64-bit value <-> 13 digits (65 bits, MSB first; the first digit carries the top 4 bits).
void u64_to_digits13(std::uint64_t value, std::uint8_t digits[13]) noexcept;
// Returns false when the 13 digits exceed 64 bits (first digit > 15).
bool digits13_to_u64(const std::uint8_t digits[13], std::uint64_t *value) noexcept;

// 128-bit value <-> 26 digits (130 bits; the first digit carries the top 3 bits).
void u128_to_digits26(u128 value, std::uint8_t digits[26]) noexcept;

// The same 26 digits written as symbols of the alphabet, straight from the two 64-bit halves
// (the text output of ulid: no 128-bit shifts, no digit buffer).
void u128_to_symbols26(u128 value, b32 alphabet, char out[26]) noexcept;
// Returns false when the 26 digits exceed 128 bits (first digit > 7).
bool digits26_to_u128(const std::uint8_t digits[26], u128 *value) noexcept;

// 128-bit value followed by a 7-bit check <-> 27 digits (135 bits), the EUID text layout.
void u128_check_to_digits27(u128 value, unsigned check, std::uint8_t digits[27]) noexcept;
void digits27_to_u128_check(const std::uint8_t digits[27], u128 *value, unsigned *check) noexcept;
// The same 27 digits written as symbols, straight from the two halves (the text output of euid).
void u128_check_to_symbols27(u128 value, unsigned check, b32 alphabet, char out[27]) noexcept;

} // namespace idt
