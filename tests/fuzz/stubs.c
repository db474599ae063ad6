/* The two engine symbols the parser and TCS sources reference, for the
 * fuzz harnesses, which link those sources without the engine. */
#include <stdlib.h>

#include "mcei.h"

#include "../../lib/api/tcs/tcs_link.h"

/* mcei_fatal's exit: no fatal error is expected from a parser. */
void mcei_engine_abort(int status)
{
    (void)status;
    abort();
}

/* Reached only from mcei_tcs_boot, which the harnesses never call. */
int mcei_tcs_rt_init(int nodes)
{
    (void)nodes;
    abort();
}
