/* Generated videos and the sequential motion detector (video.h). */
#include "video.h"

#include <string.h>

static uint64_t mix(uint64_t z)
{
    /* splitmix64's finaliser: the same numbers on every host */
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t hash3(uint64_t seed, uint64_t a, uint64_t b, uint64_t c)
{
    return mix(mix(mix(mix(seed) ^ a) ^ b) ^ c);
}

int vid_init(vid_t *v, const char *name, uint64_t seed)
{
    static const char *const names[] = {"static", "noise", "square"};
    for (int i = 0; i < 3; i++)
        if (strcmp(name, names[i]) == 0) {
            uint64_t h = hash3(seed, 0x5155415245ULL, 0, 0);
            v->kind = (vid_kind_t)i;
            v->seed = seed;
            v->x0 = (int)(h % VID_WIDTH);
            v->y0 = (int)(h / VID_WIDTH % VID_LINES);
            return 0;
        }
    return -1;
}

const char *vid_name(const vid_t *v)
{
    return v->kind == VID_STATIC  ? "static"
           : v->kind == VID_NOISE ? "noise"
                                  : "square";
}

static uint8_t background(const vid_t *v, int line, int x)
{
    return (uint8_t)(hash3(v->seed, 1, (uint64_t)line, (uint64_t)x) % 235);
}

int vid_in_square(const vid_t *v, unsigned long long frame, int line, int x)
{
    unsigned long long cx = ((unsigned long long)v->x0 + VID_VX * frame) %
                            VID_WIDTH,
                       cy = ((unsigned long long)v->y0 + VID_VY * frame) %
                            VID_LINES;
    unsigned long long dx =
                           ((unsigned long long)x + VID_WIDTH - cx) % VID_WIDTH,
                       dy = ((unsigned long long)line + VID_LINES - cy) %
                            VID_LINES;
    return dx < VID_SIDE && dy < VID_SIDE;
}

uint8_t vid_pixel(const vid_t *v, unsigned long long frame, int line, int x)
{
    switch (v->kind) {
    case VID_NOISE:
        return (
            uint8_t)(hash3(v->seed, 2 + frame, (uint64_t)line, (uint64_t)x) &
                     0xff);
    case VID_SQUARE:
        return (uint8_t)(background(v, line, x) +
                         (vid_in_square(v, frame, line, x) ? VID_CONTRAST : 0));
    case VID_STATIC:
    default:
        return background(v, line, x);
    }
}

uint32_t vid_word(void *arg, unsigned long long frame, int line, int word)
{
    const vid_t *v = arg;
    uint32_t w = 0;
    for (int i = 0; i < 4; i++)
        w |= (uint32_t)vid_pixel(v, frame, line, 4 * word + i) << (8 * i);
    return w;
}

void md_ref_init(md_ref_t *r)
{
    memset(r, 0, sizeof(*r));
}

long md_ref_frame(md_ref_t *r, const vid_t *v, unsigned long long frame,
                  int threshold, uint8_t *out)
{
    long n = 0;
    int first = r->frames == 0;
    for (int l = 0; l < VID_LINES; l++)
        for (int x = 0; x < VID_WIDTH; x++) {
            size_t i = (size_t)l * VID_WIDTH + (size_t)x;
            out[i] = (uint8_t)md_pixel(&r->avg[i], vid_pixel(v, frame, l, x),
                                       first, threshold);
            n += out[i];
        }
    r->frames++;
    return n;
}
