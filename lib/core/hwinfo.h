/* Where each rank runs (hwloc), reported by rank 0. */
#ifndef MCEI_HWINFO_H
#define MCEI_HWINFO_H

#include "engine.h"

/* Collective: every rank contributes one line; rank 0 prints them. */
void mcei_hwinfo_report(mcei_engine_t *eng);
/* This rank's line (host, pid, binding, last CPU, nodes) into buf. */
void mcei_hwinfo_line(mcei_engine_t *eng, char *buf, size_t len);
/* The cores of this host (hwloc; the online processors without it). */
int mcei_hw_cores(void);

#endif
