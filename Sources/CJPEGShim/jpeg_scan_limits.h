#ifndef MT_JPEG_SCAN_LIMITS_H
#define MT_JPEG_SCAN_LIMITS_H

/// More scans than any encoder writes: libjpeg-turbo's TurboJPEG stops at the same number
/// (TJFLAG_LIMITSCANS), djpeg at -maxscans. A 187 KB progressive file of 3000 repeated scans took
/// 51 s of CPU to fail, one of 20000 ran until the worker's timeout.
enum { MT_JPEG_MAX_SCANS = 500 };

/// Each scan passes over every block of its components, however little data it holds: 496 scans
/// of a 9900x9900 grey picture (644 KB) held a decode for 30 s. libjpeg's progressive script
/// passes over a block about 5 times, textbook spectral selection (a scan per coefficient) 64: a
/// file whose scans pass over its blocks more than this many times each, on average, is refused
/// before the scan that would pass it is decoded.
enum { MT_JPEG_MAX_PASSES_PER_BLOCK = 80 };

/// The refusals' words, one for each limit, the same from the decoder and the lossless crop.
#define MT_JPEG_TOO_MANY_SCANS "more than %d scans, more than any encoder writes: refused"
#define MT_JPEG_TOO_MANY_PASSES "its %d scans pass over each block more than %d times, more than any encoder writes: refused"
#define MT_JPEG_BOGUS_PROGRESSION "its scans refine the same coefficients again (a bogus progression): refused"

#endif
