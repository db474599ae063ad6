/* Binding and last CPU of each rank, for the placement report: from
 * hwloc when built with it (configure --with-hwloc, the default when
 * found), else from the kernel (sched_getaffinity, sched_getcpu), which
 * knows no cores: the report says so. */
#include "hwinfo.h"

#include "config.h"

#ifdef HAVE_HWLOC
#include <hwloc.h>
#endif
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "transport.h"

typedef struct hw_rec {
    int32_t rank;
    char text[480];
} hw_rec_t;

#ifndef HAVE_HWLOC
/* "0-3,6" for the CPUs of @p set (malloc'ed, NULL on failure). */
static char *cpu_list(const cpu_set_t *set)
{
    char *s = malloc(CPU_SETSIZE * 8 + 1);
    size_t n = 0;
    if (s == NULL)
        return NULL;
    s[0] = '\0';
    for (int c = 0; c < CPU_SETSIZE; c++) {
        int e = c;
        if (!CPU_ISSET(c, set))
            continue;
        while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
            e++;
        n += (size_t)snprintf(s + n, CPU_SETSIZE * 8 + 1 - n,
                              e > c ? "%s%d-%d" : "%s%d", n ? "," : "", c, e);
        c = e;
    }
    return s;
}
#endif

void mcei_hwinfo_line(mcei_engine_t *eng, char *buf, size_t len)
{
    char host[128] = "?", *bind = NULL, *where = NULL, topo_s[64] = "?";
    int ncores = 0, npus = 0, bound = 0;

    gethostname(host, sizeof(host) - 1);
#ifdef HAVE_HWLOC
    hwloc_topology_t topo;
    hwloc_bitmap_t set = NULL, last = NULL;
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
    snprintf(topo_s, sizeof(topo_s), "%d cores/%d PUs", ncores, npus);
#else
    {
        cpu_set_t set;
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        int cpu = sched_getcpu();
        (void)ncores; /* the kernel does not say which PUs share a core */
        npus = online > 0 ? (int)online : 0;
        CPU_ZERO(&set);
        if (sched_getaffinity(0, sizeof(set), &set) == 0) {
            bind = cpu_list(&set);
            bound = CPU_COUNT(&set) < npus;
        }
        if (cpu >= 0 && (where = malloc(16)) != NULL)
            snprintf(where, 16, "%d", cpu);
        snprintf(topo_s, sizeof(topo_s), "%d PUs (cores unknown: no hwloc)",
                 npus);
    }
#endif
    char nodes[200];
    mcei_place_describe(&eng->place, eng->rank, nodes, sizeof(nodes));
    snprintf(buf, len,
             "rank %d on %s pid %d: %s to PUs %s of %s, last ran "
             "on PU %s; %s",
             eng->rank, host, (int)getpid(), bound ? "bound" : "not bound",
             bind ? bind : "?", topo_s, where ? where : "?", nodes);
    free(bind);
    free(where);
}

int mcei_hw_cores(void)
{
    /* A fact of the host, asked once: the first call comes before
     * MPI_Init (mcei_transport_init), while the process has one thread. */
    static int cached;
    int n = 0;
    if (cached > 0)
        return cached;
#ifdef HAVE_HWLOC
    hwloc_topology_t topo;
    /* Cores need none of hwloc's plug-ins (PCI, OpenCL, GL, XML), and
     * loading them took 2 to 5 ms of every multi-rank boot; the variable
     * is the only switch hwloc has, so it is set around our discovery
     * alone (single-threaded here) unless the user set it. */
    int block =
        getenv("HWLOC_PLUGINS_BLOCKLIST") == NULL &&
        setenv("HWLOC_PLUGINS_BLOCKLIST", "gl,opencl,pci,xml_libxml", 0) == 0;
    if (hwloc_topology_init(&topo) == 0) {
        /* only the cores: no caches, groups or I/O objects */
        hwloc_topology_set_all_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_NONE);
        hwloc_topology_set_type_filter(topo, HWLOC_OBJ_CORE,
                                       HWLOC_TYPE_FILTER_KEEP_ALL);
        if (hwloc_topology_load(topo) == 0)
            n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
        hwloc_topology_destroy(topo);
    }
    if (block)
        unsetenv("HWLOC_PLUGINS_BLOCKLIST");
#endif
    /* (without hwloc: the online processors, which counts PUs) */
    if (n <= 0)
        n = (int)sysconf(_SC_NPROCESSORS_ONLN);
    cached = n;
    return n;
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
