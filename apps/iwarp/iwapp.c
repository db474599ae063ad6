#include "iwapp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void iwapp_check_sizes(const char *prog, const long *sizes, int n)
{
    for (int k = 0; k < n; k++)
        if (sizes[k] > 16384 || sizes[k] % 4)
            iwapp_die(prog, "--sizes: multiples of 4 from 4 to 16384");
}

iwapp_conn_t *iwapp_conn_table(const char *prog, int cap)
{
    iwapp_conn_t *t = calloc((size_t)cap, sizeof(*t));
    if (t == NULL)
        iwapp_die(prog, "out of memory for the connection table");
    return t;
}

void iwapp_check(const char *prog, int rc, const char *what)
{
    if (rc < 0) {
        fprintf(stderr, "%s: %s failed (%d)\n", prog, what, rc);
        exit(1);
    }
}

long iwapp_param(const char *prog, const char *key)
{
    int64_t v;
    char msg[160];
    if (mce_machine_param(key, &v) == 0)
        return (long)v;
    snprintf(msg, sizeof(msg),
             "the machine file has no key '%s' (see "
             "share/machines/iwarp.conf)",
             key);
    iwapp_die(prog, msg);
}

int iwapp_log2(int v)
{
    int l = 0;
    while ((1 << l) < v)
        l++;
    return l;
}

int iwapp_step(const iwapp_conns_t *s, int cell, int dir)
{
    int x = cell % s->aw, y = cell / s->aw;
    switch (dir) {
    case IW_XP:
        x = (x + 1) % s->aw;
        break;
    case IW_XM:
        x = (x + s->aw - 1) % s->aw;
        break;
    case IW_YP:
        y = (y + 1) % s->ah;
        break;
    default:
        y = (y + s->ah - 1) % s->ah;
        break;
    }
    return y * s->aw + x;
}

int iwapp_opposite(int dir)
{
    static const int opp[] = {IW_CPU, IW_XM, IW_XP, IW_YM, IW_YP};
    return opp[dir];
}

int iwapp_snake(int aw, int w, int h, int *order)
{
    int k = 0;
    for (int x = 0; x < w; x++)
        order[k++] = x;
    for (int y = 1; y < h; y++)
        for (int i = 1; i < w; i++)
            order[k++] = y * aw + (y % 2 ? w - i : i);
    for (int y = h - 1; y >= 1; y--)
        order[k++] = y * aw;
    return k;
}

void iwapp_conn_add(iwapp_conns_t *s, int src, int dir, int hops)
{
    iwapp_conn_t *c;
    if (s->n >= s->cap || hops > IWAPP_MAXHOP) {
        fprintf(stderr, "%s: too many connections or hops (%d, %d)\n", s->prog,
                s->n + 1, hops);
        exit(1);
    }
    c = &s->con[s->n++];
    c->src = src;
    c->dir = dir;
    c->hops = hops;
    c->share = -1;
    c->cell[0] = src;
    for (int k = 1; k <= hops; k++)
        c->cell[k] = iwapp_step(s, c->cell[k - 1], dir);
    c->dst = c->cell[hops];
}

void iwapp_conn_straight(iwapp_conns_t *s, int a, int b)
{
    int xa = a % s->aw, ya = a / s->aw, xb = b % s->aw, yb = b / s->aw;
    if (ya == yb)
        iwapp_conn_add(s, a, xb > xa ? IW_XP : IW_XM, abs(xb - xa));
    else
        iwapp_conn_add(s, a, yb > ya ? IW_YP : IW_YM, abs(yb - ya));
}

void iwapp_conn_ring_edge(iwapp_conns_t *s, int a, int pos, int len, int full,
                          int fwd, int back)
{
    int fw = pos + 1 < len || full;
    iwapp_conn_add(s, a, fw ? fwd : back, fw ? 1 : len - 1);
}

int iwapp_conn_pcts(iwapp_conns_t *s, int base, int *worst)
{
    int *cnt = calloc((size_t)s->aw * (size_t)s->ah, sizeof(*cnt));
    int max = 0, w = 0;
    if (cnt == NULL) {
        fprintf(stderr, "%s: out of memory\n", s->prog);
        exit(1);
    }
    for (int c = 0; c < s->n; c++)
        for (int k = 0; k <= s->con[c].hops; k++) {
            int cell = s->con[c].cell[k];
            if (k == 0 && s->con[c].share >= 0) {
                s->con[c].pct[0] = s->con[s->con[c].share].pct[0];
                continue;
            }
            s->con[c].pct[k] = base + cnt[cell]++;
            if (cnt[cell] > max || (cnt[cell] == max && cell < w)) {
                max = cnt[cell];
                w = cell;
            }
        }
    free(cnt);
    if (worst != NULL)
        *worst = w;
    return max;
}

void iwapp_conn_configure(const iwapp_conns_t *s, int me, int release)
{
    for (int c = 0; c < s->n; c++)
        for (int k = 0; k <= s->con[c].hops; k++) {
            const iwapp_conn_t *q = &s->con[c];
            int in, inp, out, outp, end;
            if (q->cell[k] != me || (k == 0 && q->share >= 0))
                continue; /* a shared source PCT: its owner's */
            if (release) {
                iwapp_check(s->prog, iwarp_pct_release(q->pct[k]),
                            "iwarp_pct_release");
                continue;
            }
            in = k == 0 ? IW_CPU : iwapp_opposite(q->dir);
            inp = k == 0 ? 0 : q->pct[k - 1];
            out = k == q->hops ? IW_CPU : q->dir;
            outp = k == q->hops ? 0 : q->pct[k + 1];
            end = k == 0 ? q->dst : k == q->hops ? q->src : -1;
            iwapp_check(s->prog,
                        iwarp_pct_config(q->pct[k], in, inp, out, outp, end),
                        "iwarp_pct_config");
        }
}

void iwapp_conn_repoint(const iwapp_conns_t *s, int c)
{
    const iwapp_conn_t *q = &s->con[c];
    iwapp_check(s->prog,
                iwarp_pct_repoint(q->pct[0], q->dir,
                                  q->hops > 0 ? q->pct[1] : 0, q->dst),
                "iwarp_pct_repoint");
}
