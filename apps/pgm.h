/* pgm: minimal reader and writer of 8-bit greyscale PGM images (P5 binary
 * and P2 ASCII), shared by apps/sobel_edge and the sequential reference
 * tests/progs/sobel_ref.  Plain C: no mcemu dependency.
 *
 * Pixels are stored row-major, one byte per pixel, width x height bytes.
 * Values are kept as read (no rescaling for a maxval below 255); the
 * writer always produces "P5\n<width> <height>\n255\n" followed by the raw
 * bytes, so that two programs writing the same pixels write identical
 * files. */
#ifndef MCEMU_APPS_PGM_H
#define MCEMU_APPS_PGM_H

#include <stddef.h>

/** Largest accepted width or height. */
#define PGM_MAX_SIDE 65536

/**
 * Read the PGM file @p path.  On success returns a malloc()ed buffer of
 * *width x *height bytes (free it with free()); on failure returns NULL
 * and writes a message naming the file into @p err.  Only 8-bit images
 * (maxval 1..255) are accepted.
 */
unsigned char *pgm_read(const char *path, int *width, int *height, char *err,
                        size_t errlen);

/**
 * Write @p pixels (width x height bytes) as a binary P5 PGM with maxval
 * 255.  Returns 0 on success, -1 with a message in @p err on failure.
 */
int pgm_write(const char *path, const unsigned char *pixels, int width,
              int height, char *err, size_t errlen);

#endif /* MCEMU_APPS_PGM_H */
