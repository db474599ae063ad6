/* The video devices of the motion detector (doc/design/iwarp-tcs.md,
 * section 8.6; Warfel 1996, sections 7.2.1 and 7.2.3).
 *
 * Camera: a pure function of virtual time.  Word k (4 pixels) of line l
 * of frame f arrives at the camera cell's port at f T + l video.line + k
 * video.word_gap clocks, T = video.lines x video.line + video.vblank.
 * The port holds video.fifo words; a word that arrives while it holds
 * that many is lost ("incoming data would be lost", W 7.2.3) and
 * counted.  Nothing runs while nobody reads: on each read the arrivals up
 * to the reader's clock are accounted for arithmetically (the order of
 * arrivals and reads is exact, since the port only fills between reads).
 * A read takes one word per video.word_op; a word not yet arrived is
 * waited for (iwarp_align semantics: interrupt handlers may run in the
 * idle time).  What the camera sees comes from the program's source
 * function, or by default each word is its stream position.
 *
 * Display: each word written costs video.word_op; the word and the time
 * its write ended are recorded. */
#include "video.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "iwarp.h"
#include "state.h"

#define FIFO_MAX 4096

typedef struct out_rec {
    uint32_t w;
    mce_time_t t;
} out_rec_t;

typedef struct mcei_iw_video_node {
    /* camera */
    mcei_iw_video_fn fn;
    void *arg;
    uint64_t next; /* first word whose arrival is not accounted for */
    uint64_t *q;   /* positions of the words the port holds */
    size_t qh, qn; /* head, count */
    uint64_t lost;
    /* display */
    out_rec_t *out;
    uint64_t nout, capout;
} video_node_t;

static const mcei_iw_video_k_t *video_k(void)
{
    return &mcei_iw_state()->video;
}

int mcei_iw_video_init(mcei_iw_video_k_t *k, mcei_machine_t *m,
                       mce_time_t clock, int width, char *err, size_t errlen)
{
    int rc;
    memset(k, 0, sizeof(*k));
    k->clock = clock;
    k->width = width;
    if ((rc = mcei_key_u64(m, "video.line", &k->line, err, errlen)) ||
        (rc = mcei_key_u64(m, "video.active_words", &k->words, err, errlen)) ||
        (rc = mcei_key_u64(m, "video.word_gap", &k->gap, err, errlen)) ||
        (rc = mcei_key_u64(m, "video.lines", &k->lines, err, errlen)) ||
        (rc = mcei_key_u64(m, "video.vblank", &k->vblank, err, errlen)) ||
        (rc = mcei_key_u64(m, "video.fifo", &k->fifo, err, errlen)) ||
        (rc = mcei_key_u64(m, "video.word_op", &k->op, err, errlen)) ||
        (rc = mcei_key_u64(m, "video.camera", &k->camera, err, errlen)) ||
        (rc = mcei_key_u64(m, "video.display", &k->display, err, errlen)))
        return rc;
    /* the port must keep up with a reader that reads as fast as it can */
    if (k->words == 0 || k->gap == 0 || k->lines == 0 || k->op == 0 ||
        k->op > k->gap || k->fifo == 0 || k->fifo > FIFO_MAX ||
        k->line > 1000000 || k->vblank > 100000000 || k->lines > 100000 ||
        k->words > 100000 || (k->words - 1) * k->gap >= k->line) {
        snprintf(err, errlen,
                 "machine '%s': need positive video.active_words, word_gap "
                 "and lines, 1 <= video.word_op <= video.word_gap, 1 <= "
                 "video.fifo <= %d and (active_words - 1) x word_gap < "
                 "video.line <= 1000000",
                 m->name, FIFO_MAX);
        return MCE_ERR_MACHINE;
    }
    k->frame = k->lines * k->line + k->vblank;
    k->wpf = k->lines * k->words;
    return MCE_OK;
}

