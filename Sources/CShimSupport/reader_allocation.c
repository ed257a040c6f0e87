#include "CShimSupport.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

void *mt_allocate_reader(size_t size, int fd, FILE **file, char *error_message) {
    void *reader = calloc(1, size);
    if (reader == NULL) {
        snprintf(error_message, MT_ERROR_MESSAGE_CAPACITY, "out of memory");
        return NULL;
    }
    int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (copy < 0 || lseek(copy, 0, SEEK_SET) < 0 || (*file = fdopen(copy, "rb")) == NULL) {
        snprintf(error_message, MT_ERROR_MESSAGE_CAPACITY, "cannot read");
        if (copy >= 0) close(copy);
        free(reader);
        return NULL;
    }
    return reader;
}
