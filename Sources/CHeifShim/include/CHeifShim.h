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

/// Checks an HEVC sequence parameter set (a NAL unit: 2-byte header, then the escaped payload)
/// as libde265 1.0 checks it after reading it; 0 when libde265 would take it quietly, else 1 and
/// what is wrong in `message`.
int mt_hevc_check_sps(const unsigned char *unit, unsigned long size, char *message, unsigned long capacity);

/// The color_range of the first AV1 sequence header among `data`'s OBUs (dav1d's parser): 1 full,
/// 0 limited, -1 when there is none.
int mt_av1_color_range(const unsigned char *data, unsigned long size);

#endif
