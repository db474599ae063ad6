/* Both nodes receive before sending: a deadlock the engine must report. */
#include <stdio.h>

#include "mcemu.h"

int main(void)
{
    char buf[8];
    int me = mce_node(), other = 1 - me;
    if (me > 1)
        return 0;
    mce_compute(me * 3 * MCE_US);
    if (mce_recv(other, 5, buf, sizeof(buf), NULL) != MCE_OK)
        return 1;
    mce_send(other, 5, buf, sizeof(buf));
    return 0;
}
