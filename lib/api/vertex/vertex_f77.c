/* Fortran 77 bindings of Vertex: the g77/gfortran convention (lower case,
 * trailing underscore, every argument by reference, INTEGER*4).  Built
 * into libmcemuf77, which mcef77 links; the names exist only here.
 * A Fortran flag variable set by extended Vertex should be VOLATILE, or
 * be waited for with FLAGWAIT, so the compiler re-reads it. */
#include "vertex.h"

#define F77 __attribute__((visibility("default")))

F77 int nwrite_(void *buf, int *nbytes, int *dest, int *type, int *flag)
{
    return mce_vx_nwrite(buf, *nbytes, *dest, *type, flag);
}

F77 int nread_(void *buf, int *nbytes, int *src, int *type, int *flag)
{
    return mce_vx_nread(buf, *nbytes, src, type, flag);
}

F77 int ntest_(int *src, int *type)
{
    return mce_vx_ntest(src, type);
}

F77 void whoami_(int *node, int *pid, int *host, int *dim)
{
    mce_vx_whoami(node, pid, host, dim);
}

F77 int npid_(void)
{
    return mce_vx_npid();
}

F77 int ncubesize_(void)
{
    return mce_vx_ncubesize();
}

F77 int ntime_(void)
{
    return mce_vx_ntime();
}

F77 int n_time_(void)
{
    return mce_vx_ntime();
}

F77 int send_(void *buf, int *nbytes, int *dest, int *type, int *flag)
{
    return mce_vx_send(buf, *nbytes, *dest, *type, flag);
}

F77 int rcvreq_(void *buf, int *nbytes, int *src, int *type, int *flag)
{
    return mce_vx_rcvreq(buf, *nbytes, *src, *type, flag);
}

F77 int bcast_(void *buf, int *nbytes, int *mask, int *type, int *flag)
{
    return mce_vx_bcast(buf, *nbytes, *mask, *type, flag);
}

F77 int chanmode_(int *neighbour, int *mode)
{
    return mce_vx_chanmode(*neighbour, *mode);
}

F77 int flagwait_(int *flag)
{
    return mce_vx_flagwait(flag);
}
