/* motion_detect: the chapter 7 real-time video motion detector on TCS
 * (Warfel 1996, chapter 7; doc/design/iwarp-tcs.md, sections 8.6 and
 * 8.10).
 *
 *   motion_detect [--block=1,4,24] [--frames=F] [--video=static|noise|square]
 *                 [--out=FILE]
 *
 * Layout (6 x 2 at (0,0)): gateway-in (0,0) (the camera port), workers
 * 0-4 at (1..5,0), gateway-out (0,1) (the display port), workers 9-5 at
 * (1..5,1).  Task detect (12 cells) runs W 7.2.3's code: per frame and
 * block j of b scanlines, the gateway-in starts fill[j mod 10], the
 * gateway-out drain[j mod 10], and worker j mod 10 fill, compute and
 * drain; all three are TCS_LIGHT tasks (fill: gateway-in -> worker, one
 * connection; compute: the worker alone; drain: worker -> gateway-out).
 * Fill reads the block's lines from the camera as they arrive and sends
 * each on; compute runs the moving-average detector (apps/tcs/video.h)
 * and charges app.md_pixel or app.md_pixel_motion clocks per pixel by
 * its result; drain sends the output lines (4 pixels of 0/1 per word) to
 * the gateway-out, which writes them to the display.
 *
 * Each block size runs F frames from a frame boundary (vertical sync):
 * the first from frame 1, the next 2 frames after the previous run's
 * last.  Printed per run (gateway-out): the latency to the first pixel of
 * each block (first word in at the camera -> first word out at the
 * display) as max, mean and the first block's, the completion time (the
 * last output word, from the run's first input word); per worker its
 * computation and utilisation (computation / (F x frame period)); the
 * gateway-in's lost words.  --out writes the output images (F x 240 x
 * 256 bytes of 0/1 per run, in order). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tcs.h>

#include "opts.h"
#include "video.h"

#define WORKERS   10
#define MAXBLOCKS 24
#define LINE_W    VID_WORDS

typedef struct md_params {
    int nruns, blocks[MAXBLOCKS], frames;
    vid_t vid;
    int threshold;
    unsigned long long pix, pix_motion, line, frame_clocks, clock_ps;
    const char *out;
} md_params_t;

/* per cell: a worker's averages and buffers, a gateway's line */
typedef struct cell_state {
    const md_params_t *p;
    uint8_t avg[VID_LINES * VID_WIDTH];
    uint32_t in[MAXBLOCKS * LINE_W], out[MAXBLOCKS * LINE_W];
    uint8_t image[VID_LINES * VID_WIDTH]; /* gateway-out: the frame */
} cell_state_t;

typedef struct blk {
    cell_state_t *s;
    int line0, nlines, first;
    long sync; /* gateway-in: the run's first block: vertical sync to it */
    unsigned long long out_first; /* gateway-out: first word's display time */
} blk_t;

static tcs_task_t t_detect, t_fill[WORKERS], t_compute[WORKERS],
    t_drain[WORKERS];

/* The workers' cells (y x 8 + x) around the gateways (0,0) and (0,1) in
 * the 3 x 4 allocation (7..1, 7..2) of the torus. */
static const int worker_cells[WORKERS] = {1, 7, 57, 56, 63, 9, 15, 16, 17, 23};

static int worker_cell(int i)
{
    return worker_cells[i];
}

static int worker_of(int cell)
{
    for (int i = 0; i < WORKERS; i++)
        if (worker_cells[i] == cell)
            return i;
    return -1;
}

static void die(const char *what, int rc)
{
    fprintf(stderr, "motion_detect: cell %d: %s failed (%d)\n", iwarp_cell(),
            what, rc);
    exit(1);
}

static int port(tcs_ctx_t *ctx, const char *name)
{
    int h = tcs_port_handle(ctx, name);
    if (h < 0)
        die("tcs_port_handle", h);
    return h;
}

static void fill(tcs_ctx_t *ctx, const void *params)
{
    const blk_t *b = params;
    int rc;
    if (tcs_rank(ctx) == 0) {
        /* each word goes on as it comes from the camera */
        int h = port(ctx, "out");
        if (b->sync >= 0 && iwarp_video_sync() != b->sync)
            die("iwarp_video_sync (frame)", (int)b->sync);
        for (int k = 0; k < b->nlines * LINE_W; k++) {
            uint32_t w;
            if ((rc = iwarp_video_read(&w, 1)) != IW_OK)
                die("iwarp_video_read", rc);
            if ((rc = tcs_write(ctx, h, &w, 1)) != TCS_OK)
                die("tcs_write", rc);
        }
    } else if ((rc = tcs_read(ctx, port(ctx, "in"), b->s->in,
                              (size_t)b->nlines * LINE_W)) != TCS_OK) {
        die("tcs_read", rc);
    }
}