int mcei_iw_video_node_init(mcei_vn_t *vn)
{
    video_node_t *v;
    if ((uint64_t)vn->id != video_k()->camera &&
        (uint64_t)vn->id != video_k()->display)
        return MCE_OK;
    if ((v = calloc(1, sizeof(*v))) == NULL)
        return MCE_ERR_NOMEM;
    if ((uint64_t)vn->id == video_k()->camera &&
        (v->q = calloc((size_t)video_k()->fifo, sizeof(*v->q))) == NULL) {
        free(v);
        return MCE_ERR_NOMEM;
    }
    mcei_iw_slots(vn)->video = v;
    return MCE_OK;
}

void mcei_iw_video_node_fini(mcei_vn_t *vn)
{
    video_node_t *v = mcei_iw_slots(vn)->video;
    if (v == NULL)
        return;
    free(v->q);
    free(v->out);
    free(v);
    mcei_iw_slots(vn)->video = NULL;
}

static int no_device(const char *what, uint64_t cell, char *why, size_t len)
{
    if (cell >= (uint64_t)mcei_nnodes())
        snprintf(why, len,
                 "this cell has no %s port (video.%s = %" PRIu64
                 " is not a cell of this %d-cell array: there is none)",
                 what, what, cell, mcei_nnodes());
    else
        snprintf(why, len,
                 "this cell has no %s port (video.%s = %" PRIu64
                 ": cell (%d,%d))",
                 what, what, cell, (int)(cell % (uint64_t)video_k()->width),
                 (int)(cell / (uint64_t)video_k()->width));
    return MCE_ERR_STATE;
}

static video_node_t *camera(mcei_vn_t *vn, char *why, size_t len)
{
    if ((uint64_t)vn->id != video_k()->camera) {
        no_device("camera", video_k()->camera, why, len);
        return NULL;
    }
    return mcei_iw_slots(vn)->video;
}

static video_node_t *display(mcei_vn_t *vn, char *why, size_t len)
{
    if ((uint64_t)vn->id != video_k()->display) {
        no_device("display", video_k()->display, why, len);
        return NULL;
    }
    return mcei_iw_slots(vn)->video;
}

/* Arrival time (clocks) of the word at stream position @p g. */
static uint64_t arrival(uint64_t g)
{
    uint64_t f = g / video_k()->wpf, r = g % video_k()->wpf;
    return f * video_k()->frame + r / video_k()->words * video_k()->line +
           r % video_k()->words * video_k()->gap;
}

/* Number of words arrived by clock @p c (arrival <= c). */
static uint64_t arrived_by(uint64_t c)
{
    uint64_t f = c / video_k()->frame, r = c % video_k()->frame,
             l = r / video_k()->line, w = r % video_k()->line / video_k()->gap;
    if (l >= video_k()->lines)
        return (f + 1) * video_k()->wpf;
    if (w >= video_k()->words)
        w = video_k()->words - 1;
    return f * video_k()->wpf + l * video_k()->words + w + 1;
}

/* Account for the arrivals up to the node's clock. */
static void absorb(mcei_vn_t *vn, video_node_t *v)
{
    uint64_t n = arrived_by(vn->clock / video_k()->clock);
    while (v->next < n && v->qn < video_k()->fifo) {
        v->q[(v->qh + v->qn) % video_k()->fifo] = v->next++;
        v->qn++;
    }
    if (v->next < n) {
        v->lost += n - v->next;
        v->next = n;
    }
}

static uint32_t content(const video_node_t *v, uint64_t g)
{
    uint64_t f = g / video_k()->wpf, r = g % video_k()->wpf;
    if (v->fn == NULL)
        return (uint32_t)g;
    return v->fn(v->arg, (unsigned long long)f, (int)(r / video_k()->words),
                 (int)(r % video_k()->words));
}

int mcei_iw_video_source(mcei_vn_t *vn, mcei_iw_video_fn fn, void *arg,
                         char *why, size_t len)
{
    video_node_t *v = camera(vn, why, len);
    if (v == NULL)
        return MCE_ERR_STATE;
    v->fn = fn;
    v->arg = arg;
    return MCE_OK;
}

