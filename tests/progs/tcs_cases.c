/* Small TCS declarations for tests/core/tcs_link.sh: the environment
 * variable TCS_CASE picks one; each refusal case breaks one rule of the
 * linker (doc/design/iwarp-tcs.md, section 8.3), "kappa" fits with DQ
 * congestion.  main runs only when the link succeeds. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tcs.h>

/* Distinct task codes (one function per task: sharing one with an
 * ancestor is the recursion the linker refuses).  The run time that
 * would start them is step 8. */
#define CODE(n)                                                                \
    static void n(tcs_ctx_t *ctx, const void *params)                          \
    {                                                                          \
        (void)ctx;                                                             \
        (void)params;                                                          \
    }
CODE(f0)
CODE(f1)
CODE(f2)
CODE(f3)
CODE(f4)

static void recursion(tcs_decl_t *d)
{
    tcs_task_t x = tcs_task(d, "x", TCS_NONE, 0, 0, 4, 4, f0, 0, 0);
    tcs_task_t y = tcs_task(d, "y", x, 0, 0, 2, 2, f1, 0, 0);
    tcs_task(d, "x[2]", y, 0, 0, 1, 1, f0, 0, 0);
}

static void outside(tcs_decl_t *d)
{
    tcs_task_t p = tcs_task(d, "detect", TCS_NONE, 0, 0, 4, 2, f0, 0, 0);
    tcs_task(d, "fill[3]", p, 3, 1, 2, 1, f1, 0, 0);
}

static void overlap(tcs_decl_t *d)
{
    tcs_task_t p = tcs_task(d, "p", TCS_NONE, 0, 0, 4, 1, f0, 0, 0);
    tcs_task_t a = tcs_task(d, "a", p, 0, 0, 2, 1, f1, 0, 0);
    tcs_task_t b = tcs_task(d, "b", p, 1, 0, 2, 1, f2, 0, 0);
    tcs_external(d, p, tcs_port(d, a, "out", 1, TCS_OUT),
                 tcs_port(d, b, "in", 1, TCS_IN), 0, 0);
}

static void conncell(tcs_decl_t *d)
{
    tcs_task_t t = tcs_task(d, "t", TCS_NONE, 0, 0, 2, 2, f0, 0, 0);
    tcs_net_t n = tcs_network(d, t, "n2");
    tcs_connect(d, n, 0, "o", 1, "i", 0, 0);
    tcs_connect(d, n, 5, "o", 2, "i", 0, 0);
    tcs_netgroup(d, t, "g", &n, 1);
}

static void badport(tcs_decl_t *d)
{
    tcs_task_t p = tcs_task(d, "p", TCS_NONE, 0, 0, 2, 1, f0, 0, 0);
    tcs_task_t c = tcs_task(d, "c", p, 0, 0, 1, 1, f1, 0, 0);
    tcs_port(d, c, "p", 0, TCS_OUT);
}

static void outputs(tcs_decl_t *d)
{
    tcs_task_t a = tcs_task(d, "a", TCS_NONE, 0, 0, 1, 1, f0, 0, 0);
    tcs_task_t b = tcs_task(d, "b", TCS_NONE, 1, 0, 1, 1, f1, 0, 0);
    tcs_external(d, TCS_NONE, tcs_port(d, a, "p", 0, TCS_OUT),
                 tcs_port(d, b, "q", 0, TCS_OUT), 0, 0);
}

/* root (0,0)-(4,0) holds left (0,0), a2a (1,0)-(3,0) and right (4,0);
 * root joins left to right twice (through a2a's cells: hoisted) and
 * a2a.res to right; a2a's netgroup p12 has 9 connections from its cell 0
 * to its cell 2. */
static void pcts(tcs_decl_t *d)
{
    tcs_task_t root = tcs_task(d, "root", TCS_NONE, 0, 0, 5, 1, f0, 0, 0);
    tcs_task_t left = tcs_task(d, "left", root, 0, 0, 1, 1, f1, 0, 0);
    tcs_task_t a2a = tcs_task(d, "a2a", root, 1, 0, 3, 1, f2, 0, 0);
    tcs_task_t right = tcs_task(d, "right", root, 4, 0, 1, 1, f3, 0, 0);
    tcs_net_t n = tcs_network(d, a2a, "all");
    for (int i = 0; i < 9; i++)
        tcs_connect(d, n, 0, "o", 2, "i", 0, 0);
    tcs_netgroup(d, a2a, "p12", &n, 1);
    tcs_external(d, root, tcs_port(d, left, "o0", 0, TCS_OUT),
                 tcs_port(d, right, "i0", 0, TCS_IN), 0, 0);
    tcs_external(d, root, tcs_port(d, left, "o1", 0, TCS_OUT),
                 tcs_port(d, right, "i1", 0, TCS_IN), 0, 0);
    tcs_external(d, root, tcs_port(d, a2a, "res", 1, TCS_OUT),
                 tcs_port(d, right, "r", 0, TCS_IN), 0, 0);
}

static void bandwidth(tcs_decl_t *d)
{
    tcs_task_t t = tcs_task(d, "t", TCS_NONE, 0, 0, 3, 1, f0, 0, 0);
    tcs_net_t n = tcs_network(d, t, "n");
    tcs_connect(d, n, 0, "a", 2, "a", 1, 2);
    tcs_connect(d, n, 0, "b", 2, "b", 1, 2);
    tcs_connect(d, n, 1, "c", 2, "c", 1, 3);
    tcs_netgroup(d, t, "g", &n, 1);
}

