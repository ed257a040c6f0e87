#ifndef MEDIATOOL_JPEG_SPLIT_SCAN_H
#define MEDIATOOL_JPEG_SPLIT_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <jpeglib.h>
#include "CJPEGShim.h"

/// A baseline scan decoded from two places at once: the caller's thread from its start, a helper
/// thread from a place `tail_share` of the way back from its end, found in step with the code by
/// self-synchronisation (or from a restart marker). It stands in for libjpeg's entropy decoder,
/// so libjpeg's inverse DCT, upsampling and colour conversion take the same coefficients as ever.
typedef struct mt_scan_split mt_scan_split;

/// Starts it on the scan libjpeg has just started (after jpeg_start_decompress), whose data
/// begins at `scan_offset` of `fd`; NULL where it cannot or need not (the scan is not one
/// mt_scan_layout_make takes, is too small, or no thread can be had), leaving libjpeg's own
/// decoder in place.
mt_scan_split *mt_scan_split_start(j_decompress_ptr decompress, int fd, uint64_t scan_offset,
                                   const mt_jpeg_split_settings *settings);

/// Stops the helper, puts libjpeg's decoder back and frees everything.
void mt_scan_split_finish(mt_scan_split *split);

/// What happened, for tests: 1 when the two parts met and the helper's MCUs were used, 0 when
/// the caller's thread decoded everything.
int mt_scan_split_met(const mt_scan_split *split);

#endif
