#ifndef MEDIATOOL_SHIM_SUPPORT_H
#define MEDIATOOL_SHIM_SUPPORT_H

#include <stddef.h>
#include <stdio.h>

/// Room for a C library's error message, or for ours.
enum { MT_ERROR_MESSAGE_CAPACITY = 256 };

/// A zeroed reader of `size` bytes and a stream reading the open file `fd` from its start into
/// `*file`, on a duplicate of `fd` read at a place of its own (preads: the descriptor's offset,
/// which duplicates share, is never moved; closing the stream leaves `fd` open); NULL (with the reason in `error_message`)
/// when either cannot be had. Shared by the PNG and JPEG readers.
void *mt_allocate_reader(size_t size, int fd, FILE **file, char *error_message);

/// Writes all `length` bytes to `fd`, going on after short writes and interruptions; -1 with
/// strerror's words in `error_message` when the file system refuses (full disk, I/O error). The
/// one write loop of the PNG and JPEG writers.
int mt_write_all(int fd, const void *data, size_t length, char *error_message);

#endif
