/* Helpers shared by the iWarp measurement programs (pct_pingpong,
 * deposit_pingpong, rts_pingpong). */
#ifndef IWAPP_H
#define IWAPP_H

/* Parses "4,16,64" or "1..7" (or a mix) into out; returns the count or
 * -1 on a malformed list. */
int iwapp_parse_list(const char *s, long *out, int max);

/* Bad usage: cell 0 prints "prog: msg", every cell exits with status 2. */
_Noreturn void iwapp_die(const char *prog, const char *msg);

/* A failed iWarp call (rc < 0) ends the run with status 1. */
void iwapp_check(const char *prog, int rc, const char *what);

#endif
