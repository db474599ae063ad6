/* sobel_ref: the sequential Sobel edge detector that apps/sobel_edge must
 * reproduce byte for byte.  A plain C program (no mcemu).
 *
 *   sobel_ref IN.pgm OUT.pgm
 *
 * Arithmetic (the same as sobel_edge): with p(y, x) the input pixel,
 *   gx = p(y-1,x+1) + 2 p(y,x+1) + p(y+1,x+1)
 *      - p(y-1,x-1) - 2 p(y,x-1) - p(y+1,x-1)
 *   gy = p(y+1,x-1) + 2 p(y+1,x) + p(y+1,x+1)
 *      - p(y-1,x-1) - 2 p(y-1,x) - p(y-1,x+1)
 *   out(y, x) = min(255, |gx| + |gy|)
 * in integer arithmetic; pixels on the image border (first and last row
 * and column) have no full 3x3 window and are 0.  The output is written
 * as P5 with maxval 255 by the same pgm_write() as sobel_edge. */
#include <stdio.h>
#include <stdlib.h>

#include "pgm.h"

static unsigned char *sobel(const unsigned char *in, int w, int h)
{
    unsigned char *out = calloc((size_t)w * (size_t)h, 1);
    if (out == NULL)
        return NULL;
    for (int y = 1; y < h - 1; y++)
        for (int x = 1; x < w - 1; x++) {
#define P(yy, xx) ((int)in[(size_t)(yy) * (size_t)w + (size_t)(xx)])
            int gx = P(y - 1, x + 1) + 2 * P(y, x + 1) + P(y + 1, x + 1) -
                     P(y - 1, x - 1) - 2 * P(y, x - 1) - P(y + 1, x - 1);
            int gy = P(y + 1, x - 1) + 2 * P(y + 1, x) + P(y + 1, x + 1) -
                     P(y - 1, x - 1) - 2 * P(y - 1, x) - P(y - 1, x + 1);
#undef P
            int m = abs(gx) + abs(gy);
            out[(size_t)y * (size_t)w + (size_t)x] =
                (unsigned char)(m > 255 ? 255 : m);
        }
    return out;
}

int main(int argc, char **argv)
{
    char err[512];
    int w, h;
    unsigned char *in, *out;

    if (argc != 3) {
        fprintf(stderr, "usage: sobel_ref IN.pgm OUT.pgm\n");
        return 2;
    }
    in = pgm_read(argv[1], &w, &h, err, sizeof err);
    if (in == NULL) {
        fprintf(stderr, "sobel_ref: %s\n", err);
        return 1;
    }
    out = sobel(in, w, h);
    if (out == NULL) {
        fprintf(stderr, "sobel_ref: out of memory\n");
        free(in);
        return 1;
    }
    if (pgm_write(argv[2], out, w, h, err, sizeof err) != 0) {
        fprintf(stderr, "sobel_ref: %s\n", err);
        free(in);
        free(out);
        return 1;
    }
    free(in);
    free(out);
    return 0;
}
