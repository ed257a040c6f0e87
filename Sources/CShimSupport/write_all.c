#include "CShimSupport.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int mt_write_all(int fd, const void *data, size_t length, char *error_message) {
    const unsigned char *bytes = data;
    while (length > 0) {
        ssize_t written = write(fd, bytes, length);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) {
            // A write that makes no progress would loop forever: an I/O error.
            snprintf(error_message, MT_ERROR_MESSAGE_CAPACITY, "%s", strerror(written == 0 ? EIO : errno));
            return -1;
        }
        bytes += written;
        length -= (size_t)written;
    }
    return 0;
}
