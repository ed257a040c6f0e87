#ifndef MEDIATOOL_CMEDIASHIMS_READER_ALLOCATION_H
#define MEDIATOOL_CMEDIASHIMS_READER_ALLOCATION_H

#include <stdio.h>

/// A zeroed reader of `size` bytes and a stream reading the open file `fd` from its start into
/// `*file` (on a duplicate of `fd`: closing the stream leaves `fd` open); NULL (with the reason in
/// `error_message`) when either cannot be had. Shared by the PNG and JPEG readers.
void *cms_allocate_reader(size_t size, int fd, FILE **file, char *error_message);

#endif
