/* Chrome trace-event JSON timelines (Perfetto, chrome://tracing). */
#ifndef MCEI_TRACE_H
#define MCEI_TRACE_H

#include "engine.h"

/* --mce-trace-events classes */
#define MCEI_TRACE_CALLS 1u /* personality calls, messages and flows */
#define MCEI_TRACE_PROTO 2u /* machine protocols' per-node events */
#define MCEI_TRACE_NET   4u /* network resources (ports, links, ...) */
#define MCEI_TRACE_ALL   7u

int mcei_trace_open(mcei_engine_t *eng, char *err, size_t errlen);
/* Merge every rank's events into the trace file (collective). */
int mcei_trace_close(mcei_engine_t *eng);
/* The run ends in an error: write this rank's events so far, marked
 * partial (not collective). */
void mcei_trace_abort(mcei_engine_t *eng);
void mcei_trace_send(mcei_vn_t *vn, const mcei_msg_t *m, mce_time_t t0,
                     mce_time_t t1);
void mcei_trace_recv(mcei_vn_t *vn, const mcei_msg_t *m, const char *call,
                     mce_time_t t0, mce_time_t t1);
/* A flow arrow starts at the program's send of @p m (at its send time),
 * and ends in the call during which the node received it: flow_in keeps
 * it until flows_end at the call's end. */
void mcei_trace_flow_out(mcei_vn_t *vn, const mcei_msg_t *m);
/* Arrows of program messages that a protocol carries in messages of its
 * own (the NCUBE's): ids MCEI_FLOW_PROTO | n, n counted by the sending
 * node, shown as "SOURCE.vN"; the protocol carries the id in w.flow to
 * the receive, which passes it to mcei_trace_flow_in. */
#define MCEI_FLOW_PROTO ((uint64_t)1 << 63)
void mcei_trace_flow_start(mcei_vn_t *vn, mce_time_t t, uint64_t id);
/* A broadcast's arrows: one from the sender to each of the @p n nodes in
 * @p dests (NULL: nodes 0 .. n-1 but the sender), ids "SOURCE.vN>DEST";
 * the protocol carries the id (with MCEI_FLOW_BCAST set) to every
 * receiver, whose flow_in ends the arrow addressed to it. */
#define MCEI_FLOW_BCAST ((uint64_t)1 << 62)
void mcei_trace_flow_bcast(mcei_vn_t *vn, mce_time_t t, uint64_t id,
                           const int *dests, int n);
void mcei_trace_flow_in(mcei_vn_t *vn, int src, uint64_t seq);
void mcei_trace_flows_end(mcei_vn_t *vn, mce_time_t t);
void mcei_trace_instant(mcei_vn_t *vn, const char *name, mce_time_t t);
void mcei_trace_edge(mcei_vn_t *vn, const char *name, int begin, mce_time_t t);
/* A call's slice, with the arguments set by mcei_api_args. */
void mcei_trace_span(mcei_vn_t *vn, const char *name, mce_time_t t0,
                     mce_time_t t1);
/* A protocol event of node @p vn on its protocol track: @p track names
 * the kind (the category: "handshake", "interrupt", "discard", ...),
 * @p args is NULL or the members of a JSON object ("\"bytes\":12"). */
void mcei_trace_proto(mcei_vn_t *vn, const char *track, const char *name,
                      mce_time_t t0, mce_time_t t1, const char *args);
/* Whether node @p vn's protocol events are recorded (a model may skip
 * formatting their arguments otherwise). */
int mcei_trace_proto_on(const mcei_vn_t *vn);
/* Network events, on one track per resource (@p res, @p index: "link",
 * 12); written by one rank only, as every rank runs the same model.
 * mcei_trace_net_on() tells a model whether to format any. */
int mcei_trace_net_on(void);
/* The same with the track's own name @p label (copied; NULL: "RES
 * INDEX").  A track is keyed by @p res (a string constant) and @p index. */
void mcei_trace_net_named(const char *res, int index, const char *label,
                          const char *name, mce_time_t t0, mce_time_t t1,
                          const char *args);
/* A state of a network resource whose end is not known yet (a PCT's
 * configuration, a link's load): mcei_trace_net_open starts it (ending
 * the one open on that track, if any, at @p t0), mcei_trace_net_close
 * ends it; one still open when the trace is closed ends at the run's
 * end (mcei_trace_set_end).  @p name and @p args are copied. */
void mcei_trace_net_open(const char *res, int index, const char *label,
                         const char *name, mce_time_t t0, const char *args);
void mcei_trace_net_close(const char *res, int index, mce_time_t t1);
/* A state nested in the one open on a track (a PCT's queue inside its
 * configuration): the same rules, one at a time; ending the outer state
 * ends it at the same time. */
void mcei_trace_net_inner_open(const char *res, int index, const char *label,
                               const char *name, mce_time_t t0,
                               const char *args);
void mcei_trace_net_inner_close(const char *res, int index, mce_time_t t1);
/* Resources of one node (an NCUBE node's DMA channels and buffer pool,
 * an iWarp cell's spools), on tracks of process pid 3 ("node
 * resources"), written by the rank that runs the node: track slot @p
 * slot (< MCEI_TRACE_RES_SLOTS) of node @p vn, named @p label at its
 * first event.  In the "net" class, and filtered by the node range. */
#define MCEI_TRACE_RES_SLOTS 64
int mcei_trace_res_on(const mcei_vn_t *vn);
void mcei_trace_res(mcei_vn_t *vn, int slot, const char *label,
                    const char *name, mce_time_t t0, mce_time_t t1,
                    const char *args);
/* The run's end (its largest virtual clock), for the states still open
 * when the trace is closed (rank 0, before mcei_trace_close). */
void mcei_trace_set_end(mce_time_t t);
/* Convert the merged JSON events in @p json (rewound) into the OTF2
 * archive @p path (FILE.otf2), replacing a previous archive there (see
 * mcei_trace_otf2_clear); MCE_ERR_IO without OTF2 support.  On failure
 * @p err says why. */
int mcei_trace_otf2_write(FILE *json, const char *path, int nodes, char *err,
                          size_t errlen);
/* An archive already at @p path (FILE.otf2 with FILE.def and FILE/):
 * MCE_OK if there is none or every piece of it is an OTF2 archive's (with
 * @p rm, removed); otherwise MCE_ERR_IO, nothing removed, @p err says
 * which piece is not. */
int mcei_trace_otf2_clear(const char *path, int rm, char *err, size_t errlen);
void mcei_trace_net(const char *res, int index, const char *name, mce_time_t t0,
                    mce_time_t t1, const char *args);

#endif