static void slots(tcs_decl_t *d)
{
    static const char *const names[] = {"l0", "l1", "l2", "l3", "l4"};
    tcs_fn fns[] = {f0, f1, f2, f3, f4};
    tcs_task_t t = TCS_NONE;
    for (int i = 0; i < 5; i++)
        t = tcs_task(d, names[i], t, 0, 0, 5 - i, 1, fns[i], 0, 0);
}

/* 3 x 3 task: connections through its centre (1,1), one turning there */
static void kappa(tcs_decl_t *d)
{
    tcs_task_t t = tcs_task(d, "k", TCS_NONE, 0, 0, 3, 3, f0, 0, 0);
    tcs_net_t n = tcs_network(d, t, "n");
    tcs_connect(d, n, 3, "pre", 6, "pre", 0, 0); /* (0,1) -> (0,2) */
    tcs_connect(d, n, 3, "x", 5, "x", 0, 0);     /* (0,1) -> (2,1) */
    tcs_connect(d, n, 1, "y", 7, "y", 0, 0);     /* (1,0) -> (1,2) */
    tcs_connect(d, n, 3, "t", 7, "t", 0, 0);     /* (0,1) -> (1,2) */
    tcs_netgroup(d, t, "g", &n, 1);
}

/* A task declared by cells, (0,0) and (2,0), inside the row: its
 * connection passes (1,0), outside it (hoisted to the row); the row's two
 * connections (0,0) -> (4,0) are half-way round the torus either way. */
static void list(tcs_decl_t *d)
{
    static const int cells[] = {0, 2};
    tcs_task_t row = tcs_task(d, "row", TCS_NONE, 0, 0, 8, 1, f0, 0, 0);
    tcs_task_t pair = tcs_task_cells(d, "pair", row, cells, 2, f1, 0, 0);
    tcs_net_t n = tcs_network(d, pair, "n");
    tcs_net_t m = tcs_network(d, row, "m");
    tcs_connect(d, n, 0, "o", 1, "i", 0, 0);
    tcs_netgroup(d, pair, "g", &n, 1);
    tcs_connect(d, m, 0, "a", 4, "a", 0, 0);
    tcs_connect(d, m, 0, "b", 4, "b", 0, 0);
    tcs_netgroup(d, row, "h", &m, 1);
}

/* Offsets near INT_MAX wrap round the torus like small ones (the sum
 * with the parent's offset overflowed: found by fuzzing).  p is the whole
 * array from (1,1): INT_MAX = 7 (mod 8), so c is at (1 + 7, 1 + 0) =
 * (0,1) and e at (1 + 2, 1 + 7) = (3,0). */
static void wrap(tcs_decl_t *d)
{
    tcs_task_t p = tcs_task(d, "p", TCS_NONE, 1, 1, 8, 8, f0, 0, 0);
    tcs_task(d, "c", p, INT_MAX, 0, 1, 1, f1, 0, 0);
    tcs_task(d, "e", p, 2, INT_MAX, 1, 1, f2, 0, 0);
}

static void declerr(tcs_decl_t *d)
{
    tcs_task(d, "big", TCS_NONE, 0, 0, 9, 1, f0, 0, 0);
}

static void pctsfree(tcs_decl_t *d)
{
    tcs_task(d, "all", TCS_NONE, 0, 0, 8, 8, f0, 0, 0);
    printf("tcs_cases: free PCTs, 2D whole-array barrier: %d\n",
           tcs_free_pcts(d, 9));
    tcs_uses_deposit(d);
    printf("tcs_cases: free PCTs, with deposits: %d\n", tcs_free_pcts(d, 9));
    printf("tcs_cases: free PCTs, cell 64: %d\n", tcs_free_pcts(d, 64));
}

/* TCS_MANY top-level tasks of one cell each, round the array (the
 * linker must stay linear in their number). */
static void many(tcs_decl_t *d)
{
    const char *e = getenv("TCS_MANY");
    long n = e != NULL ? atol(e) : 1000;
    for (long i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof(name), "t%ld", i);
        tcs_task(d, name, TCS_NONE, (int)(i % 8), (int)(i / 8 % 8), 1, 1, f0, 0,
                 0);
    }
}

void tcs_declare(tcs_decl_t *d)
{
    static const struct {
        const char *name;
        void (*fn)(tcs_decl_t *);
    } cases[] = {
        {"recursion", recursion}, {"outside", outside},
        {"overlap", overlap},     {"conncell", conncell},
        {"badport", badport},     {"outputs", outputs},
        {"pcts", pcts},           {"bandwidth", bandwidth},
        {"slots", slots},         {"kappa", kappa},
        {"declerr", declerr},     {"pctsfree", pctsfree},
        {"list", list},           {"many", many},
        {"wrap", wrap},
    };
    const char *c = getenv("TCS_CASE");
    for (size_t i = 0; c != NULL && i < sizeof(cases) / sizeof(cases[0]); i++)
        if (strcmp(c, cases[i].name) == 0) {
            cases[i].fn(d);
            return;
        }
    fprintf(stderr, "tcs_cases: set TCS_CASE to a case name\n");
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (iwarp_cell() == 0)
        printf("tcs_cases: linked, cell 0 runs\n");
    return 0;
}