static void compute(tcs_ctx_t *ctx, const void *params)
{
    const blk_t *b = params;
    cell_state_t *s = b->s;
    const md_params_t *p = s->p;
    (void)ctx;
    for (int l = 0; l < b->nlines; l++) {
        unsigned long long clocks = 0;
        for (int k = 0; k < LINE_W; k++) {
            uint32_t win = s->in[l * LINE_W + k], wout = 0;
            for (int i = 0; i < 4; i++) {
                size_t px =
                    (size_t)(b->line0 + l) * VID_WIDTH + (size_t)(4 * k + i);
                int m = md_pixel(&s->avg[px], (uint8_t)(win >> (8 * i)),
                                 b->first, p->threshold);
                clocks += m ? p->pix_motion : p->pix;
                wout |= (uint32_t)m << (8 * i);
            }
            s->out[l * LINE_W + k] = wout;
        }
        iwarp_compute(clocks);
    }
}

static void drain(tcs_ctx_t *ctx, const void *params)
{
    blk_t *b = (blk_t *)params;
    int rc;
    if (tcs_rank(ctx) == 0) {
        if ((rc = tcs_write(ctx, port(ctx, "out"), b->s->out,
                            (size_t)b->nlines * LINE_W)) != TCS_OK)
            die("tcs_write", rc);
    } else {
        int h = port(ctx, "in");
        uint32_t w[LINE_W];
        for (int l = 0; l < b->nlines; l++) {
            long long n = iwarp_video_output(0, NULL, NULL);
            if ((rc = tcs_read(ctx, h, w, LINE_W)) != TCS_OK)
                die("tcs_read", rc);
            if ((rc = iwarp_video_write(w, LINE_W)) != IW_OK)
                die("iwarp_video_write", rc);
            if (l == 0)
                iwarp_video_output((unsigned long long)n, NULL, &b->out_first);
            for (int k = 0; k < LINE_W; k++)
                for (int i = 0; i < 4; i++)
                    b->s->image[(size_t)(b->line0 + l) * VID_WIDTH +
                                (size_t)(4 * k + i)] =
                        (uint8_t)(w[k] >> (8 * i) & 0xff);
        }
    }
}

static unsigned long long compute_clocks(const md_params_t *p)
{
    mce_node_stats_t st;
    mce_stats(&st);
    return (unsigned long long)(st.compute / p->clock_ps);
}

