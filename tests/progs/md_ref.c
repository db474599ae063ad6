/* md_ref: the sequential motion detector on a generated video
 * (apps/tcs/video.h), the reference apps/tcs/motion_detect must equal.
 * A plain C program (no mcemu).
 *
 *   md_ref --video=static|noise|square --frames=F --seed=S
 *          [--from=F0] [--threshold=20] [--list] [--out=FILE]
 *
 * Runs the detector on frames F0 .. F0 + F - 1 of the video (F0 = 0 by
 * default; the first one sets the averages).
 * Prints the video's parameters, then per frame "frame=f motion=N", with
 * --list every motion pixel as "m f line x"; --out writes the output
 * images (F x 240 x 256 bytes of 0/1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcs/video.h"

static int opt(const char *arg, const char *name, const char **val)
{
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0 || arg[n] != '=')
        return 0;
    *val = arg + n + 1;
    return 1;
}

int main(int argc, char **argv)
{
    const char *video = "static", *out = NULL, *v;
    unsigned long long frames = 1, seed = 1, from = 0;
    int threshold = 20, list = 0, rc = 0;
    static md_ref_t ref;
    static uint8_t img[VID_LINES * VID_WIDTH];
    FILE *fo = NULL;
    vid_t vid;
    for (int i = 1; i < argc; i++) {
        if (opt(argv[i], "--video", &v))
            video = v;
        else if (opt(argv[i], "--frames", &v))
            frames = strtoull(v, NULL, 10);
        else if (opt(argv[i], "--from", &v))
            from = strtoull(v, NULL, 10);
        else if (opt(argv[i], "--seed", &v))
            seed = strtoull(v, NULL, 10);
        else if (opt(argv[i], "--threshold", &v))
            threshold = atoi(v);
        else if (opt(argv[i], "--out", &v))
            out = v;
        else if (strcmp(argv[i], "--list") == 0)
            list = 1;
        else {
            fprintf(stderr, "md_ref: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    }
    if (vid_init(&vid, video, seed) != 0) {
        fprintf(stderr,
                "md_ref: unknown video '%s' (static, noise or square)\n",
                video);
        return 2;
    }
    if (out != NULL && (fo = fopen(out, "wb")) == NULL) {
        perror(out);
        return 1;
    }
    printf("video=%s seed=%llu width=%d lines=%d side=%d vx=%d vy=%d "
           "contrast=%d x0=%d y0=%d threshold=%d\n",
           vid_name(&vid), seed, VID_WIDTH, VID_LINES, VID_SIDE, VID_VX, VID_VY,
           VID_CONTRAST, vid.x0, vid.y0, threshold);
    md_ref_init(&ref);
    for (unsigned long long f = from; f < from + frames; f++) {
        long n = md_ref_frame(&ref, &vid, f, threshold, img);
        printf("frame=%llu motion=%ld\n", f, n);
        if (list)
            for (int l = 0; l < VID_LINES; l++)
                for (int x = 0; x < VID_WIDTH; x++)
                    if (img[l * VID_WIDTH + x])
                        printf("m %llu %d %d\n", f, l, x);
        if (fo != NULL && fwrite(img, 1, sizeof(img), fo) != sizeof(img)) {
            perror(out);
            rc = 1;
            break;
        }
    }
    if (fo != NULL && fclose(fo) != 0) {
        perror(out);
        rc = 1;
    }
    return rc;
}
