#ifndef MEDIATOOL_HEIF_SHIM_H
#define MEDIATOOL_HEIF_SHIM_H

// libheif 1.15 decodes HEVC through libde265 and AV1 through dav1d, and both write to standard
// error from inside (libde265's parameter set checks by fprintf, dav1d's default logger), which no
// option of libheif's reaches. mediatool registers decoder plugins of its own through libheif's
// plugin API, ahead of the built-in ones: the same libraries with the same settings, but dav1d
// logs to the decoder, and libde265 is never given a sequence parameter set it would print about
// (the same checks, made first). What a decoder has to say goes to `report`, on the thread that
// asked for the decoding, as the reason a decoding failed.

/// Receives a decoder's reason for failing: a library name, then its words.
typedef void (*mt_heif_report)(const char *library, const char *message);

/// Registers the plugins (once per process, before any decoding; later calls do nothing).
void mt_heif_register_decoders(mt_heif_report report);

/// The size (ispe) of the item the next decodings on this thread are of, 0 x 0 for none said: an
/// HEVC sequence parameter set of a larger picture (past whole blocks of 64) fails the decoding,
/// as libde265 would allocate it.
void mt_heif_limit_pictures(long width, long height);

/// Checks an HEVC sequence parameter set (a NAL unit: 2-byte header, then the escaped payload)
/// as libde265 1.0 checks it after reading it; 0 when libde265 would take it quietly, else 1 and
/// what is wrong in `message`.
int mt_hevc_check_sps(const unsigned char *unit, unsigned long size, char *message, unsigned long capacity);

/// The color_range of the first AV1 sequence header among `data`'s OBUs (dav1d's parser): 1 full,
/// 0 limited, -1 when there is none.
int mt_av1_color_range(const unsigned char *data, unsigned long size);

/// The coefficients that turn Y'CbCr into R'G'B' (R = Y + r_cr Cr, G = Y + g_cb Cb + g_cr Cr,
/// B = Y + b_cb Cb, with Cb and Cr centred on 0), and whether the samples use the full range.
struct mt_ycbcr_matrix {
    double r_cr, g_cb, g_cr, b_cb;
    int full_range;
};

enum { MT_HEVC_REDUCED = 0, MT_HEVC_NOT_REDUCIBLE = 1, MT_HEVC_FAILED = 2 };

/// Decodes an HEVC image through libde265 (as the plugin does, but without libheif, whose own
/// handling of the planes costs as much again) and reduces its top-left `width` x `height`
/// pixels by `factor` into `target` (`mt_ycbcr_reduce_to_rgb`, ceil(width / factor) x
/// ceil(height / factor) 16-bit RGB pixels). `units`: NAL units each after a 4-byte length (as
/// libheif reads an item's data, whatever its hvcC says), parameter sets first. `coded_width` x
/// `coded_height`: the item's size (ispe), as for `mt_heif_limit_pictures`. `matrix_coefficients`
/// and `full_range`: the item's colour description (colr nclx), -1 for the stream's (its VUI).
/// The first picture is the image. MT_HEVC_NOT_REDUCIBLE when the picture is not 8-bit colour in
/// a matrix converted by luma weights, or smaller than the region; MT_HEVC_FAILED with the reason
/// in `message` ("library: words").
int mt_hevc_decode_reduced(const unsigned char *units, unsigned long size, int coded_width, int coded_height, int width, int height,
                           int factor, int matrix_coefficients, int full_range, unsigned char *target, char *message,
                           unsigned long capacity);

/// The checks of `mt_hevc_decode_reduced` on `units` without decoding: for an item libheif
/// decodes on threads of its own, where `mt_heif_limit_pictures` does not reach. 0, or 1 with the
/// reason in `message`.
int mt_hevc_check_units(const unsigned char *units, unsigned long size, int coded_width, int coded_height, char *message,
                        unsigned long capacity);

/// Reduces 8-bit Y'CbCr planes by `factor` in each direction to interleaved 16-bit RGB
/// (big-endian, 8-bit values times 257): each target pixel the rounded mean of the `factor` x `factor` coded pixels it covers (fewer at the
/// right and bottom edges), each converted with the chroma sample nearest it (chroma planes
/// subsampled by 2^shift_x across and 2^shift_y down) and clipped first, as libheif's RGB would
/// show them. The target holds ceil(width / factor) x ceil(height / factor) pixels.
void mt_ycbcr_reduce_to_rgb(const unsigned char *luma, long luma_stride, const unsigned char *cb, long cb_stride,
                            const unsigned char *cr, long cr_stride, int width, int height, int shift_x, int shift_y, int factor,
                            const struct mt_ycbcr_matrix *matrix, unsigned char *target, long target_stride);

#endif
