/* Privatisation of the program's globals, as SimGrid's SMPI does: every
 * virtual node sharing a process gets its own copy of the executable's
 * writable segment, made live whenever that node runs.  Small segments are
 * swapped with memcpy; large ones are remapped from one memfd, into which
 * only the segment's non-zero pages are copied (a large .bss costs no
 * memory until a node writes it, and its pages fault in as holes).  A
 * switch costs a system call and a fault per page the node touches, not
 * a copy of the segment.  (Moving each node's populated pages in and out
 * with mremap(MREMAP_DONTUNMAP) was measured and was slower: two calls,
 * page-table allocation and a TLB flush per switch.) */
#define _GNU_SOURCE 1
#include "privatize.h"

#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MCEI_PRIV_COPY_MAX (64 * 1024)

static struct {
    mcei_priv_info_t info;
    size_t slots, live;
    char *copies; /* COPY: slots x len */
    int fd;       /* MMAP: memfd of slots x len */
    int active;
} priv = {.fd = -1};

#ifdef MCEI_ASAN
/* The segment holds AddressSanitizer redzones between globals: copy it
 * byte by byte without instrumentation (volatile keeps it from becoming a
 * checked memcpy call). */
__attribute__((no_sanitize_address, noinline)) static void
seg_copy(void *dst, const void *src, size_t n)
{
    volatile unsigned char *d = dst;
    const volatile unsigned char *s = src;
    for (size_t i = 0; i < n; i++)
        d[i] = s[i];
}
#else
#define seg_copy memcpy
#endif

struct probe_ctx {
    uintptr_t start, end;
    int found;
};

static int probe_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    struct probe_ctx *c = data;
    uintptr_t ps = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t seg_lo = 0, seg_hi = 0, relro_hi = 0;
    (void)size;
    /* The first object reported is the main program. */
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W)) {
            seg_lo = lo;
            seg_hi = lo + ph->p_memsz;
        } else if (ph->p_type == PT_GNU_RELRO) {
            /* ld.so write-protects whole pages up to here. */
            relro_hi = (lo + ph->p_memsz) & ~(ps - 1);
        }
    }
    if (seg_hi > seg_lo) {
        c->start = seg_lo > relro_hi ? seg_lo : relro_hi;
        c->end = seg_hi;
        c->found = c->end > c->start;
    }
    return 1; /* stop after the main program */
}

int mcei_priv_probe(mcei_priv_info_t *info)
{
    struct probe_ctx c = {0};
    if (priv.active) {
        *info = priv.info;
        return MCE_OK;
    }
    dl_iterate_phdr(probe_cb, &c);
    if (!c.found)
        return MCE_ERR_NOT_FOUND;
    info->start = c.start;
    info->len = c.end - c.start;
    info->method =
        info->len <= MCEI_PRIV_COPY_MAX ? MCEI_PRIV_COPY : MCEI_PRIV_MMAP;
    return MCE_OK;
}

#ifdef MCEI_ASAN
__attribute__((no_sanitize_address, noinline))
#endif
static int
page_is_zero(const char *p, size_t ps)
{
    const volatile uint64_t *w = (const volatile uint64_t *)(const void *)p;
    for (size_t i = 0; i < ps / sizeof(uint64_t); i++)
        if (w[i] != 0)
            return 0;
    return 1;
}

/* Copy the non-zero pages of @p src to @p slots areas @p stride apart
 * from @p dst (fresh anonymous or memfd memory, whose zero pages cost
 * nothing until written). */
static void copy_nonzero(char *dst, size_t slots, size_t stride,
                         const char *src, size_t len, size_t ps)
{
    for (size_t o = 0; o < len; o += ps)
        if (!page_is_zero(src + o, ps))
            for (size_t s = 0; s < slots; s++)
                seg_copy(dst + s * stride + o, src + o, ps);
}

int mcei_priv_init(size_t slots, char *err, size_t errlen)
{
    mcei_priv_info_t info;
    size_t total;

    if (priv.active) {
        snprintf(err, errlen, "privatisation already initialised");
        return MCE_ERR_STATE;
    }
    if (mcei_priv_probe(&info) != MCE_OK) {
        snprintf(err, errlen,
                 "cannot find the program's writable data segment");
        return MCE_ERR_UNSUPPORTED;
    }
    if (info.method == MCEI_PRIV_MMAP) {
        size_t ps = (size_t)sysconf(_SC_PAGESIZE);
        uintptr_t lo = info.start & ~(uintptr_t)(ps - 1);
        uintptr_t hi = (info.start + info.len + ps - 1) & ~(uintptr_t)(ps - 1);
        info.start = lo;
        info.len = hi - lo;
    }
    if (__builtin_mul_overflow(slots, info.len, &total)) {
        snprintf(err, errlen, "privatisation: %zu copies of %zu bytes overflow",
                 slots, info.len);
        return MCE_ERR_NOMEM;
    }
    if (info.method == MCEI_PRIV_COPY) {
        priv.copies = malloc(total ? total : 1);
        if (priv.copies == NULL) {
            snprintf(
                err, errlen,
                "privatisation: cannot allocate %zu copies of the %zu-byte "
                "data segment",
                slots, info.len);
            return MCE_ERR_NOMEM;
        }
        for (size_t s = 0; s < slots; s++)
            seg_copy(priv.copies + s * info.len, (void *)info.start, info.len);
    } else {
        size_t ps = (size_t)sysconf(_SC_PAGESIZE);
        int fd = memfd_create("mcemu-globals", MFD_CLOEXEC);
        if (fd < 0 || ftruncate(fd, (off_t)total) != 0) {
            snprintf(err, errlen, "privatisation: memfd of %zu bytes: %s",
                     total, strerror(errno));
            if (fd >= 0)
                close(fd);
            return MCE_ERR_NOMEM;
        }
        char *all =
            mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (all == MAP_FAILED) {
            snprintf(err, errlen, "privatisation: mapping %zu bytes: %s", total,
                     strerror(errno));
            close(fd);
            return MCE_ERR_NOMEM;
        }
        copy_nonzero(all, slots, info.len, (const char *)info.start, info.len,
                     ps);
        munmap(all, total);
        if (mmap((void *)info.start, info.len, PROT_READ | PROT_WRITE,
                 MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
            snprintf(err, errlen,
                     "privatisation: remapping the data segment: %s",
                     strerror(errno));
            close(fd);
            return MCE_ERR_IO;
        }
        priv.fd = fd;
    }
    priv.info = info;
    priv.slots = slots;
    priv.live = 0;
    priv.active = 1;
    return MCE_OK;
}

void mcei_priv_switch(size_t s)
{
    if (!priv.active || s == priv.live)
        return;
    if (priv.info.method == MCEI_PRIV_COPY) {
        size_t len = priv.info.len;
        seg_copy(priv.copies + priv.live * len, (void *)priv.info.start, len);
        seg_copy((void *)priv.info.start, priv.copies + s * len, len);
    } else if (mmap((void *)priv.info.start, priv.info.len,
                    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, priv.fd,
                    (off_t)(s * priv.info.len)) == MAP_FAILED) {
        mcei_fatal("privatisation: cannot switch globals to node slot %zu: %s",
                   s, strerror(errno));
    }
    priv.live = s;
}

void mcei_priv_fini(void)
{
    if (!priv.active)
        return;
    /* Leave slot 0's data live; the process is about to exit. */
    mcei_priv_switch(0);
    free(priv.copies);
    priv.copies = NULL;
    /* The memfd stays mapped over the segment; closing the fd is safe. */
    if (priv.fd >= 0)
        close(priv.fd);
    priv.fd = -1;
    priv.active = 0;
}
