/* iWarp spools (doc/design/iwarp-tcs.md, section 3.6; Warfel 1996,
 * section 3.1.3: each active spool "steals up to one-third" of the CPU's
 * cycles).
 *
 * iwarp_spool_out / iwarp_spool_in charge iwarp.spool_setup and claim one
 * of the cell's iwarp.spools spools (less the two the deposit system
 * reserves once iwarp_dep_init was called).  Out: the words go through the
 * source PCT as one block written a word per iwarp.spool_word (the model's
 * link pace is iwarp.word_time, so the two must be equal); the spool is
 * done when its last word is in the PCT.  In: the spool takes the
 * destination PCT's words a word per spool_word from its start as they
 * become readable; it is done when the last is in memory (the copy happens
 * when the program waits or tests: a program may not look at the buffer
 * before).  Cycle stealing (cpu.c, which reads this file's table of
 * the cell's spools): while k spools are active, every client of the
 * cell's cycles (mcei_iw_cpu_end: computation, gate reads and writes, the
 * software of foreground sends and receives, set-up, polls) advances the
 * clock by c x s/(s - k), s = iwarp.spool_steal, for the part of the
 * interval before the spools' expected ends (out: its completion; in:
 * start + n x spool_word, the uncontended end, known locally); k is
 * capped at s - 1.  Interrupt handlers (mcei_vn_steal) and the deposit
 * system's own two spools are not in this table (not modelled). */
#include "spool.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/trace.h"
#include "cpu.h"
#include "deposit.h"
#include "iwarp.h"
#include "state.h"

/* The spools' trace tracks: node resource slots SPOOL_SLOT + handle. */
#define SPOOL_SLOT 32
_Static_assert(SPOOL_SLOT + MCEI_IW_SPOOL_MAX <= MCEI_TRACE_RES_SLOTS,
               "a trace slot per spool");

static const mcei_iw_spool_k_t *spool_k(void)
{
    return &mcei_iw_state()->spool;
}

static mcei_iw_spool_t *table_of(mcei_vn_t *vn)
{
    return mcei_iw_slots(vn)->spool->s;
}

static int get_clocks(mcei_machine_t *m, const char *key, mce_time_t clock,
                      mce_time_t *out, char *err, size_t errlen)
{
    uint64_t v;
    int rc = mcei_key_u64(m, key, &v, err, errlen);
    if (rc != MCE_OK)
        return rc;
    if (v > 1000000) {
        snprintf(err, errlen, "machine '%s': %s must be at most 1000000 clocks",
                 m->name, key);
        return MCE_ERR_MACHINE;
    }
    *out = v * clock;
    return MCE_OK;
}

