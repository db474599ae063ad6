/* The iWarp cell's CPU cycles, stretched by its active spools (Warfel
 * 1996, section 3.1.3; spool.c describes the cycle stealing, and keeps
 * the table of the cell's spools this file reads). */
#include "cpu.h"

#include "spool.h"
#include "state.h"

static const mcei_iw_spool_k_t *spool_k(void)
{
    return &mcei_iw_state()->spool;
}

static mcei_iw_spool_t *table_of(mcei_vn_t *vn)
{
    return mcei_iw_slots(vn)->spool->s;
}

mce_time_t mcei_iw_cpu_end(mcei_vn_t *vn, mce_time_t from, mce_time_t c)
{
    mcei_iw_spool_t *t;
    mce_time_t now = from, left = c;
    if (c == 0 || mcei_iw_state() == NULL)
        return from + c;
    t = table_of(vn);
    for (;;) {
        mce_time_t next = MCEI_TIME_INF;
        uint64_t act = 0, s = spool_k()->steal;
        unsigned __int128 q;
        for (int i = 0; i < (int)spool_k()->spools; i++)
            if (t[i].busy && t[i].end > now) {
                act++;
                if (t[i].end < next)
                    next = t[i].end;
            }
        if (act == 0)
            return now + left;
        if (act > s - 1)
            act = s - 1;
        /* work done until next: (next - now) x (s - act) / s */
        q = (unsigned __int128)(next - now) * (s - act) / s;
        if (q >= left) {
            q = ((unsigned __int128)left * s + (s - act) - 1) / (s - act);
            if (q > MCEI_TIME_INF - now)
                mcei_vn_fatal(vn, "iwarp: virtual clock overflow in work "
                                  "stretched by the spools");
            return now + (mce_time_t)q;
        }
        left -= (mce_time_t)q;
        now = next;
    }
}

mce_time_t mcei_iw_spool_stretch(mcei_vn_t *vn, mce_time_t c)
{
    return mcei_iw_cpu_end(vn, vn->clock, c) - vn->clock;
}

void mcei_iw_cpu(mcei_vn_t *vn, mce_time_t c)
{
    mce_time_t s = mcei_iw_spool_stretch(vn, c);
    /* the work itself is communication software; the stretch, cycles
     * the spools took */
    mcei_charge_comm(vn, c);
    mcei_charge_stolen(vn, s - c);
}