static void detect(tcs_ctx_t *ctx, const void *params)
{
    const md_params_t *p = params;
    enum { GW_IN, GW_OUT, OTHER };
    int cell = iwarp_cell(), rc, worker = worker_of(cell);
    int role = cell == 0 ? GW_IN : cell == 8 ? GW_OUT : OTHER;
    cell_state_t *s = calloc(1, sizeof(*s));
    unsigned long long start = 1;
    FILE *fo = NULL;
    if (s == NULL)
        die("calloc", -1);
    s->p = p;
    if (role == GW_IN && (rc = iwarp_video_source(vid_word, (void *)&p->vid)))
        die("iwarp_video_source", rc);
    if (role == GW_OUT && p->out != NULL &&
        (fo = fopen(p->out, "wb")) == NULL) {
        perror(p->out);
        exit(1);
    }
    for (int r = 0; r < p->nruns;
         r++, start += (unsigned long long)p->frames + 2) {
        int b = p->blocks[r], nb = (VID_LINES + b - 1) / b;
        unsigned long long c0 = compute_clocks(p), t0 = start * p->frame_clocks;
        unsigned long long lat_max = 0, lat_sum = 0, lat_first = 0, nlat = 0,
                           lost0 = role == GW_IN ? iwarp_video_lost() : 0;
        /* the first fill starts in the vertical blank before the run's
         * first frame and waits there for its first line */
        if (role == GW_IN)
            iwarp_align(t0 - p->line);
        for (int f = 0; f < p->frames; f++)
            for (int j = 0; j < nb; j++) {
                blk_t bk = {.s = s,
                            .line0 = j * b,
                            .nlines =
                                j * b + b <= VID_LINES ? b : VID_LINES - j * b,
                            .first = f == 0,
                            .sync = f == 0 && j == 0 ? (long)start : -1};
                if (role == GW_IN) {
                    if ((rc = tcs_start(ctx, t_fill[j % WORKERS], &bk)))
                        die("tcs_start(fill)", rc);
                } else if (role == GW_OUT) {
                    unsigned long long in =
                        (start + (unsigned long long)f) * p->frame_clocks +
                        (unsigned long long)bk.line0 * p->line;
                    if ((rc = tcs_start(ctx, t_drain[j % WORKERS], &bk)))
                        die("tcs_start(drain)", rc);
                    if (bk.out_first - in > lat_max)
                        lat_max = bk.out_first - in;
                    if (nlat == 0)
                        lat_first = bk.out_first - in;
                    lat_sum += bk.out_first - in;
                    nlat++;
                    if (j == nb - 1 && fo != NULL &&
                        fwrite(s->image, 1, sizeof(s->image), fo) !=
                            sizeof(s->image)) {
                        perror(p->out);
                        exit(1);
                    }
                } else if (worker == j % WORKERS) {
                    if ((rc = tcs_start(ctx, t_fill[worker], &bk)) ||
                        (rc = tcs_start(ctx, t_compute[worker], &bk)) ||
                        (rc = tcs_start(ctx, t_drain[worker], &bk)))
                        die("tcs_start(worker)", rc);
                }
            }
        if (role == GW_IN) {
            unsigned long lost = (unsigned long)(iwarp_video_lost() - lost0);
            app_row("motion_detect_gateway_in",
                    APP_FIELDS(APP_I("block", b), APP_I("frames", p->frames),
                               APP_S("video", vid_name(&p->vid)),
                               APP_U("from_frame", start), APP_U("lost", lost)),
                    "motion_detect: block=%d frames=%d video=%s gateway_in "
                    "from_frame=%llu lost=%lu\n",
                    b, p->frames, vid_name(&p->vid), start, lost);
        } else if (role == GW_OUT) {
            unsigned long long n = (unsigned long long)iwarp_video_output(
                                   0, NULL, NULL),
                               tl;
            iwarp_video_output(n - 1, NULL, &tl);
            app_row("motion_detect",
                    APP_FIELDS(
                        APP_I("block", b), APP_I("frames", p->frames),
                        APP_S("video", vid_name(&p->vid)),
                        APP_U("latency_max", lat_max),
                        APP_F("latency_mean", (double)lat_sum / (double)nlat),
                        APP_U("latency_first", lat_first),
                        APP_U("completion", tl - t0)),
                    "motion_detect: block=%d frames=%d video=%s "
                    "latency_max=%llu latency_mean=%.1f latency_first=%llu "
                    "completion=%llu\n",
                    b, p->frames, vid_name(&p->vid), lat_max,
                    (double)lat_sum / (double)nlat, lat_first, tl - t0);
        } else if (worker >= 0) {
            unsigned long long c = compute_clocks(p) - c0;
            double u =
                (double)c / ((double)p->frames * (double)p->frame_clocks);
            app_row("motion_detect_worker",
                    APP_FIELDS(APP_I("block", b), APP_I("frames", p->frames),
                               APP_S("video", vid_name(&p->vid)),
                               APP_I("worker", worker), APP_U("compute", c),
                               APP_F("utilisation", u)),
                    "motion_detect: block=%d frames=%d video=%s worker=%d "
                    "compute=%llu utilisation=%.4f\n",
                    b, p->frames, vid_name(&p->vid), worker, c, u);
        }
        fflush(stdout);
    }
    if (fo != NULL && fclose(fo) != 0) {
        perror(p->out);
        exit(1);
    }
    free(s);
}

