/* pgm: 8-bit PGM (P5 and P2) reader and P5 writer, see pgm.h. */
#include "pgm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Skip whitespace and '#' comments (to the end of the line). */
static int skip_space(FILE *f)
{
    int c;
    for (;;) {
        c = getc(f);
        if (c == '#') {
            while (c != '\n' && c != '\r' && c != EOF)
                c = getc(f);
            if (c == EOF)
                return EOF;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
            c == '\f')
            continue;
        return c;
    }
}

/* Read one unsigned decimal number (after whitespace and comments).
 * Returns 0 on success, -1 when there is none or it exceeds @p max. */
static int read_uint(FILE *f, long max, long *out)
{
    int c = skip_space(f);
    long v = 0;
    if (c < '0' || c > '9')
        return -1;
    while (c >= '0' && c <= '9') {
        v = v * 10 + (c - '0');
        if (v > max)
            return -1;
        c = getc(f);
    }
    /* The character after the number: whitespace (consumed: for P5 it is
     * the single separator before the raster), a comment or EOF. */
    if (c == '#')
        ungetc(c, f);
    else if (c != EOF && c != ' ' && c != '\t' && c != '\n' && c != '\r' &&
             c != '\v' && c != '\f')
        return -1;
    *out = v;
    return 0;
}

unsigned char *pgm_read(const char *path, int *width, int *height, char *err,
                        size_t errlen)
{
    FILE *f = fopen(path, "rb");
    unsigned char *pix = NULL;
    long w, h, maxval;
    int ascii;

    if (f == NULL) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    if (getc(f) != 'P') {
        snprintf(err, errlen, "%s: not a PGM file (no P2/P5 magic)", path);
        goto fail;
    }
    switch (getc(f)) {
    case '5':
        ascii = 0;
        break;
    case '2':
        ascii = 1;
        break;
    default:
        snprintf(err, errlen,
                 "%s: not a greyscale PGM file (only P2 and P5 are read)",
                 path);
        goto fail;
    }
    if (read_uint(f, PGM_MAX_SIDE, &w) != 0 ||
        read_uint(f, PGM_MAX_SIDE, &h) != 0 ||
        read_uint(f, 65535, &maxval) != 0) {
        snprintf(err, errlen, "%s: bad PGM header", path);
        goto fail;
    }
    if (w < 1 || h < 1) {
        snprintf(err, errlen, "%s: empty image (%ldx%ld)", path, w, h);
        goto fail;
    }
    if (maxval < 1 || maxval > 255) {
        snprintf(err, errlen,
                 "%s: maxval %ld: only 8-bit images (maxval 1..255) are read",
                 path, maxval);
        goto fail;
    }
    pix = malloc((size_t)w * (size_t)h);
    if (pix == NULL) {
        snprintf(err, errlen, "%s: out of memory for %ldx%ld pixels", path, w,
                 h);
        goto fail;
    }
    if (ascii) {
        for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
            long v;
            if (read_uint(f, maxval, &v) != 0) {
                snprintf(err, errlen,
                         "%s: bad or missing pixel value %zu (of %ldx%ld, "
                         "maxval %ld)",
                         path, i, w, h, maxval);
                goto fail;
            }
            pix[i] = (unsigned char)v;
        }
    } else {
        size_t n = (size_t)w * (size_t)h;
        if (fread(pix, 1, n, f) != n) {
            snprintf(err, errlen, "%s: truncated raster (want %zu bytes)", path,
                     n);
            goto fail;
        }
        for (size_t i = 0; i < n; i++)
            if (pix[i] > maxval) {
                snprintf(err, errlen, "%s: pixel %zu is %d > maxval %ld", path,
                         i, pix[i], maxval);
                goto fail;
            }
    }
    fclose(f);
    *width = (int)w;
    *height = (int)h;
    return pix;
fail:
    free(pix);
    fclose(f);
    return NULL;
}

int pgm_write(const char *path, const unsigned char *pixels, int width,
              int height, char *err, size_t errlen)
{
    FILE *f;
    size_t n = (size_t)width * (size_t)height;

    if (width < 1 || height < 1 || width > PGM_MAX_SIDE ||
        height > PGM_MAX_SIDE) {
        snprintf(err, errlen, "%s: cannot write a %dx%d image", path, width,
                 height);
        return -1;
    }
    f = fopen(path, "wb");
    if (f == NULL) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (fprintf(f, "P5\n%d %d\n255\n", width, height) < 0 ||
        fwrite(pixels, 1, n, f) != n) {
        snprintf(err, errlen, "%s: write error: %s", path, strerror(errno));
        fclose(f);
        return -1;
    }
    if (fclose(f) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
