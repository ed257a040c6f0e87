#ifndef MEDIATOOL_CMEDIATOOLSYSTEM_H
#define MEDIATOOL_CMEDIATOOLSYSTEM_H

// glibc's calls that Swift's Glibc module leaves out (they need _GNU_SOURCE). Named
// for this package: a target's name must be unique in a server's package graph (swift-system has a CSystem).

/// The CPUs in the calling thread's affinity mask (sched_getaffinity); 0 when it cannot be read.
int mt_affinity_count(void);

/// Names the calling thread (pthread_setname_np: at most 15 bytes are kept); 0 on success.
int mt_name_this_thread(const char *name);
/// A pipe whose ends close on exec (pipe2). 0, or -1 with errno.
int mt_pipe_cloexec(int ends[2]);
/// A file in memory, of no name and in no folder, closed on exec (memfd_create): what a worker,
/// which may open no file, can still make. Its descriptor, or -1 with errno.
int mt_memory_file(const char *name);

#endif
