/* glue.cpp: error reports and helpers shared by every type's glue. */
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

/* 1-based character position of a byte offset, so that multibyte input reads right. */
static int
char_position(const char *input, std::size_t input_len, unsigned offset)
{
	if (offset > input_len)
		offset = static_cast<unsigned>(input_len);
	return pg_mbstrlen_with_len(input, static_cast<int>(offset)) + 1;
}

void
report_parse_error(Node *escontext, const char *type_name, const char *input,
				   std::size_t input_len, idt::errc error, unsigned offset,
				   const char *length_hint)
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
	switch (error)
	{
		case idt::errc::out_of_range:
			errsave(escontext, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
								errmsg("value \"%s\" is out of range for type %s", input,
									   type_name)));
			return;
		case idt::errc::bad_length:
			errsave(escontext,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for type %s: \"%s\"", type_name, input),
					 errdetail("Expected %s, got %d.", length_hint,
							   pg_mbstrlen_with_len(input, static_cast<int>(input_len)))));
			return;
		case idt::errc::bad_dash:
			errsave(escontext,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for type %s: \"%s\"", type_name, input),
					 errdetail("Dashes are allowed only at positions 5, 9 and 14 (the display "
							   "form STTT-TTT-TTTT-CC); position %d is wrong.",
							   char_position(input, input_len, offset))));
			return;
		case idt::errc::bad_check:
			errsave(escontext,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for type %s: \"%s\"", type_name, input),
					 errdetail("The check symbol does not match the value.")));
			return;
		case idt::errc::bad_symbol:
		case idt::errc::ok:
			break;
	}
	errsave(escontext,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid input syntax for type %s: \"%s\"", type_name, input),
			 errdetail("The character at position %d is not a valid symbol.",
					   char_position(input, input_len, offset))));
}

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
