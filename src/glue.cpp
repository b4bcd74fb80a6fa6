/* glue.cpp: error reports and helpers shared by every type's glue. */
#include "idtypes/text.hpp"

#include "glue.h"

extern "C" {
#include "mb/pg_wchar.h"
}

namespace glue
{

id128 *
make_id128(idt::u128 v)
{
	id128 *id = static_cast<id128 *>(palloc(sizeof(id128)));
	store_be64(v.hi, id->data);
	store_be64(v.lo, id->data + 8);
	return id;
}

/*
 * 1-based character position of a byte offset, so that multibyte input reads right. In UTF-8
 * a byte that starts no well-formed character counts as one (pg_mblen would take the bytes
 * after it along).
 */
static int
char_position(const char *input, std::size_t input_len, unsigned offset)
{
	if (offset > input_len)
		offset = static_cast<unsigned>(input_len);
	if (GetDatabaseEncoding() == PG_UTF8)
		return static_cast<int>(idt::utf8_count(input, offset)) + 1;
	return pg_mbstrlen_with_len(input, static_cast<int>(offset)) + 1;
}

/*
 * How a detail names the character at input[offset] (offset < input_len), in buf: a printable
 * ASCII character quoted ("K"), a visible UTF-8 character quoted whole with its code point
 * ("é" (U+00E9)), any other character by its code point (U+0009), and a byte that starts no
 * character of the server encoding by its value (byte 0xFF; returns true). The detail stays
 * valid in the server encoding: no sequence is ever cut.
 */
static bool
name_character(const char *input, std::size_t input_len, unsigned offset, char *buf,
			   std::size_t size)
{
	const unsigned char c = static_cast<unsigned char>(input[offset]);
	if (c > 0x20 && c < 0x7F)
	{
		snprintf(buf, size, "\"%c\"", c);
		return false;
	}
	if (c < 0x80)
	{
		/* The invisible ones a pasted ID most often carries get their name as well. */
		const char *what = c == ' '    ? " (space)"
						   : c == '\t' ? " (tab)"
						   : c == '\n' ? " (line feed)"
						   : c == '\r' ? " (carriage return)"
									   : "";
		snprintf(buf, size, "U+%04X%s", c, what);
		return false;
	}
	if (GetDatabaseEncoding() == PG_UTF8)
	{
		const idt::utf8_char ch = idt::utf8_decode(input, input_len, offset);
		if (ch.length != 0)
		{
			const unsigned cp = static_cast<unsigned>(ch.code_point);
			if (idt::quotable(ch.code_point))
				snprintf(buf, size, "\"%.*s\" (U+%04X)", static_cast<int>(ch.length),
						 input + offset, cp);
			else
				snprintf(buf, size, "U+%04X", cp);
			return false;
		}
	}
	snprintf(buf, size, "byte 0x%02X", c);
	return true;
}

void
report_parse_error(Node *escontext, const text_spec &spec, const char *input, std::size_t input_len,
				   idt::errc error, unsigned offset)
{
	(void) escontext; /* unused before PostgreSQL 16 */
	/*
	 * The core counts bytes. A multibyte character is never a symbol, and counting it as two
	 * could call the right length wrong ("Expected 27 characters, got 27"): name it instead.
	 */
	if (error == idt::errc::bad_length)
	{
		for (std::size_t i = 0; i < input_len; i++)
		{
			if (IS_HIGHBIT_SET(input[i]))
			{
				error = idt::errc::bad_symbol;
				offset = static_cast<unsigned>(i);
				break;
			}
		}
	}
/* The message: literal formats, the type's name an argument (as core writes them). */
#define IDT_INPUT_ERRMSG()                                                                         \
	(spec.prefix ? errmsg("invalid prefix for type %s: \"%s\"", spec.type_name, input)             \
				 : errmsg("invalid input syntax for type %s: \"%s\"", spec.type_name, input))
	char name[40];
	bool is_byte = false;
	/* A UUID in text: the type reads it only as a uuid (one text form per value). */
	const bool uuid = error == idt::errc::bad_length && spec.uuid_hint && !spec.prefix &&
					  idt::uuid_shaped(input, input_len);
	/* A wrong length names the first character that is no symbol too (a pasted space). */
	int foreign = -1;
	if (error == idt::errc::bad_length && !uuid && spec.find_non_symbol)
		foreign = spec.find_non_symbol(input, input_len);
	if (foreign >= 0)
		is_byte =
			name_character(input, input_len, static_cast<unsigned>(foreign), name, sizeof name);
	else if (offset >= input_len)
		/* Not reached: core's offsets lie in the text. snprintf, not strlcpy: a server that found
		 * strlcpy in glibc (2.38+) declares none of its own, and the s390x lane builds for sid's
		 * server with Debian 12's cross compiler and glibc 2.36 headers (scripts/sysroot.sh). */
		snprintf(name, sizeof name, "%s", "nothing");
	else if (error == idt::errc::bad_symbol || error == idt::errc::missing_dash)
		is_byte = name_character(input, input_len, offset, name, sizeof name);
	switch (error)
	{
		case idt::errc::out_of_range:
			errsave(escontext,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("value \"%s\" is out of range for type %s", input, spec.type_name),
					 spec.range_detail ? errdetail("%s", spec.range_detail) : 0));
			return;
		case idt::errc::bad_length:
		{
			const int got = pg_mbstrlen_with_len(input, static_cast<int>(input_len));
			/* The text of the sibling type (a ULID given to euid): say so, as for a UUID. */
			const bool sibling =
				!uuid && !spec.prefix && spec.sibling_reads && spec.sibling_reads(input, input_len);
			if (foreign >= 0)
				errsave(
					escontext,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), IDT_INPUT_ERRMSG(),
					 errdetail("Expected %s, got %d; the %s%s at position %d is not a valid "
							   "symbol.",
							   spec.length_hint, got, is_byte ? "" : "character ", name,
							   char_position(input, input_len, static_cast<unsigned>(foreign)))));
			else
				errsave(escontext,
						(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), IDT_INPUT_ERRMSG(),
						 errdetail("Expected %s, got %d.", spec.length_hint, got),
						 uuid ? errhint("To read a UUID, cast it from type uuid ('%s'::uuid::%s), "
										"or pass it as a parameter of type uuid.",
										input, spec.type_name)
						 : sibling
							 ? errhint("The text is a valid %s: read it as type %s. The two types "
									   "lay out their bits differently, so the same bytes "
									   "mean another time in each.",
									   spec.sibling, spec.sibling)
							 : 0));
			return;
		}
		case idt::errc::missing_dash:
			errsave(escontext,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), IDT_INPUT_ERRMSG(),
					 errdetail("Expected a dash at position %d, found %s (the display form is "
							   "STTT-TTT-TTTT-CC).",
							   char_position(input, input_len, offset), name)));
			return;
		case idt::errc::bad_dash:
			errsave(escontext,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), IDT_INPUT_ERRMSG(),
					 errdetail("The dash at position %d is out of place: dashes go only at "
							   "positions 5, 9 and 14 (the display form STTT-TTT-TTTT-CC).",
							   char_position(input, input_len, offset))));
			return;
		case idt::errc::bad_check:
			errsave(escontext, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), IDT_INPUT_ERRMSG(),
								errdetail("The check symbol does not match the value.")));
			return;
		case idt::errc::bad_symbol:
		case idt::errc::ok:
			break;
	}
	if (is_byte)
		errsave(escontext,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), IDT_INPUT_ERRMSG(),
				 errdetail("The %s at position %d is not a valid symbol; %s symbols are %s.", name,
						   char_position(input, input_len, offset), spec.type_name, spec.symbols)));
	else
		errsave(escontext,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION), IDT_INPUT_ERRMSG(),
				 errdetail("The character %s at position %d is not a valid symbol; %s symbols "
						   "are %s.",
						   name, char_position(input, input_len, offset), spec.type_name,
						   spec.symbols)));
}
#undef IDT_INPUT_ERRMSG

void
report_binary_length(const char *type_name, int expected, int got)
{
	ereport(ERROR, (errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
					errmsg("invalid binary value for type %s", type_name),
					errdetail("Expected %d bytes, got %d.", expected, got)));
	pg_unreachable();
}

void
report_binary_range(const char *type_name)
{
	ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					errmsg("binary value is out of range for type %s", type_name),
					errdetail("The most significant bit must be zero.")));
	pg_unreachable();
}

} /* namespace glue */
