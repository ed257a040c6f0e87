#ifndef MEDIATOOL_CJPEG_SHIM_H
#define MEDIATOOL_CJPEG_SHIM_H

#include <stdio.h>
#include <jpeglib.h>

#endif
