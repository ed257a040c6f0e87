#define _GNU_SOURCE
#include "CShimSupport.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

/// Bytes of the stdio buffer that follows each reader in its allocation (glibc ignores a size
/// given without a buffer).
#define READ_BUFFER_BYTES (256 * 1024)

/// The stream's own place in the file: reads are preads at it, so that no reader moves the
/// descriptor's offset, which duplicates (this one's, or the copy a worker is sent over its
/// socket) share. The descriptor is a duplicate of the caller's, so that the stream outlives it.
typedef struct {
    int fd;
    off64_t offset;
} mt_file_cursor;

static ssize_t cursor_read(void *cookie, char *buffer, size_t size) {
    mt_file_cursor *cursor = cookie;
    ssize_t count;
    do {
        count = pread(cursor->fd, buffer, size, cursor->offset);
    } while (count < 0 && errno == EINTR);
    if (count > 0) cursor->offset += count;
    return count;
}

static int cursor_seek(void *cookie, off64_t *offset, int whence) {
    mt_file_cursor *cursor = cookie;
    off64_t base;
    switch (whence) {
    case SEEK_SET: base = 0; break;
    case SEEK_CUR: base = cursor->offset; break;
    default: return -1;  // SEEK_END: no reader asks for it
    }
    if (*offset < 0 && -*offset > base) return -1;
    cursor->offset = base + *offset;
    *offset = cursor->offset;
    return 0;
}

/// Closes the stream's duplicate: the caller's descriptor stays open.
static int cursor_close(void *cookie) {
    mt_file_cursor *cursor = cookie;
    return close(cursor->fd);
}

void *mt_allocate_reader(size_t size, int fd, FILE **file, char *error_message) {
    size_t aligned = (size + 63) & ~(size_t)63;
    void *reader = calloc(1, aligned + READ_BUFFER_BYTES + sizeof(mt_file_cursor));
    if (reader == NULL) {
        snprintf(error_message, MT_ERROR_MESSAGE_CAPACITY, "out of memory");
        return NULL;
    }
    mt_file_cursor *cursor = (mt_file_cursor *)((char *)reader + aligned + READ_BUFFER_BYTES);
    cursor->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    cursor->offset = 0;
    cookie_io_functions_t functions = {.read = cursor_read, .write = NULL, .seek = cursor_seek, .close = cursor_close};
    if (cursor->fd < 0 || (*file = fopencookie(cursor, "rb", functions)) == NULL) {
        snprintf(error_message, MT_ERROR_MESSAGE_CAPACITY, "cannot read");
        if (cursor->fd >= 0) close(cursor->fd);
        free(reader);
        return NULL;
    }
    // libjpeg and libpng ask for 4 KiB at a time: a larger buffer turns a 10 MB photo's 2,300 reads
    // (each through the sandbox's seccomp filter) into 40. It lives in the reader's allocation,
    // which the shims free after they close the file.
    setvbuf(*file, (char *)reader + aligned, _IOFBF, READ_BUFFER_BYTES);
    return reader;
}
