#ifndef MEDIATOOL_CMEDIASHIMS_READER_ALLOCATION_H
#define MEDIATOOL_CMEDIASHIMS_READER_ALLOCATION_H

#include <stdio.h>

/// A zeroed reader of `size` bytes and `path` opened for reading into `*file`; NULL (with the
/// reason in `error_message`) when either cannot be had. Shared by the PNG and JPEG readers.
void *cms_allocate_reader(size_t size, const char *path, FILE **file, char *error_message);

#endif
