/* Node 1 recurses until its stack overflows; the engine must name it. */
#include <stdio.h>
#include <string.h>

#include "mcemu.h"

static int deep(int n)
{
    volatile char pad[4096];
    memset((char *)pad, n, sizeof(pad));
    return n == 0 ? pad[0] : deep(n - 1) + pad[n % 4096];
}

int main(void)
{
    mce_compute(7 * MCE_US);
    if (mce_node() == 1)
        printf("%d\n", deep(1 << 20));
    return 0;
}
