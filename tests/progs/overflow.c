/* Node 1 overflows its stack; the engine must name it and its virtual
 * time.  Without arguments it recurses until it faults.  With "shallow"
 * it writes a few KiB just below its stack (as a too-large frame would)
 * and carries on: a guard faults at once, a pooled stack's canary is
 * found damaged when the node next switches.  An optional second argument
 * is the node's stack size in bytes (default 1 MiB, --mce-stack-size). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcemu.h"

static int deep(int n)
{
    volatile char pad[4096];
    memset((char *)pad, n, sizeof(pad));
    return n == 0 ? pad[0] : deep(n - 1) + pad[n % 4096];
}

/* Write 8 KiB from 8 KiB below the stack's bottom: the frame of main
 * is near the top, @p size bytes above the bottom. */
__attribute__((noinline)) static void shallow(size_t size)
{
    volatile char here = 0;
    uintptr_t lo = (uintptr_t)&here - size - 8192;
    memset((void *)lo, 0x55, 8192);
    (void)here;
}

int main(int argc, char **argv)
{
    mce_compute(7 * MCE_US);
    if (mce_node() != 1)
        return 0;
    if (argc > 1 && strcmp(argv[1], "shallow") == 0) {
        shallow(argc > 2 ? strtoul(argv[2], NULL, 0) : 1u << 20);
        mce_compute(MCE_US); /* no switch: found when the node ends */
        return 0;
    }
    printf("%d\n", deep(1 << 20));
    return 0;
}
