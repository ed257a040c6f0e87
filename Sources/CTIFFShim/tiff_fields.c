#include "CTIFFShim.h"

int mt_tiff_u16(TIFF *tiff, uint32_t tag, uint16_t *value) {
    return TIFFGetFieldDefaulted(tiff, tag, value);
}

int mt_tiff_u32(TIFF *tiff, uint32_t tag, uint32_t *value) {
    return TIFFGetFieldDefaulted(tiff, tag, value);
}

int mt_tiff_bytes(TIFF *tiff, uint32_t tag, uint32_t *count, const uint8_t **data) {
    void *bytes = NULL;
    if (!TIFFGetField(tiff, tag, count, &bytes)) return 0;
    *data = (const uint8_t *)bytes;
    return bytes != NULL;
}

int mt_tiff_extra_samples(TIFF *tiff, uint16_t *count, const uint16_t **types) {
    uint16_t *found = NULL;
    if (!TIFFGetFieldDefaulted(tiff, TIFFTAG_EXTRASAMPLES, count, &found)) return 0;
    *types = found;
    return 1;
}

int mt_tiff_colormap(TIFF *tiff, const uint16_t **red, const uint16_t **green, const uint16_t **blue) {
    uint16_t *r = NULL, *g = NULL, *b = NULL;
    if (!TIFFGetField(tiff, TIFFTAG_COLORMAP, &r, &g, &b)) return 0;
    *red = r;
    *green = g;
    *blue = b;
    return 1;
}

int mt_tiff_jpeg_as_rgb(TIFF *tiff) {
    return TIFFSetField(tiff, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
}
