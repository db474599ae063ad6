/* hwloc: binding and last CPU of each rank, for the placement report. */
#include "hwinfo.h"

#include <hwloc.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "transport.h"

typedef struct hw_rec {
    int32_t rank;
    char text[480];
} hw_rec_t;

void mcei_hwinfo_line(mcei_engine_t *eng, char *buf, size_t len)
{
    hwloc_topology_t topo;
    hwloc_bitmap_t set = NULL, last = NULL;
    char host[128] = "?", *bind = NULL, *where = NULL;
    int ncores = 0, npus = 0, bound = 0;

    gethostname(host, sizeof(host) - 1);
    if (hwloc_topology_init(&topo) == 0 && hwloc_topology_load(topo) == 0) {
        ncores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
        npus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
        set = hwloc_bitmap_alloc();
        last = hwloc_bitmap_alloc();
        if (set && hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) == 0) {
            hwloc_bitmap_list_asprintf(&bind, set);
            bound = !hwloc_bitmap_isincluded(
                hwloc_topology_get_allowed_cpuset(topo), set);
        }
        if (last &&
            hwloc_get_last_cpu_location(topo, last, HWLOC_CPUBIND_THREAD) == 0)
            hwloc_bitmap_list_asprintf(&where, last);
        hwloc_bitmap_free(set);
        hwloc_bitmap_free(last);
        hwloc_topology_destroy(topo);
    }
    char nodes[200];
    mcei_place_describe(&eng->place, eng->rank, nodes, sizeof(nodes));
    snprintf(buf, len,
             "rank %d on %s pid %d: %s to PUs %s of %d cores/%d PUs, last ran "
             "on PU %s; %s",
             eng->rank, host, (int)getpid(), bound ? "bound" : "not bound",
             bind ? bind : "?", ncores, npus, where ? where : "?", nodes);
    free(bind);
    free(where);
}

void mcei_hwinfo_report(mcei_engine_t *eng)
{
    hw_rec_t mine;
    void *all = NULL;
    size_t n = 0;
    mine.rank = eng->rank;
    mcei_hwinfo_line(eng, mine.text, sizeof(mine.text));
    mcei_transport_gather(&mine, 1, sizeof(mine), &all, &n);
    if (eng->rank == 0) {
        hw_rec_t *r = all;
        mcei_log("machine '%s' (%s), network model '%s', lookahead %" PRIu64
                 " ps, %d nodes on %d ranks",
                 eng->machine.name, eng->machine.path, eng->net.ops->name,
                 eng->lookahead, eng->nodes, eng->nranks);
        for (size_t i = 0; i < n; i++)
            mcei_log("%s", r[i].text);
    }
    free(all);
}
