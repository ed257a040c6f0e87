#include "reader_allocation.h"

#include "CMediaShims.h"

#include <stdlib.h>

void *cms_allocate_reader(size_t size, const char *path, FILE **file, char *error_message) {
    void *reader = calloc(1, size);
    if (reader == NULL) {
        snprintf(error_message, CMS_ERROR_MESSAGE_CAPACITY, "out of memory");
        return NULL;
    }
    *file = fopen(path, "rb");
    if (*file == NULL) {
        snprintf(error_message, CMS_ERROR_MESSAGE_CAPACITY, "cannot open");
        free(reader);
        return NULL;
    }
    return reader;
}
