#ifndef MEDIATOOL_CFFMPEG_LOADER_H
#define MEDIATOOL_CFFMPEG_LOADER_H

// FFmpeg's libraries pull in some 140 shared libraries, which cost every process about 60 ms to
// load and relocate. This target defines each FFmpeg function the FFmpeg module calls as a small
// forwarder that loads the real library with dlopen on first use, so that only the subcommands
// that decode video pay for it. Swift calls FFmpeg by its own names, through the CFFmpeg headers.

/// 1 when the FFmpeg libraries can be loaded; otherwise 0, with dlerror's words in `message`.
int cffmpeg_loader_available(char *message, unsigned long capacity);

#endif
