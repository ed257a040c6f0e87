#ifndef MEDIATOOL_CRESAMPLE_H
#define MEDIATOOL_CRESAMPLE_H

#include <stddef.h>
#include <stdint.h>

/// A separable Lanczos-3 resampler that takes its source rows as they are decoded, top to bottom,
/// and keeps only the horizontally reduced rows its vertical window needs: memory follows the
/// output's width, not the source's size. Samples are 8-bit, or 16-bit big-endian (as PNG stores
/// them); an alpha channel is premultiplied while filtering, so transparent pixels lend no colour.
typedef struct mt_resampler mt_resampler;

/// NULL when out of memory or when a size is not positive. `alpha_channel` is the index of the
/// alpha sample in a pixel, or -1.
mt_resampler *mt_resampler_new(int source_width, int source_height, int target_width, int target_height,
                               int channels, int bytes_per_sample, int alpha_channel);

/// Takes the next `count` source rows (each `stride` bytes apart) and writes every target row they
/// complete into `target` (the whole target picture, packed). Returns how many target rows are done.
int mt_resampler_push(mt_resampler *resampler, const uint8_t *rows, size_t stride, int count, uint8_t *target);

/// Bytes the resampler holds for these sizes (its weights and rows), before it is made.
size_t mt_resampler_working_bytes(int source_width, int source_height, int target_width, int target_height, int channels);

void mt_resampler_free(mt_resampler *resampler);

#endif
