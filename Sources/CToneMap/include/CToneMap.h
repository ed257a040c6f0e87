#ifndef MEDIATOOL_TONE_MAP_H
#define MEDIATOOL_TONE_MAP_H

#include <stdint.h>

// The per-pixel loop of HDRToneMapper (Sources/Imaging), eight pixels at a time in AVX2 registers
// or four in SSE2 where the machine has them: a 4K frame is 8.3 million pixels, and the scalar loop was most of a
// thumbnail's time. The curve, the tables and what they mean are HDRToneMapper's; this is only
// their arithmetic, the same in every lane and in the scalar tail.
typedef struct mt_tone_map {
    /// 16-bit signal code to linear light (65536 entries).
    const float *linear;
    /// HLG's OOTF gain for scene luminance in 1/65535 steps (65536 entries); NULL for PQ.
    const float *hlg_gain;
    /// Linear 0...1 in 1/16383 steps to 8-bit sRGB (16384 entries).
    const uint8_t *encode;
    float knee;
    float peak;
    /// Y'CbCr codes to R'G'B' codes (0...65535): luma less its offset times its scale; chroma less
    /// 32768 times these.
    float luma_offset;
    float luma_scale;
    float cr_to_red;
    float cb_to_green;
    float cr_to_green;
    float cb_to_blue;
} mt_tone_map;

/// `count` pixels of 16-bit little-endian Y', Cb and Cr planes to 8-bit sRGB RGB.
void mt_tone_map_ycbcr(const mt_tone_map *map, const uint16_t *y, const uint16_t *cb, const uint16_t *cr,
                       int count, uint8_t *rgb);

/// `mt_tone_map_ycbcr` with at most `most_lanes` pixels at a time (1, 4 or 8): every width gives
/// the same bytes, which the tests check.
void mt_tone_map_ycbcr_lanes(const mt_tone_map *map, const uint16_t *y, const uint16_t *cb, const uint16_t *cr,
                             int count, uint8_t *rgb, int most_lanes);

/// `count` pixels of interleaved 16-bit little-endian R'G'B' to 8-bit sRGB RGB.
void mt_tone_map_rgb(const mt_tone_map *map, const uint16_t *samples, int count, uint8_t *rgb);

#endif
