/* Privatisation of the program's globals, as SimGrid's SMPI does: every
 * virtual node sharing a process gets its own copy of the executable's
 * writable segment, made live whenever that node runs.  Small segments are
 * swapped with memcpy; large ones are remapped from one memfd, into which
 * only the segment's non-zero pages are copied (a large .bss costs no
 * memory until a node writes it, and its pages fault in as holes).  A
 * switch costs a system call and a fault per page the node touches, not
 * a copy of the segment.  (Moving each node's populated pages in and out
 * with mremap(MREMAP_DONTUNMAP) was measured and was slower: two calls,
 * page-table allocation and a TLB flush per switch.)
 *
 * A program built with mcecc -mce-privatize=dlopen carries its node code
 * as a shared object (the image, between mce_node_image_start and _end)
 * and the library loads one copy of it per node of the process, as SMPI's
 * dlopen privatisation does: each copy has its own globals, so a switch
 * only changes which copy's code runs (the program's entry and the
 * function pointers it declared at boot are translated into the running
 * node's copy) and costs nothing, whatever the size of the globals.  The
 * copies are memfds, so that each is a file of its own (dlopen would
 * return the same object for the same file) that can be executed where
 * /tmp and /dev/shm cannot; each is opened through a symbolic link of
 * its own to /proc/self/fd/N (dlopen also returns the same object for a
 * name already loaded).  Beyond a number of copies (mapping count and
 * memory), copy 0 is loaded alone and its writable segment is switched
 * as the executable's is. */
#define _GNU_SOURCE 1
#include "privatize.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MCEI_PRIV_COPY_MAX (64 * 1024)

/* Written by mcecc -mce-privatize=dlopen into the executable. */
extern const unsigned char mce_node_image_start[] __attribute__((weak));
extern const unsigned char mce_node_image_end[] __attribute__((weak));

static struct {
    mcei_priv_info_t info;
    size_t slots, live;
    char *copies; /* COPY: slots x len */
    int fd;       /* MMAP: memfd of slots x len */
    int active;
    /* The image's loaded copies (copy 0 from mcei_priv_image_open). */
    void **handles;
    uintptr_t *bases; /* each copy's load address */
    size_t ncopies;
    int image_slots; /* one copy per slot: switching costs nothing */
} priv = {.fd = -1};

#ifdef MCEI_ASAN
/* The segment holds AddressSanitizer redzones between globals: copy it
 * without instrumentation (volatile keeps it from becoming a checked
 * memcpy call), a word at a time where both sides are aligned (a byte at
 * a time made every node switch of shift_sync's 58 KB segment cost about
 * 100 us, and sync.sh 437 s under the sanitizers). */
__attribute__((no_sanitize_address, noinline)) static void
seg_copy(void *dst, const void *src, size_t n)
{
    size_t i = 0;
    if ((((uintptr_t)dst | (uintptr_t)src) & 7) == 0) {
        volatile uint64_t *dw = dst;
        const volatile uint64_t *sw = src;
        for (; i < n / 8; i++)
            dw[i] = sw[i];
        i *= 8;
    }
    volatile unsigned char *d = dst;
    const volatile unsigned char *s = src;
    for (; i < n; i++)
        d[i] = s[i];
}
#else
#define seg_copy memcpy
#endif

struct probe_ctx {
    uintptr_t start, end;
    uintptr_t base; /* the object's load address; 0: the main program */
    int found;
};

/* The lazily bound part of the GOT (.got.plt) holds what ld.so wrote
 * there: the same function addresses for every node of the process.
 * Swapping it at every switch cost its bytes (a fifth of a small
 * program's segment) and made each node bind each function again; where
 * it lies at an edge of [*lo, *hi) (after the read-only part, before
 * .data, as linkers place it), it is left out. */
static void lazy_got_trim(const ElfW(Dyn) * dyn, uintptr_t base, uintptr_t *lo,
                          uintptr_t *hi)
{
    uintptr_t got = 0, relsz = 0, relent = 0, end;
#if !defined(__x86_64__) && !defined(__i386__) && !defined(__aarch64__)
    /* DT_PLTGOT means other things elsewhere (PowerPC: the PLT) */
    dyn = NULL;
#endif
    if (dyn == NULL)
        return;
    for (; dyn->d_tag != DT_NULL; dyn++) {
        if (dyn->d_tag == DT_PLTGOT)
            got = (uintptr_t)dyn->d_un.d_ptr;
        else if (dyn->d_tag == DT_PLTRELSZ)
            relsz = (uintptr_t)dyn->d_un.d_val;
        else if (dyn->d_tag == DT_PLTREL)
            relent = dyn->d_un.d_val == DT_RELA ? sizeof(ElfW(Rela))
                                                : sizeof(ElfW(Rel));
    }
    if (got == 0 || relent == 0)
        return;
    /* ld.so may have relocated the entry in place (glibc does where the
     * dynamic section is writable): an address below the load address
     * is still the file's. */
    if (got < base)
        got += base;
    /* three reserved entries, then one a PLT relocation */
    if (__builtin_add_overflow(got, (3 + relsz / relent) * sizeof(void *),
                               &end))
        return;
    if (got <= *lo && end > *lo)
        *lo = end < *hi ? end : *hi;
    else if (got > *lo && got < *hi && end >= *hi)
        *hi = got;
}

