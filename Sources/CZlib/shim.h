#ifndef MEDIATOOL_CZLIB_SHIM_H
#define MEDIATOOL_CZLIB_SHIM_H

#include <zlib.h>

#endif
