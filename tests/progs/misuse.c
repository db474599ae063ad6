/* Bad arguments get error codes, never crashes; each check prints a line
 * and the program exits non-zero on the first surprise. */
#include <stdio.h>
#include <string.h>

#include "mcemu.h"

#define EXPECT(call, want)                                                     \
    do {                                                                       \
        int rc_ = (call);                                                      \
        if (rc_ != (want)) {                                                   \
            printf("misuse: node %d: %s returned %d (%s), expected %d\n",      \
                   mce_node(), #call, rc_, mce_strerror(rc_), (want));         \
            return 1;                                                          \
        }                                                                      \
    } while (0)

int main(void)
{
    char buf[64], small[4];
    int flag = 7;
    mce_msg_info_t info;
    memset(&info, 0x5a, sizeof(info));
    if (mce_node() > 1)
        return 0;
    EXPECT(mce_send(-1, 1, buf, 1), MCE_ERR_NODE);
    EXPECT(mce_send(mce_nodes(), 1, buf, 1), MCE_ERR_NODE);
    EXPECT(mce_send(0, -5, buf, 1), MCE_ERR_TYPE);
    EXPECT(mce_send(0, MCE_TYPE_MAX + 1L, buf, 1), MCE_ERR_TYPE);
    EXPECT(mce_send(0, 1, NULL, 10), MCE_ERR_INVAL);
    EXPECT(mce_recv(-2, 1, buf, 1, NULL), MCE_ERR_NODE);
    EXPECT(mce_recv(0, -2, buf, 1, NULL), MCE_ERR_TYPE);
    EXPECT(mce_iprobe(0, 1, NULL, NULL), MCE_ERR_INVAL);
    EXPECT(mce_trace_end(), MCE_ERR_STATE);
    EXPECT(mce_trace_mark(NULL), MCE_ERR_INVAL);
    EXPECT(mce_compute(~(mce_time_t)0), MCE_ERR_OVERFLOW);
    if (mce_node() == 0) {
        EXPECT(mce_send(1, 9, "0123456789", 10), MCE_OK);
    } else {
        /* Too small: refused, output untouched, message still there. */
        EXPECT(mce_recv(0, 9, small, sizeof(small), &info), MCE_ERR_TRUNCATE);
        if (info.source != 0x5a5a5a5a) {
            printf("misuse: info written on error\n");
            return 1;
        }
        EXPECT(mce_iprobe(0, 9, &flag, &info), MCE_OK);
        if (flag != 1 || info.bytes != 10) {
            printf("misuse: iprobe flag %d bytes %zu\n", flag, info.bytes);
            return 1;
        }
        EXPECT(mce_recv(0, 9, buf, sizeof(buf), &info), MCE_OK);
        if (memcmp(buf, "0123456789", 10) != 0) {
            printf("misuse: wrong payload\n");
            return 1;
        }
    }
    printf("misuse: node %d ok\n", mce_node());
    return 0;
}