int mcei_iw_video_read(mcei_vn_t *vn, uint32_t *w, size_t n, uint64_t *pos,
                       mce_time_t *arr, char *why, size_t len)
{
    video_node_t *v = camera(vn, why, len);
    if (v == NULL)
        return MCE_ERR_STATE;
    if (w == NULL && n > 0) {
        snprintf(why, len, "no buffer for %zu words", n);
        return MCE_ERR_INVAL;
    }
    mcei_iw_flush(vn);
    mcei_vn_memory(vn);
    for (size_t j = 0; j < n; j++) {
        uint64_t g;
        absorb(vn, v);
        if (v->qn == 0) {
            /* the port is empty: the next word to arrive is ours */
            mcei_iw_align(vn, (mce_time_t)arrival(v->next) * video_k()->clock);
            mcei_vn_memory(vn);
            absorb(vn, v);
        }
        g = v->q[v->qh];
        v->qh = (v->qh + 1) % video_k()->fifo;
        v->qn--;
        w[j] = content(v, g);
        if (pos != NULL)
            pos[j] = g;
        if (arr != NULL)
            arr[j] = (mce_time_t)arrival(g) * video_k()->clock;
        mcei_iw_cpu(vn, (mce_time_t)video_k()->op * video_k()->clock);
    }
    return MCE_OK;
}

int mcei_iw_video_sync(mcei_vn_t *vn, uint64_t *frame, char *why, size_t len)
{
    video_node_t *v = camera(vn, why, len);
    uint64_t c, f;
    if (v == NULL)
        return MCE_ERR_STATE;
    mcei_iw_flush(vn);
    /* what the port holds and what comes before the frame is dropped, not
     * lost: the program was not taking video yet */
    c = (vn->clock + video_k()->clock - 1) / video_k()->clock;
    f = (c + video_k()->frame - 1) / video_k()->frame;
    v->qn = 0;
    v->qh = 0;
    if (v->next < f * video_k()->wpf)
        v->next = f * video_k()->wpf;
    mcei_iw_align(vn, (mce_time_t)(f * video_k()->frame) * video_k()->clock);
    *frame = f;
    return MCE_OK;
}

int mcei_iw_video_lost(mcei_vn_t *vn, uint64_t *lost, char *why, size_t len)
{
    video_node_t *v = camera(vn, why, len);
    if (v == NULL)
        return MCE_ERR_STATE;
    absorb(vn, v);
    *lost = v->lost;
    return MCE_OK;
}

int mcei_iw_video_write(mcei_vn_t *vn, const uint32_t *w, size_t n, char *why,
                        size_t len)
{
    video_node_t *v = display(vn, why, len);
    if (v == NULL)
        return MCE_ERR_STATE;
    if (w == NULL && n > 0) {
        snprintf(why, len, "no words to write (%zu asked)", n);
        return MCE_ERR_INVAL;
    }
    mcei_iw_flush(vn);
    mcei_vn_memory(vn);
    if (v->nout + n > v->capout) {
        uint64_t cap = v->capout ? v->capout : 1024;
        out_rec_t *o;
        while (cap < v->nout + n)
            cap *= 2;
        if ((o = realloc(v->out, (size_t)cap * sizeof(*o))) == NULL)
            mcei_vn_fatal(vn, "iwarp_video_write: out of memory");
        v->out = o;
        v->capout = cap;
    }
    for (size_t j = 0; j < n; j++) {
        mcei_iw_cpu(vn, (mce_time_t)video_k()->op * video_k()->clock);
        v->out[v->nout].w = w[j];
        v->out[v->nout].t = vn->clock;
        v->nout++;
    }
    return MCE_OK;
}

int mcei_iw_video_output(mcei_vn_t *vn, uint64_t i, uint32_t *w, mce_time_t *t,
                         uint64_t *count, char *why, size_t len)
{
    video_node_t *v = display(vn, why, len);
    if (v == NULL)
        return MCE_ERR_STATE;
    if ((w != NULL || t != NULL) && i >= v->nout) {
        snprintf(why, len,
                 "no display word %" PRIu64 " (%" PRIu64 " written so far)", i,
                 v->nout);
        return MCE_ERR_INVAL;
    }
    if (w != NULL)
        *w = v->out[i].w;
    if (t != NULL)
        *t = v->out[i].t;
    if (count != NULL)
        *count = v->nout;
    return MCE_OK;
}
