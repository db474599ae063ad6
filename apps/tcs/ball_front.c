/* ball_front: the front end of Warfel's "predict and plot the ball's
 * trajectory" example (Warfel 1996, section 2.2, Figures 2.2 and 2.3),
 * declared for the TCS linker (include/tcs.h; user guide chapter 29).
 *
 *   video_in     cells (0,0)-(3,0); output port 'pixels' on (3,0)
 *     sample_camera  (0,0)-(1,0): network 'gather' (cell 0 -> cell 1),
 *                    output port 'out' on (1,0)
 *     pack_pixels    (2,0)-(3,0): network 'pack' (cell 0 -> cell 1),
 *                    input port 'in' on (2,0), inherits video_in's
 *                    'pixels' (its cell 1)
 *     video_in connects sample_camera.out -> pack_pixels.in
 *   ball_detect  cells (4,0)-(7,1): netgroup 'filter' (network 'scatter':
 *                cell 0 to cells 1, 2, 3) and netgroup 'collect' (network
 *                'reduce': cells 4 and 5 to cell 0); input port 'pixels'
 *   the application connects video_in.pixels -> ball_detect.pixels with
 *   half a link reserved.
 *
 * `tcs-link ball_front` (or `ball_front --mce-tcs=link`) prints the
 * linker's report: routes, PCTs, link loads per phase, barrier rings.
 * A normal run runs the tasks with the TCS run time: video_in starts
 * sample_camera and pack_pixels on their cells (parent suspended there);
 * a "pixel" word travels (0,0) -> (1,0) on 'gather', over the external
 * connection to pack_pixels, (2,0) -> (3,0) on 'pack', over the inherited
 * port to ball_detect's cell 0, which scatters it to cells 1-3
 * (netgroup 'filter'), then switches to 'collect' and receives a word
 * from each of cells 4 and 5 (their ranks).  Cell (0,0) and cell (4,0) print
 * what they saw and when (virtual clocks); --format=csv|json as rows (one
 * JSON object per printing cell). */
#include <stdio.h>

#include <tcs.h>

#include "opts.h"

static tcs_task_t t_sc, t_pp;
static tcs_ng_t ng_sample, ng_pack, ng_filter, ng_collect;

static void put(tcs_ctx_t *ctx, const char *port, uint32_t w)
{
    int h = tcs_port_handle(ctx, port);
    if (h < 0 || tcs_write(ctx, h, &w, 1) != TCS_OK)
        fprintf(stderr, "ball_front: write to '%s' failed\n", port);
}

static uint32_t get(tcs_ctx_t *ctx, const char *port)
{
    uint32_t w = 0;
    int h = tcs_port_handle(ctx, port);
    if (h < 0 || tcs_read(ctx, h, &w, 1) != TCS_OK)
        fprintf(stderr, "ball_front: read from '%s' failed\n", port);
    return w;
}

static void video_in(tcs_ctx_t *ctx, const void *params)
{
    (void)params;
    tcs_start(ctx, tcs_rank(ctx) < 2 ? t_sc : t_pp, NULL);
    if (tcs_rank(ctx) == 0) {
        unsigned long long t = iwarp_vtime();
        app_row("ball_front_event",
                APP_FIELDS(APP_S("event", "video_in_end"), APP_U("clock", t),
                           APP_S("values", "")),
                "ball_front: video_in ended at %llu\n", t);
    }
}

static void sample_camera(tcs_ctx_t *ctx, const void *params)
{
    (void)params;
    tcs_switch(ctx, ng_sample);
    if (tcs_rank(ctx) == 0) {
        unsigned long long t = iwarp_vtime();
        app_row("ball_front_event",
                APP_FIELDS(APP_S("event", "sample_camera_start"),
                           APP_U("clock", t), APP_S("values", "")),
                "ball_front: sample_camera started at %llu\n", t);
        put(ctx, "w", 100);
    } else {
        put(ctx, "out", get(ctx, "w") + 1);
    }
}

static void pack_pixels(tcs_ctx_t *ctx, const void *params)
{
    (void)params;
    tcs_switch(ctx, ng_pack);
    if (tcs_rank(ctx) == 0)
        put(ctx, "raw", get(ctx, "in") + 1);
    else
        put(ctx, "pixels", get(ctx, "raw") + 1);
}

static void ball_detect(tcs_ctx_t *ctx, const void *params)
{
    int r = tcs_rank(ctx);
    uint32_t px = 0, s4, s5;
    (void)params;
    if (r == 0)
        px = get(ctx, "pixels");
    tcs_switch(ctx, ng_filter);
    if (r == 0) {
        put(ctx, "row1", px);
        put(ctx, "row2", px);
        put(ctx, "row3", px);
    } else if (r <= 3) {
        (void)get(ctx, "rows");
    }
    tcs_switch(ctx, ng_collect);
    if (r == 4 || r == 5) {
        put(ctx, "sum", (uint32_t)r);
    } else if (r == 0) {
        s4 = get(ctx, "sum4");
        s5 = get(ctx, "sum5");
        unsigned long long t = iwarp_vtime();
        char v[48];
        snprintf(v, sizeof(v), "%u %u %u", (unsigned)px, (unsigned)s4,
                 (unsigned)s5);
        app_row("ball_front_event",
                APP_FIELDS(APP_S("event", "ball_detect_results"),
                           APP_U("clock", t), APP_S("values", v)),
                "ball_front: ball_detect got pixel %u, results %u %u at "
                "%llu\n",
                (unsigned)px, (unsigned)s4, (unsigned)s5, t);
    }
}

