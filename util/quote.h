/* Quoting of text for CSV and JSON output, shared by the experiment
 * programs (apps/opts.c) and the tools (tools/predict/).  Plain C and
 * stdio only, header-only (static inline): it needs no library and is
 * installed with the examples next to opts.c, so "mcecc pingpong.c opts.c"
 * still builds an example. */
#ifndef MCE_UTIL_QUOTE_H
#define MCE_UTIL_QUOTE_H

#include <stdio.h>
#include <string.h>

/* @p s as a JSON string, quotes included: '"' and '\\' escaped, newline
 * as \n, other control characters as \u00XX (RFC 8259 section 7). */
static inline void quote_json(FILE *out, const char *s)
{
    putc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            putc(c, out);
    }
    putc('"', out);
}

/* @p s as one CSV field (RFC 4180): as is, unless it holds a comma, a
 * quote or a line break; then quoted, with each quote doubled. */
static inline void quote_csv(FILE *out, const char *s)
{
    if (strpbrk(s, ",\"\r\n") == NULL) {
        fputs(s, out);
        return;
    }
    putc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            putc('"', out);
        putc(*s, out);
    }
    putc('"', out);
}

#endif
