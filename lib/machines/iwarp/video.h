/* The video devices of the motion detector (doc/design/iwarp-tcs.md,
 * section 8.6; Warfel 1996, section 7.2): a camera port on one cell and a
 * display port on another, chosen by video.camera and video.display.
 * Functions return MCE_OK or an MCE_ERR_* code with a reason in @p why
 * (the personality adds the cell and the call). */
#ifndef MCEI_IWARP_VIDEO_H
#define MCEI_IWARP_VIDEO_H

#include <stddef.h>
#include <stdint.h>

#include "../../core/engine.h"

/* What the camera sees: the word (4 pixels) @p word of line @p line of
 * frame @p frame. */
typedef uint32_t (*mcei_iw_video_fn)(void *arg, unsigned long long frame,
                                     int line, int word);

/* The video ports' constants (in the machine's state, state.h). */
typedef struct mcei_iw_video_k {
    mce_time_t clock;
    uint64_t line, words, gap, lines, vblank, fifo, op, frame, wpf;
    uint64_t camera, display;
    int width;
} mcei_iw_video_k_t;

int mcei_iw_video_init(mcei_iw_video_k_t *k, mcei_machine_t *m,
                       mce_time_t clock, int width, char *err, size_t errlen);
int mcei_iw_video_node_init(mcei_vn_t *vn);
void mcei_iw_video_node_fini(mcei_vn_t *vn);

int mcei_iw_video_source(mcei_vn_t *vn, mcei_iw_video_fn fn, void *arg,
                         char *why, size_t len);
/* Take the next @p n words the camera port holds or will receive; per
 * word its stream position (frame x lines x words + line x words + word)
 * in @p pos and its arrival time in @p arrival (either may be NULL). */
int mcei_iw_video_read(mcei_vn_t *vn, uint32_t *w, size_t n, uint64_t *pos,
                       mce_time_t *arrival, char *why, size_t len);
/* Drop what the port holds and wait for the start of the next frame
 * (*frame); the words dropped or skipped are not counted as lost. */
int mcei_iw_video_sync(mcei_vn_t *vn, uint64_t *frame, char *why, size_t len);
/* Words lost so far (the port held video.fifo words when they came). */
int mcei_iw_video_lost(mcei_vn_t *vn, uint64_t *lost, char *why, size_t len);
int mcei_iw_video_write(mcei_vn_t *vn, const uint32_t *w, size_t n, char *why,
                        size_t len);
/* Word @p i written to the display and the time its write ended;
 * *count: how many there are (then @p w and @p t may be NULL). */
int mcei_iw_video_output(mcei_vn_t *vn, uint64_t i, uint32_t *w, mce_time_t *t,
                         uint64_t *count, char *why, size_t len);

#endif