/* The tasks: name, parent (index, -1: none), rectangle (relative to the
 * parent), code.  main prints the cells each one got. */
static const struct {
    const char *name;
    int parent, x, y, w, h;
    tcs_fn fn;
} tasks[] = {
    {"video_in", -1, 0, 0, 4, 1, video_in},
    {"sample_camera", 0, 0, 0, 2, 1, sample_camera},
    {"pack_pixels", 0, 2, 0, 2, 1, pack_pixels},
    {"ball_detect", -1, 4, 0, 4, 2, ball_detect},
};
enum { VI, SC, PP, BD, NTASKS };

void tcs_declare(tcs_decl_t *d)
{
    tcs_task_t t[NTASKS];
    for (int i = 0; i < NTASKS; i++)
        t[i] = tcs_task(d, tasks[i].name,
                        tasks[i].parent < 0 ? TCS_NONE : t[tasks[i].parent],
                        tasks[i].x, tasks[i].y, tasks[i].w, tasks[i].h,
                        tasks[i].fn, 0, 0);
    tcs_port_t vi_pixels = tcs_port(d, t[VI], "pixels", 3, TCS_OUT);
    tcs_port_t sc_out = tcs_port(d, t[SC], "out", 1, TCS_OUT);
    tcs_port_t pp_in = tcs_port(d, t[PP], "in", 0, TCS_IN);
    tcs_port_t bd_pixels = tcs_port(d, t[BD], "pixels", 0, TCS_IN);
    tcs_net_t gather = tcs_network(d, t[SC], "gather");
    tcs_net_t pack = tcs_network(d, t[PP], "pack");
    tcs_net_t scatter = tcs_network(d, t[BD], "scatter");
    tcs_net_t reduce = tcs_network(d, t[BD], "reduce");

    tcs_inherit(d, t[PP], "pixels", vi_pixels);
    tcs_connect(d, gather, 0, "w", 1, "w", 0, 0);
    ng_sample = tcs_netgroup(d, t[SC], "sample", &gather, 1);
    tcs_connect(d, pack, 0, "raw", 1, "raw", 0, 0);
    ng_pack = tcs_netgroup(d, t[PP], "pack", &pack, 1);
    tcs_connect(d, scatter, 0, "row1", 1, "rows", 0, 0);
    tcs_connect(d, scatter, 0, "row2", 2, "rows", 0, 0);
    tcs_connect(d, scatter, 0, "row3", 3, "rows", 0, 0);
    tcs_connect(d, reduce, 4, "sum", 0, "sum4", 0, 0);
    tcs_connect(d, reduce, 5, "sum", 0, "sum5", 0, 0);
    ng_filter = tcs_netgroup(d, t[BD], "filter", &scatter, 1);
    ng_collect = tcs_netgroup(d, t[BD], "collect", &reduce, 1);
    t_sc = t[SC];
    t_pp = t[PP];
    tcs_external(d, t[VI], sc_out, pp_in, 0, 0);
    tcs_external(d, TCS_NONE, vi_pixels, bd_pixels, 1, 2);
}

int main(int argc, char **argv)
{
    const app_opt_t opts[] = {
        {NULL, APPO_FLAG, NULL, NULL, 0, 0, NULL, NULL, NULL}};
    int prc =
        app_parse("ball_front",
                  "The front end of the ball-trajectory example of "
                  "Warfel 1996 (2.2, Figures 2.2 and 2.3) as a TCS "
                  "program: the linker's allocations and when the "
                  "tasks saw their words (clocks).  tcs-link "
                  "ball_front prints the linker's report.",
                  "--mce-nodes=64 [--format=table|csv|json]", argc, argv, opts);
    if (prc != APP_PARSE_OK)
        return APP_PARSE_EXIT(prc);
    app_several_nodes(); /* cells (0,0) and (4,0) print */
    if (iwarp_cell() == 0) {
        app_note("ball_front: the declaration linked at start-up; "
                 "allocations:\n");
        for (int i = 0; i < NTASKS; i++) {
            int x = tasks[i].x, y = tasks[i].y, p = tasks[i].parent;
            for (; p >= 0; p = tasks[p].parent)
                x += tasks[p].x, y += tasks[p].y;
            const char *parent =
                tasks[i].parent < 0 ? "" : tasks[tasks[i].parent].name;
            app_row("ball_front_task",
                    APP_FIELDS(APP_S("task", tasks[i].name), APP_I("x0", x),
                               APP_I("y0", y), APP_I("x1", x + tasks[i].w - 1),
                               APP_I("y1", y + tasks[i].h - 1),
                               APP_S("parent", parent)),
                    "ball_front: task %s cells (%d,%d)-(%d,%d)%s%s\n",
                    tasks[i].name, x, y, x + tasks[i].w - 1, y + tasks[i].h - 1,
                    *parent ? " inside " : "", parent);
        }
        fflush(stdout);
    }
    /* each cell runs the top-level task that holds it (if any) */
    if (tcs_run(VI, NULL) != TCS_OK || tcs_run(BD, NULL) != TCS_OK)
        return 1;
    app_finish_any();
    return 0;
}
