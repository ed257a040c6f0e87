#include "CShimSupport.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

/// Bytes of the stdio buffer that follows each reader in its allocation (glibc ignores a size
/// given without a buffer).
#define READ_BUFFER_BYTES (256 * 1024)

void *mt_allocate_reader(size_t size, int fd, FILE **file, char *error_message) {
    size_t aligned = (size + 63) & ~(size_t)63;
    void *reader = calloc(1, aligned + READ_BUFFER_BYTES);
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
    // libjpeg and libpng ask for 4 KiB at a time: a larger buffer turns a 10 MB photo's 2,300 reads
    // (each through the sandbox's seccomp filter) into 40. It lives in the reader's allocation,
    // which the shims free after they close the file.
    setvbuf(*file, (char *)reader + aligned, _IOFBF, READ_BUFFER_BYTES);
    return reader;
}
