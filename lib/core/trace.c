/* Chrome trace-event JSON: one track (tid) per virtual node, virtual
 * timestamps in microseconds with picosecond decimals, message flows from
 * the send slice to the receive slice.  Each rank buffers its events in a
 * temporary file; rank 0 writes the final file in rank order. */
#include "trace.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transport.h"

static FILE *tf;

static const char *us(mce_time_t t, char *buf, size_t len)
{
    snprintf(buf, len, "%" PRIu64 ".%06" PRIu64, t / MCE_US, t % MCE_US);
    return buf;
}

/* Length of the well-formed UTF-8 sequence at @p s (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF), 0 if none.
 * Stops at the terminating NUL, which is no continuation byte. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        return (s[1] & 0xc0) == 0x80 ? 2 : 0;
    if (c >= 0xe0 && c <= 0xef) {
        if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 ||
            (c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] >= 0xa0))
            return 0;
        return 3;
    }
    if (c >= 0xf0 && c <= 0xf4) {
        if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 ||
            (s[3] & 0xc0) != 0x80 || (c == 0xf0 && s[1] < 0x90) ||
            (c == 0xf4 && s[1] >= 0x90))
            return 0;
        return 4;
    }
    return 0;
}

/* JSON string body: escape quotes, backslashes and control characters;
 * bytes that are not UTF-8 become U+FFFD, so the file stays valid JSON. */
static void put_json_str(const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    while (*s) {
        unsigned char c = *s;
        size_t n = utf8_len(s);
        if (n == 0) {
            fputs("\\ufffd", tf);
            s++;
            continue;
        }
        if (c == '"' || c == '\\')
            fprintf(tf, "\\%c", c);
        else if (c < 0x20)
            fprintf(tf, "\\u%04x", c);
        else
            fwrite(s, 1, n, tf);
        s += n;
    }
}

int mcei_trace_open(mcei_engine_t *eng, char *err, size_t errlen)
{
    int bad = 0, anybad = 0;
    if (eng->rank == 0) {
        /* Fail early if the file cannot be written. */
        FILE *f = fopen(eng->cfg.trace, "w");
        if (f == NULL) {
            snprintf(err, errlen, "option --mce-trace: cannot write '%s': %s",
                     eng->cfg.trace, strerror(errno));
            bad = 1;
        } else {
            fclose(f);
        }
    }
    /* Every rank learns rank 0's verdict, so all of them stop together. */
    mcei_transport_max_int(bad, &anybad);
    if (anybad)
        return MCE_ERR_IO;
    if ((tf = tmpfile()) == NULL) {
        snprintf(err, errlen, "option --mce-trace: no temporary file: %s",
                 strerror(errno));
        return MCE_ERR_IO;
    }
    for (int i = 0; i < eng->nlocal; i++)
        fprintf(
            tf,
            ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":0,\"tid\":%d,"
            "\"args\":{\"name\":\"node %d\"}}"
            ",\n{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":0,"
            "\"tid\":%d,\"args\":{\"sort_index\":%d}}",
            eng->vns[i].id, eng->vns[i].id, eng->vns[i].id, eng->vns[i].id);
    return MCE_OK;
}

static int on(const mcei_vn_t *vn)
{
    return tf != NULL && vn->trace_on;
}

void mcei_trace_send(mcei_vn_t *vn, const mcei_msg_t *m, mce_time_t t0,
                     mce_time_t t1)
{
    char a[32], b[32];
    if (!on(vn))
        return;
    fprintf(
        tf,
        ",\n{\"ph\":\"X\",\"name\":\"send\",\"cat\":\"msg\",\"pid\":0,"
        "\"tid\":%d,\"ts\":%s,\"dur\":%s,\"args\":{\"dst\":%d,\"type\":%" PRId64
        ",\"bytes\":%" PRIu64 ",\"seq\":%" PRIu64 "}}",
        vn->id, us(t0, a, sizeof(a)), us(t1 - t0, b, sizeof(b)), m->w.dst,
        m->w.type, m->w.size, m->w.seq);
    fprintf(tf,
            ",\n{\"ph\":\"s\",\"name\":\"msg\",\"cat\":\"msg\",\"pid\":0,"
            "\"tid\":%d,\"ts\":%s,\"id\":\"%d.%" PRIu64 "\"}",
            vn->id, us(t0, a, sizeof(a)), m->w.src, m->w.seq);
}

