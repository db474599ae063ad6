/* libFuzzer harness: the TCS declaration calls (lib/api/tcs/tcs_decl.c)
 * and the linker (tcs_link.c).  The input is a small program, one call a
 * line, run against the figures of share/machines/iwarp.conf (optionally
 * shrunk by a first "machine" line), then linked with the report and the
 * warnings written (to /dev/null) and, on success, the result kept and
 * freed as at boot.  Every error must be a clean return: TCS_EDECL from a
 * call with the first error in the declaration, or a refusal of the link
 * with a message.
 *
 * Lines (integers in C syntax; a name "~" is NULL, "@" the empty string;
 * code F is 0, 1, 2 or anything else for NULL):
 *   machine W H PCTS SLOTS             (first line only: array and PCTs)
 *   task NAME PARENT X Y W H F PSIZE FLAGS
 *   cells NAME PARENT F PSIZE FLAGS C...   (at most 64 cells; "cells" with
 *                                      no cell passes NULL)
 *   port TASK NAME CELL DIR
 *   inherit CHILD NAME PARENT_PORT
 *   net TASK NAME
 *   connect NET SRC_CELL SRC_PORT DST_CELL DST_PORT NUM DEN
 *   ng TASK NAME NET...                (at most 16 networks)
 *   ext PARENT OUT IN NUM DEN
 *   deposit
 *   free CELL
 * At most 200 calls and 64 tasks in a program: the linker's work grows
 * with the declaration, and a run must stay well under a second. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "machine.h"

#include "../../lib/api/tcs/tcs_link.h"

#define MAX_CALLS 200
#define MAX_TASKS 64
#define MAX_TOK   72

static mcei_tcs_machine_t iwarp;
static FILE *devnull;
static int verbose; /* FUZZ_VERBOSE=1: say how each input ended */

static void f0(tcs_ctx_t *c, const void *p)
{
    (void)c;
    (void)p;
}
static void f1(tcs_ctx_t *c, const void *p)
{
    (void)c;
    (void)p;
}
static void f2(tcs_ctx_t *c, const void *p)
{
    (void)c;
    (void)p;
}

static tcs_fn code(long v)
{
    return v == 0 ? f0 : v == 1 ? f1 : v == 2 ? f2 : NULL;
}

/* An integer token, clamped to int (the API's argument type). */
static int num(const char *s)
{
    char *end;
    long long v;
    errno = 0;
    v = strtoll(s, &end, 0);
    if (v > INT_MAX)
        return INT_MAX;
    if (v < INT_MIN)
        return INT_MIN;
    return (int)v;
}

