/* The PCT side of the iWarp spools (doc/design/iwarp-tcs.md, section
 * 3.6; spool.c is the spools themselves): a spool out writes its words
 * into a source PCT as one block, a spool in takes a destination PCT's
 * words as they become readable. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cell.h"

/* ---- spools (design 3.6) ---------------------------------------------- */

int mcei_iw_spool_put(mcei_vn_t *vn, int pct, const uint32_t *w, size_t n,
                      mce_time_t word, mce_time_t *done, uint64_t *mark,
                      char *why, size_t len)
{
    iw_node_t *nd = node_of(vn);
    iw_pct_t *p;
    if (pct < 0 || pct >= iwc()->pcts || nd->pct[pct].state != PCT_CONFIGURED ||
        nd->pct[pct].in_port != MCEI_IW_CPU) {
        snprintf(why, len,
                 "PCT %d is not a configured source PCT (input: the "
                 "CPU)",
                 pct);
        return MCE_ERR_STATE;
    }
    p = &nd->pct[pct];
    mcei_sync(vn);
    mcei_iw_inject_pct(vn, pct, vn->clock, w, n);
    /* expected end (the exact one: mcei_iw_spool_put_end) */
    *done = vn->clock + (mce_time_t)n * word;
    *mark = p->words;
    return MCE_OK;
}

int mcei_iw_spool_put_end(mcei_vn_t *vn, int pct, uint64_t mark, int test,
                          mce_time_t *end)
{
    iw_pct_t *p = &node_of(vn)->pct[pct];
    mce_time_t t;
    /* the spool's last word is in the PCT once word mark - pct_words + 1
     * has started into the first link */
    if (mark < (uint64_t)iwc()->pct_words) {
        *end = 0;
        return 1;
    }
    mcei_sync(vn);
    if (test) {
        t = mcei_iw_seg_time(
            mcei_iw_seg_list(p, mcei_iw_own_key(vn, pct)),
            (u128)(mark - (uint64_t)iwc()->pct_words) * iwc()->unit, 1);
        if (t > vn->clock)
            return 0;
    } else {
        t = mcei_iw_seg_wait(vn, pct, mcei_iw_own_key(vn, pct),
                             mark - (uint64_t)iwc()->pct_words + 1, 1,
                             "iwarp_spool_wait", mcei_iw_str_what,
                             "a spool out");
    }
    *end = t;
    return 1;
}

int mcei_iw_spool_take(mcei_vn_t *vn, int pct, mce_time_t start,
                       mce_time_t word, uint32_t *w, size_t n, int test,
                       mce_time_t *done, char *why, size_t len)
{
    iw_node_t *nd = node_of(vn);
    iw_pct_t *p;
    rd_wait_t r;
    mce_time_t t = start + (mce_time_t)n * word, m, delay;
    int64_t key;
    uint64_t k;
    if (pct < 0 || pct >= iwc()->pcts || nd->pct[pct].state != PCT_CONFIGURED ||
        nd->pct[pct].out_port != MCEI_IW_CPU) {
        snprintf(why, len,
                 "PCT %d is not a configured destination PCT "
                 "(output: the CPU)",
                 pct);
        return MCE_ERR_STATE;
    }
    p = &nd->pct[pct];
    mcei_sync(vn);
    r.p = p;
    r.n = n;
    if (n == 0) {
        *done = start;
        return 1;
    }
    if (test && !mcei_iw_enough_words(vn, &r))
        return 0;
    if (!test)
        mcei_wait(vn, mcei_iw_enough_words, &r, "iwarp_spool_wait",
                  "the words of a spool in");
    /* the completion time, before taking anything (test may refuse); the
     * spool takes a word per @p word, words arrive word_time apart */
    k = mcei_iw_nth_word(p, n, &key, &delay);
    if (test) {
        m = mcei_iw_seg_time(mcei_iw_seg_list(p, key), (u128)k * iwc()->unit,
                             0);
        if (m > vn->clock)
            return 0;
    } else {
        m = mcei_iw_seg_wait(vn, pct, key, k, 0, "iwarp_spool_wait",
                             mcei_iw_str_what, "the words of a spool in");
        mcei_iw_nth_word(p, n, &key, &delay);
    }
    if (m + delay + word > t)
        t = m + delay + word;
    if (test && t > vn->clock)
        return 0;
    for (size_t k = 0; k < n; k++) {
        mcei_msg_t *h = p->rx.head;
        memcpy(&w[k], (const uint8_t *)mcei_msg_data(h) + 4 * p->rx_used, 4);
        p->rx_words--;
        if (++p->rx_used == h->w.size / 4) {
            mcei_msgq_remove(&p->rx, h);
            mcei_count_recv(vn, h->w.size);
            mcei_msg_release(h);
            p->rx_used = 0;
        }
    }
    *done = t;
    return 1;
}
