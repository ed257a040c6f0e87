#ifndef MEDIATOOL_CPNG_SHIM_H
#define MEDIATOOL_CPNG_SHIM_H

#include <png.h>

#endif