void mcei_trace_recv(mcei_vn_t *vn, const mcei_msg_t *m, const char *call,
                     mce_time_t t0, mce_time_t t1)
{
    char a[32], b[32], c[32], d[32];
    if (!on(vn))
        return;
    fprintf(
        tf,
        ",\n{\"ph\":\"X\",\"name\":\"%s\",\"cat\":\"msg\",\"pid\":0,"
        "\"tid\":%d,\"ts\":%s,\"dur\":%s,\"args\":{\"src\":%d,\"type\":%" PRId64
        ",\"bytes\":%" PRIu64 ",\"sent\":%s,\"arrived\":%s}}",
        call, vn->id, us(t0, a, sizeof(a)), us(t1 - t0, b, sizeof(b)), m->w.src,
        m->w.type, m->w.size, us(m->w.ts, c, sizeof(c)),
        us(m->arrival, d, sizeof(d)));
    fprintf(tf,
            ",\n{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"msg\",\"cat\":\"msg\","
            "\"pid\":0,\"tid\":%d,\"ts\":%s,\"id\":\"%d.%" PRIu64 "\"}",
            vn->id, us(t1, a, sizeof(a)), m->w.src, m->w.seq);
}

void mcei_trace_instant(mcei_vn_t *vn, const char *name, mce_time_t t)
{
    char a[32];
    if (!on(vn))
        return;
    fprintf(tf, ",\n{\"ph\":\"i\",\"s\":\"t\",\"name\":\"");
    put_json_str(name);
    fprintf(tf, "\",\"pid\":0,\"tid\":%d,\"ts\":%s}", vn->id,
            us(t, a, sizeof(a)));
}

void mcei_trace_edge(mcei_vn_t *vn, const char *name, int begin, mce_time_t t)
{
    char a[32];
    if (!on(vn))
        return;
    fprintf(tf, ",\n{\"ph\":\"%s\",\"name\":\"", begin ? "B" : "E");
    put_json_str(name ? name : "");
    fprintf(tf, "\",\"pid\":0,\"tid\":%d,\"ts\":%s}", vn->id,
            us(t, a, sizeof(a)));
}

void mcei_trace_span(mcei_vn_t *vn, const char *name, mce_time_t t0,
                     mce_time_t t1)
{
    char a[32], b[32];
    if (!on(vn))
        return;
    fprintf(tf, ",\n{\"ph\":\"X\",\"name\":\"");
    put_json_str(name);
    fprintf(tf, "\",\"pid\":0,\"tid\":%d,\"ts\":%s,\"dur\":%s}", vn->id,
            us(t0, a, sizeof(a)), us(t1 - t0, b, sizeof(b)));
}

int mcei_trace_close(mcei_engine_t *eng)
{
    FILE *out = NULL;
    int rc = MCE_OK;
    if (tf == NULL)
        return MCE_OK;
    if (fflush(tf) != 0 || ferror(tf)) {
        /* This rank's buffered events are incomplete. */
        mcei_log("trace '%s': rank %d could not buffer its events: %s",
                 eng->cfg.trace, eng->rank, strerror(errno));
        rc = MCE_ERR_IO;
    }
    if (eng->rank == 0) {
        if ((out = fopen(eng->cfg.trace, "w")) == NULL) {
            mcei_log("cannot write trace '%s': %s", eng->cfg.trace,
                     strerror(errno));
            rc = MCE_ERR_IO;
            out = fopen("/dev/null", "w");
        }
        fprintf(out,
                "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"machine\":\"");
        {
            FILE *save = tf;
            tf = out;
            put_json_str(eng->machine.name);
            tf = save;
        }
        fprintf(out,
                "\",\"nodes\":%d,\"ranks\":%d,\"time_unit\":\"virtual "
                "microseconds\"},\n\"traceEvents\":[\n"
                "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,"
                "\"args\":{\"name\":\"mcemu %d nodes\"}}",
                eng->nodes, eng->nranks, eng->nodes);
    }
    mcei_transport_gather_stream(tf, out);
    if (eng->rank == 0) {
        fprintf(out, "\n]}\n");
        /* A full device or a failing file: say so, never a silent 0. */
        if ((fflush(out) != 0 || ferror(out)) && rc == MCE_OK) {
            mcei_log("cannot write trace '%s': %s", eng->cfg.trace,
                     strerror(errno));
            rc = MCE_ERR_IO;
        }
        if (fclose(out) != 0 && rc == MCE_OK) {
            mcei_log("cannot write trace '%s': %s", eng->cfg.trace,
                     strerror(errno));
            rc = MCE_ERR_IO;
        }
    }
    fclose(tf);
    tf = NULL;
    return rc;
}