static const char *name(const char *s)
{
    return strcmp(s, "~") == 0 ? NULL : strcmp(s, "@") == 0 ? "" : s;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    mcei_machine_t m = {0};
    char err[1024];
    (void)argc;
    (void)argv;
    if (mcei_machine_load(&m, "iwarp", NULL, NULL, err, sizeof(err)) !=
            MCE_OK ||
        mcei_tcs_machine(&m, &iwarp, err, sizeof(err)) != MCE_OK) {
        fprintf(stderr, "fuzz_tcs: %s\n", err);
        abort();
    }
    mcei_machine_free(&m);
    if ((devnull = fopen("/dev/null", "w")) == NULL)
        abort();
    verbose = getenv("FUZZ_VERBOSE") != NULL;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf, *line, *save = NULL;
    char *tok[MAX_TOK];
    int calls = 0, cells[64], nets[16];
    mcei_tcs_machine_t mc = iwarp;
    tcs_decl_t d;
    char err[1024];
    int first = 1;

    if (size > 1 << 14 || (buf = malloc(size + 1)) == NULL)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    mcei_tcs_decl_init(&d, &mc);
    for (line = strtok_r(buf, "\n", &save); line && calls < MAX_CALLS;
         line = strtok_r(NULL, "\n", &save), first = 0) {
        char *s2 = NULL, *t;
        int n = 0;
        for (t = strtok_r(line, " \t", &s2); t && n < MAX_TOK;
             t = strtok_r(NULL, " \t", &s2))
            tok[n++] = t;
        if (n == 0)
            continue;
        calls++;
#define NEED(k)                                                                \
    if (n < (k))                                                               \
    continue
        if (strcmp(tok[0], "machine") == 0) {
            NEED(5);
            if (!first)
                continue;
            /* Within what mcei_tcs_machine accepts (1 to 4096), but small:
             * the linker's tables grow with the array. */
            mc.width = 1 + (num(tok[1]) & 15);
            mc.height = 1 + (num(tok[2]) & 15);
            mc.pcts = num(tok[3]) & 63;
            mc.barrier_slots = 1 + (num(tok[4]) & 7);
            mcei_tcs_decl_init(&d, &mc);
        } else if (strcmp(tok[0], "task") == 0) {
            NEED(10);
            if (d.ntasks >= MAX_TASKS)
                continue;
            (void)tcs_task(&d, name(tok[1]), num(tok[2]), num(tok[3]),
                           num(tok[4]), num(tok[5]), num(tok[6]),
                           code(num(tok[7])), (size_t)num(tok[8]), num(tok[9]));
        } else if (strcmp(tok[0], "cells") == 0) {
            NEED(6);
            int k = 0;
            if (d.ntasks >= MAX_TASKS)
                continue;
            for (int i = 6; i < n && k < 64; i++)
                cells[k++] = num(tok[i]);
            (void)tcs_task_cells(&d, name(tok[1]), num(tok[2]),
                                 k ? cells : NULL, k, code(num(tok[3])),
                                 (size_t)num(tok[4]), num(tok[5]));
        } else if (strcmp(tok[0], "port") == 0) {
            NEED(5);
            (void)tcs_port(&d, num(tok[1]), name(tok[2]), num(tok[3]),
                           num(tok[4]));
        } else if (strcmp(tok[0], "inherit") == 0) {
            NEED(4);
            (void)tcs_inherit(&d, num(tok[1]), name(tok[2]), num(tok[3]));
        } else if (strcmp(tok[0], "net") == 0) {
            NEED(3);
            (void)tcs_network(&d, num(tok[1]), name(tok[2]));
        } else if (strcmp(tok[0], "connect") == 0) {
            NEED(8);
            (void)tcs_connect(&d, num(tok[1]), num(tok[2]), name(tok[3]),
                              num(tok[4]), name(tok[5]), (unsigned)num(tok[6]),
                              (unsigned)num(tok[7]));
        } else if (strcmp(tok[0], "ng") == 0) {
            NEED(3);
            int k = 0;
            for (int i = 3; i < n && k < 16; i++)
                nets[k++] = num(tok[i]);
            (void)tcs_netgroup(&d, num(tok[1]), name(tok[2]), k ? nets : NULL,
                               k);
        } else if (strcmp(tok[0], "ext") == 0) {
            NEED(6);
            (void)tcs_external(&d, num(tok[1]), num(tok[2]), num(tok[3]),
                               (unsigned)num(tok[4]), (unsigned)num(tok[5]));
        } else if (strcmp(tok[0], "deposit") == 0) {
            tcs_uses_deposit(&d);
        } else if (strcmp(tok[0], "free") == 0) {
            NEED(2);
            (void)tcs_free_pcts(&d, num(tok[1]));
        }
#undef NEED
    }
    if (d.failed && d.err[0] == '\0')
        abort(); /* a failed call must say why */
    err[0] = '\0';
    if (verbose)
        fprintf(stderr, "fuzz_tcs: %d calls, %d tasks: link %s %s\n", calls,
                d.ntasks,
                mcei_tcs_link(&d, NULL, NULL, err, sizeof(err)) == MCE_OK
                    ? "ok"
                    : "refused:",
                err);
    if (mcei_tcs_link(&d, devnull, devnull, err, sizeof(err)) == MCE_OK) {
        mcei_tcs_result_t *res = NULL;
        /* Linked once, it links again, and the result can be kept. */
        if (mcei_tcs_link_keep(&d, devnull, err, sizeof(err), &res) != MCE_OK ||
            res == NULL)
            abort();
        mcei_tcs_result_free(res);
    } else if (err[0] == '\0') {
        abort(); /* a refusal must say why */
    }
    mcei_tcs_decl_free(&d);
    free(buf);
    return 0;
}