void tcs_declare(tcs_decl_t *d)
{
    char name[32];
    t_detect = tcs_task(d, "detect", TCS_NONE, 7, 7, 3, 4, detect,
                        sizeof(md_params_t), 0);
    for (int i = 0; i < WORKERS; i++) {
        int fc[2] = {0, worker_cell(i)}, cc = worker_cell(i),
            dc[2] = {worker_cell(i), 8};
        tcs_net_t n;
        snprintf(name, sizeof(name), "fill[%d]", i);
        t_fill[i] = tcs_task_cells(d, name, t_detect, fc, 2, fill,
                                   sizeof(blk_t), TCS_LIGHT);
        n = tcs_network(d, t_fill[i], "data");
        tcs_connect(d, n, 0, "out", 1, "in", 0, 0);
        tcs_netgroup(d, t_fill[i], "load", &n, 1);
        snprintf(name, sizeof(name), "compute[%d]", i);
        t_compute[i] = tcs_task_cells(d, name, t_detect, &cc, 1, compute,
                                      sizeof(blk_t), TCS_LIGHT);
        snprintf(name, sizeof(name), "drain[%d]", i);
        t_drain[i] = tcs_task_cells(d, name, t_detect, dc, 2, drain,
                                    sizeof(blk_t), TCS_LIGHT);
        n = tcs_network(d, t_drain[i], "data");
        tcs_connect(d, n, 0, "out", 1, "in", 0, 0);
        tcs_netgroup(d, t_drain[i], "unload", &n, 1);
    }
}

static unsigned long long param(const char *key)
{
    int64_t v = 0;
    if (mce_machine_param(key, &v) != 0 || v < 0) {
        fprintf(stderr, "motion_detect: machine key %s is missing\n", key);
        exit(2);
    }
    return (unsigned long long)v;
}

int main(int argc, char **argv)
{
    md_params_t p = {0};
    const char *v = NULL, *bl = NULL;
    long frames = 1;
    char *end;
    const app_opt_t opts[] = {
        {"block", APPO_STR, &bl, NULL, 0, 0, NULL, "B,B,...",
         "lines per block, 1..240; one run per size (default 1)"},
        {"frames", APPO_LONG, &frames, NULL, 0, 1, NULL, "F",
         "video frames, 1..1000 (default 1)"},
        {"video", APPO_STR, &v, NULL, 0, 0, NULL, "static|noise|square",
         "the generated video (default static)"},
        {"out", APPO_STR, &p.out, NULL, 0, 0, NULL, "FILE",
         "write the last block size's motion images (raw, 8 bits)"},
        {NULL, APPO_FLAG, NULL, NULL, 0, 0, NULL, NULL, NULL}};
    int prc = app_parse("motion_detect",
                        "The motion detector of Warfel 1996, chapter 7, as a "
                        "TCS program on the iWarp's video interfaces: "
                        "latency, completion and worker utilisation in "
                        "clocks.",
                        "[--block=B,...] [--frames=F] "
                        "[--video=static|noise|square] [--out=FILE] "
                        "[--format=table|csv|json]",
                        argc, argv, opts);
    if (prc != APP_PARSE_OK)
        return APP_PARSE_EXIT(prc);
    app_several_nodes(); /* the gateways and the workers print */
    if (vid_init(&p.vid, v != NULL ? v : "static", mce_seed()) != 0) {
        fprintf(stderr, "motion_detect: --video must be static, noise or "
                        "square\n");
        return 2;
    }
    if (frames > 1000) {
        fprintf(stderr, "motion_detect: --frames must be 1..1000\n");
        return 2;
    }
    p.frames = (int)frames;
    for (const char *s = bl != NULL ? bl : "1"; *s != '\0';) {
        long b = strtol(s, &end, 10);
        if (end == s || b < 1 || b > MAXBLOCKS || p.nruns == MAXBLOCKS ||
            (*end != ',' && *end != '\0')) {
            fprintf(stderr,
                    "motion_detect: --block takes block sizes 1..%d "
                    "separated by commas\n",
                    MAXBLOCKS);
            return 2;
        }
        p.blocks[p.nruns++] = (int)b;
        s = *end == ',' ? end + 1 : end;
    }
    p.threshold = (int)param("app.md_threshold");
    p.pix = param("app.md_pixel");
    p.pix_motion = param("app.md_pixel_motion");
    p.line = param("video.line");
    p.frame_clocks = param("video.lines") * p.line + param("video.vblank");
    p.clock_ps = param("iwarp.clock");
    if (param("video.active_words") != LINE_W ||
        param("video.lines") != VID_LINES || param("video.camera") != 0 ||
        param("video.display") != 8) {
        fprintf(stderr, "motion_detect: needs 64-word lines, 240 lines, the "
                        "camera on cell 0 and the display on cell 8\n");
        return 2;
    }
    prc = tcs_run(t_detect, &p) == TCS_OK ? 0 : 1;
    app_finish_any(); /* the gateways and the workers print */
    return prc;
}
