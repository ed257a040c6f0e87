#ifndef MEDIATOOL_CZLIB_SHIM_H
#define MEDIATOOL_CZLIB_SHIM_H

#include <zlib.h>

/// deflateInit2 is a macro: a raw deflate stream (no zlib header or trailer), 32 KiB window.
static inline int czlib_deflate_init_raw(z_streamp stream, int level, int strategy) {
    return deflateInit2(stream, level, Z_DEFLATED, -15, 8, strategy);
}

#endif
