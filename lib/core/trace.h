/* Chrome trace-event JSON timelines (Perfetto, chrome://tracing). */
#ifndef MCEI_TRACE_H
#define MCEI_TRACE_H

#include "engine.h"

int mcei_trace_open(mcei_engine_t *eng, char *err, size_t errlen);
/* Merge every rank's events into the trace file (collective). */
int mcei_trace_close(mcei_engine_t *eng);
void mcei_trace_send(mcei_vn_t *vn, const mcei_msg_t *m, mce_time_t t0,
                     mce_time_t t1);
void mcei_trace_recv(mcei_vn_t *vn, const mcei_msg_t *m, const char *call,
                     mce_time_t t0, mce_time_t t1);
void mcei_trace_instant(mcei_vn_t *vn, const char *name, mce_time_t t);
void mcei_trace_edge(mcei_vn_t *vn, const char *name, int begin, mce_time_t t);
void mcei_trace_span(mcei_vn_t *vn, const char *name, mce_time_t t0,
                     mce_time_t t1);

#endif
