#include "iwapp.h"

#include <stdio.h>
#include <stdlib.h>

#include <iwarp.h>

int iwapp_parse_list(const char *s, long *out, int max)
{
    int n = 0;
    while (*s && n < max) {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        if (end == s)
            return -1;
        if (end[0] == '.' && end[1] == '.') {
            s = end + 2;
            b = strtol(s, &end, 10);
            if (end == s)
                return -1;
        }
        for (long v = a; v <= b && n < max; v++)
            out[n++] = v;
        s = end;
        if (*s == ',')
            s++;
        else if (*s)
            return -1;
    }
    return n;
}

void iwapp_die(const char *prog, const char *msg)
{
    if (iwarp_cell() == 0)
        fprintf(stderr, "%s: %s\n", prog, msg);
    exit(2);
}

void iwapp_check(const char *prog, int rc, const char *what)
{
    if (rc < 0) {
        fprintf(stderr, "%s: %s failed (%d)\n", prog, what, rc);
        exit(1);
    }
}
