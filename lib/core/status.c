/* Status codes and diagnostics. */
#include "mcei.h"

#include <stdio.h>
#include <stdlib.h>

#include "engine.h"

static const char *const mcei_status_text[] = {
    [0] = "success",
    [-MCE_ERR_INVAL] = "invalid argument",
    [-MCE_ERR_NOMEM] = "out of memory",
    [-MCE_ERR_NODE] = "node number out of range",
    [-MCE_ERR_SIZE] = "invalid message size",
    [-MCE_ERR_TRUNCATE] = "receive buffer shorter than the message",
    [-MCE_ERR_TYPE] = "message type out of range",
    [-MCE_ERR_OVERFLOW] = "virtual clock overflow",
    [-MCE_ERR_NOT_IN_NODE] = "called outside a virtual node",
    [-MCE_ERR_CONFIG] = "invalid configuration",
    [-MCE_ERR_MACHINE] = "invalid or missing machine description",
    [-MCE_ERR_IO] = "input/output error",
    [-MCE_ERR_MPI] = "MPI transport failure",
    [-MCE_ERR_DEADLOCK] = "deadlock: every node blocked, nothing in flight",
    [-MCE_ERR_UNSUPPORTED] = "operation not supported by this machine model",
    [-MCE_ERR_RESOURCE] = "emulated machine resource exhausted",
    [-MCE_ERR_STATE] = "call not valid in the current state",
    [-MCE_ERR_NOT_FOUND] = "not found",
};

MCE_EXPORT const char *mce_strerror(int status)
{
    if (status > 0 || status <= MCE_ERR_LAST)
        return "unknown status";
    return mcei_status_text[-status];
}

void mcei_vlog(const char *fmt, va_list ap)
{
    char buf[1024];
    vsnprintf(buf, sizeof(buf), fmt, ap);
    /* One write per line keeps lines whole when ranks share a terminal. */
    fprintf(stderr, "mcemu: %s\n", buf);
    fflush(stderr);
}

void mcei_log(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    mcei_vlog(fmt, ap);
    va_end(ap);
}

void mcei_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    mcei_vlog(fmt, ap);
    va_end(ap);
    mcei_engine_abort(1);
}