static int probe_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    struct probe_ctx *c = data;
    uintptr_t ps = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t seg_lo = 0, seg_hi = 0, relro_hi = 0;
    const ElfW(Dyn) *dyn = NULL;
    (void)size;
    /* The first object reported is the main program. */
    if (c->base != 0 && (info->dlpi_addr != c->base ||
                         info->dlpi_name == NULL || info->dlpi_name[0] == '\0'))
        return 0; /* not the image's copy 0: look further */
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W)) {
            seg_lo = lo;
            seg_hi = lo + ph->p_memsz;
        } else if (ph->p_type == PT_GNU_RELRO) {
            /* ld.so write-protects whole pages up to here. */
            relro_hi = (lo + ph->p_memsz) & ~(ps - 1);
        } else if (ph->p_type == PT_DYNAMIC) {
            dyn = (const ElfW(Dyn) *)lo;
        }
    }
    if (seg_hi > seg_lo) {
        c->start = seg_lo > relro_hi ? seg_lo : relro_hi;
        c->end = seg_hi;
        lazy_got_trim(dyn, info->dlpi_addr, &c->start, &c->end);
        c->found = c->end > c->start;
    }
    return 1; /* stop after the main program (or the image) */
}

int mcei_priv_probe(mcei_priv_info_t *info)
{
    struct probe_ctx c = {0};
    if (priv.active) {
        *info = priv.info;
        return MCE_OK;
    }
    /* With an image, the program's globals are those of its copy 0. */
    c.base = priv.ncopies > 0 ? priv.bases[0] : 0;
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

/* ---- the image: one dlopen'd copy of the node program per slot -------- */

int mcei_priv_has_image(void)
{
    uintptr_t a = (uintptr_t)mce_node_image_start,
              b = (uintptr_t)mce_node_image_end;
    return a != 0 && b > a;
}

size_t mcei_priv_image_size(void)
{
    return mcei_priv_has_image() ? (size_t)((uintptr_t)mce_node_image_end -
                                            (uintptr_t)mce_node_image_start)
                                 : 0;
}

/* Load one more copy of the image: a memfd of its own, opened under a name
 * of its own (a link in @p dir to /proc/self/fd/N). */
static int load_copy(const char *dir, char *err, size_t errlen)
{
    const unsigned char *p = mce_node_image_start;
    size_t left = mcei_priv_image_size(), k = priv.ncopies;
    char target[64], name[4096];
    struct link_map *lm = NULL;
    void *h = NULL;
    int fd, rc = MCE_ERR_IO;

    fd = memfd_create("mcemu-node-image", MFD_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "copy %zu of the node program: memfd: %s", k,
                 strerror(errno));
        return MCE_ERR_NOMEM;
    }
    while (left > 0) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            snprintf(err, errlen, "copy %zu of the node program: write: %s", k,
                     w < 0 ? strerror(errno) : "short write");
            goto out;
        }
        p += w;
        left -= (size_t)w;
    }
    snprintf(target, sizeof(target), "/proc/self/fd/%d", fd);
    if ((size_t)snprintf(name, sizeof(name), "%s/%zu.so", dir, k) >=
        sizeof(name)) {
        snprintf(err, errlen, "the temporary directory's name is too long");
        goto out;
    }
    if (symlink(target, name) != 0) {
        snprintf(err, errlen, "copy %zu of the node program: symlink %s: %s", k,
                 name, strerror(errno));
        goto out;
    }
    /* Local: each copy binds its own symbols first and none of them
     * serves another's (nor the library's) references. */
    h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    unlink(name);
    if (h == NULL) {
        const char *why = dlerror();
        snprintf(err, errlen, "copy %zu of the node program: %s", k,
                 why != NULL ? why : "dlopen failed");
        goto out;
    }
    if (dlinfo(h, RTLD_DI_LINKMAP, &lm) != 0 || lm == NULL) {
        snprintf(err, errlen, "copy %zu of the node program: no link map", k);
        goto out;
    }
    priv.handles[k] = h;
    priv.bases[k] = (uintptr_t)lm->l_addr;
    priv.ncopies = k + 1;
    h = NULL;
    rc = MCE_OK;
