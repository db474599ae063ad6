/* The iWarp video devices (tests/fidelity/video_devices.sh):
 *
 *   iw_video --read --words=N [--block=B] [--pace=P] [--start=S] [--sync]
 *       the camera cell (video.camera) computes S clocks (--sync: then
 *       waits for the next frame), then N / B times reads B words with
 *       iwarp_video_readx and computes P clocks; prints per word
 *       "w i pos=.. arrival=.. value=.. done=.." (done: the clock after
 *       its block) and at the end "lost=L";
 *   iw_video --write --words=N [--start=S]
 *       the display cell (video.display) computes S clocks, writes N
 *       words (value 1000 + i) one call each and prints the display's
 *       record "o i value=.. at=..";
 *   iw_video --wrong
 *       cell (1,0) calls the camera and display functions: IW_ENODEV. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <iwarp.h>

static unsigned long long num(int argc, char **argv, const char *name,
                              unsigned long long def)
{
    size_t n = strlen(name);
    for (int i = 1; i < argc; i++)
        if (strncmp(argv[i], name, n) == 0 && argv[i][n] == '=')
            return strtoull(argv[i] + n + 1, NULL, 10);
    return def;
}

static int has(int argc, char **argv, const char *name)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return 1;
    return 0;
}

static int param(const char *key)
{
    int64_t v = -1;
    mce_machine_param(key, &v);
    return (int)v;
}

static void reader(unsigned long long words, unsigned long long block,
                   unsigned long long pace, unsigned long long start, int sync)
{
    uint32_t *w = calloc(block, sizeof(*w));
    unsigned long long *pos = calloc(block, sizeof(*pos)),
                       *arr = calloc(block, sizeof(*arr)), i = 0;
    if (w == NULL || pos == NULL || arr == NULL) {
        fprintf(stderr, "iw_video: out of memory\n");
        exit(1);
    }
    iwarp_compute(start);
    if (sync) {
        long f = iwarp_video_sync();
        printf("sync frame=%ld at=%llu\n", f, iwarp_vtime());
    }
    while (i < words) {
        int rc = iwarp_video_readx(w, block, pos, arr);
        unsigned long long done = iwarp_vtime();
        if (rc != IW_OK) {
            printf("read failed: %d\n", rc);
            break;
        }
        for (unsigned long long j = 0; j < block; j++, i++)
            printf("w %llu pos=%llu arrival=%llu value=%lu done=%llu\n", i,
                   pos[j], arr[j], (unsigned long)w[j], done);
        iwarp_compute(pace);
    }
    printf("lost=%lu\n", iwarp_video_lost());
    free(w);
    free(pos);
    free(arr);
}

static void writer(unsigned long long words, unsigned long long start)
{
    long long n;
    iwarp_compute(start);
    for (unsigned long long i = 0; i < words; i++) {
        uint32_t v = (uint32_t)(1000 + i);
        if (iwarp_video_write(&v, 1) != IW_OK)
            printf("write failed\n");
    }
    n = iwarp_video_output(0, NULL, NULL);
    printf("outputs=%lld\n", n);
    for (long long i = 0; i < n; i++) {
        uint32_t v;
        unsigned long long t;
        iwarp_video_output((unsigned long long)i, &v, &t);
        printf("o %lld value=%lu at=%llu\n", i, (unsigned long)v, t);
    }
    printf("beyond=%lld\n",
           iwarp_video_output((unsigned long long)n, &(uint32_t){0}, NULL));
}

int main(int argc, char **argv)
{
    int cell = iwarp_cell();
    unsigned long long words = num(argc, argv, "--words", 8),
                       start = num(argc, argv, "--start", 0);
    if (has(argc, argv, "--read") && cell == param("video.camera")) {
        unsigned long long block = num(argc, argv, "--block", 1);
        if (block == 0 || words % block != 0) {
            fprintf(stderr,
                    "iw_video: --words must be a multiple of --block\n");
            return 2;
        }
        reader(words, block, num(argc, argv, "--pace", 0), start,
               has(argc, argv, "--sync"));
    } else if (has(argc, argv, "--write") && cell == param("video.display")) {
        writer(words, start);
    } else if (has(argc, argv, "--wrong") && cell == 1) {
        uint32_t w = 0;
        printf("wrong: read %d write %d sync %ld lost %lu output %lld\n",
               iwarp_video_read(&w, 1), iwarp_video_write(&w, 1),
               iwarp_video_sync(), iwarp_video_lost(),
               iwarp_video_output(0, NULL, NULL));
    }
    return 0;
}