int mcei_iw_spool_module_init(mcei_iw_spool_k_t *k, mcei_machine_t *m,
                              mce_time_t clock, char *err, size_t errlen)
{
    int rc;
    memset(k, 0, sizeof(*k));
    k->clock = clock;
    if ((rc = get_clocks(m, "iwarp.spool_setup", clock, &k->setup, err,
                         errlen)) ||
        (rc =
             get_clocks(m, "iwarp.spool_word", clock, &k->word, err, errlen)) ||
        (rc = get_clocks(m, "iwarp.word_time", clock, &k->word_time, err,
                         errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.spools", &k->spools, err, errlen)) ||
        (rc = mcei_key_u64(m, "iwarp.spool_steal", &k->steal, err, errlen)))
        return rc;
    if (k->spools < 2 || k->spools > MCEI_IW_SPOOL_MAX || k->steal < 2 ||
        k->steal > 64 || k->word != k->word_time) {
        snprintf(err, errlen,
                 "machine '%s': need 2 <= iwarp.spools <= %d, 2 <= "
                 "iwarp.spool_steal <= 64 and iwarp.spool_word = "
                 "iwarp.word_time (spools run at link rate)",
                 m->name, MCEI_IW_SPOOL_MAX);
        return MCE_ERR_MACHINE;
    }
    return MCE_OK;
}

int mcei_iw_spool_node_init(mcei_vn_t *vn)
{
    mcei_iw_slots(vn)->spool = calloc(1, sizeof(mcei_iw_spool_node_t));
    return mcei_iw_slots(vn)->spool == NULL ? MCE_ERR_NOMEM : MCE_OK;
}

void mcei_iw_spool_node_fini(mcei_vn_t *vn)
{
    free(mcei_iw_slots(vn)->spool);
    mcei_iw_slots(vn)->spool = NULL;
}

int mcei_iw_spool_start(mcei_vn_t *vn, int out, int pct, void *buf,
                        size_t nwords, int *h, char *why, size_t len)
{
    mcei_iw_spool_t *t = table_of(vn);
    uint64_t avail = spool_k()->spools - (mcei_iw_dep_enabled(vn) ? 2 : 0),
             busy = 0;
    int free_h = -1, rc;
    if (nwords == 0 || buf == NULL) {
        snprintf(why, len, "need a buffer and a positive word count");
        return MCE_ERR_INVAL;
    }
    for (int i = 0; i < (int)spool_k()->spools; i++) {
        if (t[i].busy)
            busy++;
        else if (free_h < 0)
            free_h = i;
    }
    if (busy >= avail || free_h < 0) {
        snprintf(
            why, len,
            "out of spools: %" PRIu64 " of the cell's %" PRIu64 " are in use%s",
            busy, spool_k()->spools,
            avail < spool_k()->spools ? " (2 more are the deposit system's)"
                                      : "");
        return MCE_ERR_RESOURCE;
    }
    mcei_sync(vn);
    mcei_iw_cpu(vn, spool_k()->setup);
    if (out) {
        mce_time_t done;
        if ((rc = mcei_iw_spool_put(vn, pct, buf, nwords, spool_k()->word,
                                    &done, &t[free_h].mark, why, len)) !=
            MCE_OK)
            return rc;
        t[free_h].end = done;
    } else {
        char tmp[160];
        mce_time_t d;
        /* check the PCT now (test mode takes nothing when not done) */
        if ((rc = mcei_iw_spool_take(vn, pct, vn->clock, spool_k()->word, buf,
                                     0, 1, &d, tmp, sizeof(tmp))) < 0) {
            snprintf(why, len, "%s", tmp);
            return rc;
        }
        mcei_iw_take(vn, pct, nwords);
        t[free_h].end = vn->clock + (mce_time_t)nwords * spool_k()->word;
    }
    t[free_h].busy = 1;
    t[free_h].out = out;
    t[free_h].pct = pct;
    t[free_h].buf = buf;
    t[free_h].n = nwords;
    t[free_h].start = vn->clock;
    *h = free_h;
    return MCE_OK;
}

int mcei_iw_spool_finish(mcei_vn_t *vn, int h, int test, int *done, char *why,
                         size_t len)
{
    mcei_iw_spool_t *s;
    mce_time_t end;
    if (h < 0 || h >= (int)spool_k()->spools || !table_of(vn)[h].busy) {
        snprintf(why, len, "no active spool %d", h);
        return MCE_ERR_INVAL;
    }
    s = &table_of(vn)[h];
    mcei_sync(vn);
    if (s->out) {
        mce_time_t room;
        end = s->end;
        if (test && end > vn->clock) {
            *done = 0;
            return MCE_OK;
        }
        /* a shared or full path may have held its words back */
        if (!mcei_iw_spool_put_end(vn, s->pct, s->mark, test, &room)) {
            *done = 0;
            return MCE_OK;
        }
        if (room > end)
            end = room;
    } else {
        int rc;
        mcei_vn_memory(vn);
        rc = mcei_iw_spool_take(vn, s->pct, s->start, spool_k()->word, s->buf,
                                s->n, test, &end, why, len);
        if (rc < 0)
            return rc;
        if (rc == 0) {
            *done = 0;
            return MCE_OK;
        }
    }
    if (end > vn->clock)
        mcei_charge_comm(vn, end - vn->clock);
    if (mcei_trace_res_on(vn)) {
        /* the spool's track: from its start to its last word */
        char label[32], args[64];
        snprintf(label, sizeof(label), "node %d spool %d", vn->id, h);
        snprintf(args, sizeof(args), "\"pct\":%d,\"words\":%zu", s->pct, s->n);
        mcei_trace_res(vn, SPOOL_SLOT + h, label,
                       s->out ? "spool out" : "spool in", s->start, end, args);
    }
    s->busy = 0;
    *done = 1;
    return MCE_OK;
}