out:
    /* (a copy that failed after dlopen stays loaded: closing it could
     * run its destructors) */
    (void)h;
    close(fd); /* the mappings keep the file */
    return rc;
}

/* Load copies until there are @p n (handles and bases hold n). */
static int load_copies(size_t n, char *err, size_t errlen)
{
    const char *t = getenv("TMPDIR");
    char dir[4096];
    int rc = MCE_OK;

    if (t == NULL || t[0] == '\0')
        t = "/tmp";
    if ((size_t)snprintf(dir, sizeof(dir), "%s/mcemu-image.XXXXXX", t) >=
        sizeof(dir)) {
        snprintf(err, errlen, "TMPDIR is too long");
        return MCE_ERR_CONFIG;
    }
    if (mkdtemp(dir) == NULL) {
        snprintf(err, errlen, "cannot make a directory in %s: %s", t,
                 strerror(errno));
        return MCE_ERR_IO;
    }
    while (priv.ncopies < n && rc == MCE_OK)
        rc = load_copy(dir, err, errlen);
    rmdir(dir);
    return rc;
}

static int grow_tables(size_t n, char *err, size_t errlen)
{
    void **h = realloc(priv.handles, n * sizeof(*h));
    if (h != NULL)
        priv.handles = h;
    uintptr_t *b = h != NULL ? realloc(priv.bases, n * sizeof(*b)) : NULL;
    if (b == NULL) {
        snprintf(err, errlen, "out of memory for %zu copies of the program", n);
        return MCE_ERR_NOMEM;
    }
    priv.bases = b;
    return MCE_OK;
}

int mcei_priv_image_open(char *err, size_t errlen)
{
    int rc;
    if (!mcei_priv_has_image() || priv.ncopies > 0)
        return MCE_OK;
    if ((rc = grow_tables(1, err, errlen)) != MCE_OK)
        return rc;
    return load_copies(1, err, errlen);
}

void *mcei_priv_image_sym(const char *name)
{
    if (priv.ncopies == 0)
        return NULL;
    dlerror();
    return dlsym(priv.handles[0], name);
}

size_t mcei_priv_image_copies(void)
{
    return priv.image_slots ? priv.slots : 0;
}

uintptr_t mcei_priv_node_addr(uintptr_t addr)
{
    /* Copies are the same object at other addresses. */
    if (!priv.image_slots || priv.live == 0)
        return addr;
    return addr - priv.bases[0] + priv.bases[priv.live];
}

/* One copy per slot, unless that exceeds @p max copies or a quarter of
 * the host's memory (the image's file, in memory, per copy). */
static int image_init(size_t slots, size_t max, int *fits, char *err,
                      size_t errlen)
{
    long pages = sysconf(_SC_PHYS_PAGES), ps = sysconf(_SC_PAGESIZE);
    size_t need, mem = pages > 0 && ps > 0 ? (size_t)pages * (size_t)ps : 0;
    int rc;
    *fits = 0;
    if (slots > max)
        return MCE_OK;
    if (__builtin_mul_overflow(slots, mcei_priv_image_size(), &need) ||
        (mem > 0 && need > mem / 4))
        return MCE_OK;
    if ((rc = grow_tables(slots, err, errlen)) != MCE_OK ||
        (rc = load_copies(slots, err, errlen)) != MCE_OK)
        return rc;
    *fits = 1;
    return MCE_OK;
}

int mcei_priv_init(size_t slots, size_t max_copies, char *err, size_t errlen)
{
    mcei_priv_info_t info;
    size_t total;

    if (priv.active) {
        snprintf(err, errlen, "privatisation already initialised");
        return MCE_ERR_STATE;
    }
    if (priv.ncopies > 0) {
        int fits, rc = image_init(slots, max_copies, &fits, err, errlen);
        if (rc != MCE_OK)
            return rc;
        if (fits) {
            priv.info.start = 0;
            priv.info.len = 0;
            priv.info.method = MCEI_PRIV_IMAGE;
            priv.slots = slots;
            priv.live = 0;
            priv.image_slots = 1;
            priv.active = 1;
            return MCE_OK;
        }
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
    if (priv.image_slots) {
        /* nothing moves: the node's code is its copy's */
    } else if (priv.info.method == MCEI_PRIV_COPY) {
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
    /* The image's copies stay loaded (their atexit handlers and
     * destructors run at exit), and so do their tables. */
    priv.image_slots = 0;
    priv.active = 0;
}
