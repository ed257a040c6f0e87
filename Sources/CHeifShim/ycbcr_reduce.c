#include "CHeifShim.h"

#include <math.h>

enum { FRACTION_BITS = 16 };

/// 0 to 255 for -CLIP_OFFSET to CLIP_OFFSET + 255 and past (a converted sample reaches
/// -290 to 550 at most): a lookup, where a comparison mispredicts on noise near saturation.
enum { CLIP_OFFSET = 640, CLIP_SIZE = 2 * CLIP_OFFSET + 256 };

static int clamp_u8(long value) { return value < 0 ? 0 : value > 255 ? 255 : (int)value; }

void mt_ycbcr_reduce_to_rgb(const unsigned char *luma, long luma_stride, const unsigned char *cb, long cb_stride,
                            const unsigned char *cr, long cr_stride, int width, int height, int shift_x, int shift_y, int factor,
                            const struct mt_ycbcr_matrix *matrix, unsigned char *target, long target_stride) {
    // Each sample's part of R, G and B, in fixed point, with the rounding and the clip table's
    // offset in the luma table. Limited range is expanded as libheif 1.15 expands it (by 256/219
    // and 256/224, not 255/219 and 255/224), so that a picture reduced here has the colours of the
    // same picture decoded whole.
    long luma_part[256], red_cr[256], green_cb[256], green_cr[256], blue_cb[256];
    double one = (double)(1L << FRACTION_BITS);
    double luma_scale = matrix->full_range ? 1.0 : 256.0 / 219.0, luma_black = matrix->full_range ? 0.0 : 16.0;
    double chroma_scale = matrix->full_range ? 1.0 : 256.0 / 224.0;
    for (int value = 0; value < 256; value++) {
        double chroma = (value - 128.0) * chroma_scale;
        luma_part[value] = lround(((value - luma_black) * luma_scale + 0.5 + CLIP_OFFSET) * one);
        red_cr[value] = lround(matrix->r_cr * chroma * one);
        green_cb[value] = lround(matrix->g_cb * chroma * one);
        green_cr[value] = lround(matrix->g_cr * chroma * one);
        blue_cb[value] = lround(matrix->b_cb * chroma * one);
    }
    unsigned char clip[CLIP_SIZE];
    for (int index = 0; index < CLIP_SIZE; index++) clip[index] = (unsigned char)clamp_u8(index - CLIP_OFFSET);
    int target_width = (width + factor - 1) / factor, target_height = (height + factor - 1) / factor;
    for (int out_y = 0; out_y < target_height; out_y++) {
        int top = out_y * factor, bottom = top + factor < height ? top + factor : height;
        unsigned char *row = target + (long)out_y * target_stride;
        for (int out_x = 0; out_x < target_width; out_x++) {
            int left = out_x * factor, right = left + factor < width ? left + factor : width;
            // Every coded pixel converted (chroma nearest, as libheif upsamples) and clipped, then
            // averaged: the mean of what libheif's RGB would show, saturated colours included.
            unsigned long red = 0, green = 0, blue = 0;
            // A chroma sample's parts once, for the luma samples it serves in the block.
            for (int chroma_y = top >> shift_y; chroma_y <= (bottom - 1) >> shift_y; chroma_y++) {
                int first_y = chroma_y << shift_y < top ? top : chroma_y << shift_y;
                int end_y = (chroma_y + 1) << shift_y < bottom ? (chroma_y + 1) << shift_y : bottom;
                const unsigned char *cb_row = cb + (long)chroma_y * cb_stride, *cr_row = cr + (long)chroma_y * cr_stride;
                for (int chroma_x = left >> shift_x; chroma_x <= (right - 1) >> shift_x; chroma_x++) {
                    int first_x = chroma_x << shift_x < left ? left : chroma_x << shift_x;
                    int end_x = (chroma_x + 1) << shift_x < right ? (chroma_x + 1) << shift_x : right;
                    long red_part = red_cr[cr_row[chroma_x]], blue_part = blue_cb[cb_row[chroma_x]];
                    long green_part = green_cb[cb_row[chroma_x]] + green_cr[cr_row[chroma_x]];
                    for (int y = first_y; y < end_y; y++) {
                        const unsigned char *luma_row = luma + (long)y * luma_stride;
                        for (int x = first_x; x < end_x; x++) {
                            long base = luma_part[luma_row[x]];
                            red += clip[(base + red_part) >> FRACTION_BITS];
                            green += clip[(base + green_part) >> FRACTION_BITS];
                            blue += clip[(base + blue_part) >> FRACTION_BITS];
                        }
                    }
                }
            }
            unsigned long count = (unsigned long)(bottom - top) * (unsigned long)(right - left);
            // In 16 bits: the mean's fraction is kept for the Lanczos reduction after this one
            // (rounded to 8 bits here, the 12 MP grid to 256 px measured 0.12 dB further from Pillow's).
            unsigned long sums[3] = { red, green, blue };
            for (int channel = 0; channel < 3; channel++) {
                unsigned long wide = (sums[channel] * 257 + count / 2) / count;
                row[6 * out_x + 2 * channel] = (unsigned char)(wide >> 8);
                row[6 * out_x + 2 * channel + 1] = (unsigned char)(wide & 0xFF);
            }
        }
    }
}
