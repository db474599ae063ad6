/* Generated videos and the sequential motion detector (doc/design/
 * iwarp-tcs.md, section 8.6; Warfel 1996, chapter 7).  Plain C, no mcemu:
 * the programs pass the seed (mce_seed() in the emulated ones).
 *
 * Frames are LINES x WIDTH 8-bit pixels; a 32-bit word holds 4 pixels,
 * pixel 4k + i of a line in bits 8i..8i+7 of word k (the camera port's
 * packing, include/iwarp.h).
 *
 *   static  a seeded background bg(l, x) in 0..234, the same every frame;
 *   noise   every pixel of every frame seeded uniform in 0..255 (W 7.4
 *           "video noise (simulates extreme motion)");
 *   square  the static background with a SIDE x SIDE square of bg + 21
 *           whose top-left corner moves by (VX, VY) pixels per frame,
 *           wrapping round the frame, from a seeded start.
 *
 * Detector, per pixel (W 7.1): out = 1 iff p - avg >= threshold (20,
 * app.md_threshold),
 * then avg += (p - avg) / 8 (C integer division) [C weights, design 9.20];
 * the first frame sets avg = p (so it has no motion).  The square's
 * contrast 21 makes a pixel newly covered by the square move (21 >= 20)
 * and the next frame not (21 - 21/8 = 19): on the square video motion is
 * exactly the square's leading edge, the pixels it covers in frame f and
 * did not cover in frame f - 1, until it comes back to pixels it covered
 * before (after 240 / VY = 60 or 256 / VX = 32 frames). */
#ifndef MCE_APPS_TCS_VIDEO_H
#define MCE_APPS_TCS_VIDEO_H

#include <stddef.h>
#include <stdint.h>

enum { VID_WIDTH = 256, VID_LINES = 240, VID_WORDS = VID_WIDTH / 4 };
enum { VID_SIDE = 32, VID_VX = 8, VID_VY = 4, VID_CONTRAST = 21 };
typedef enum { VID_STATIC = 0, VID_NOISE, VID_SQUARE } vid_kind_t;

typedef struct vid {
    vid_kind_t kind;
    uint64_t seed;
    int x0, y0; /* square: top-left corner in frame 0 */
} vid_t;

/* 0, or -1 for an unknown name (static, noise or square). */
int vid_init(vid_t *v, const char *name, uint64_t seed);
const char *vid_name(const vid_t *v);
uint8_t vid_pixel(const vid_t *v, unsigned long long frame, int line, int x);
/* The camera's word (the signature of include/iwarp.h's iw_video_fn, with
 * the video as @p arg). */
uint32_t vid_word(void *arg, unsigned long long frame, int line, int word);
/* Is pixel (line, x) inside the square in @p frame? */
int vid_in_square(const vid_t *v, unsigned long long frame, int line, int x);

/* One pixel of the detector: returns the output (0 or 1) and updates
 * *avg; @p first: the first frame (sets *avg). */
static inline int md_pixel(uint8_t *avg, uint8_t p, int first, int threshold)
{
    int a = *avg, out;
    if (first) {
        *avg = p;
        return 0;
    }
    out = (int)p - a >= threshold;
    *avg = (uint8_t)(a + ((int)p - a) / 8);
    return out;
}

/* The sequential reference: a whole frame of moving averages. */
typedef struct md_ref {
    uint8_t avg[VID_LINES * VID_WIDTH];
    unsigned long long frames; /* frames processed */
} md_ref_t;

void md_ref_init(md_ref_t *r);
/* Process frame @p frame of @p v into @p out (VID_LINES x VID_WIDTH
 * bytes of 0/1); returns the number of motion pixels. */
long md_ref_frame(md_ref_t *r, const vid_t *v, unsigned long long frame,
                  int threshold, uint8_t *out);

#endif
