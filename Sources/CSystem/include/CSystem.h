#ifndef MEDIATOOL_CSYSTEM_H
#define MEDIATOOL_CSYSTEM_H

// glibc's calls that Swift's Glibc module leaves out (they need _GNU_SOURCE), for WorkerPool.

/// The CPUs in the calling thread's affinity mask (sched_getaffinity); 0 when it cannot be read.
int mt_affinity_count(void);

/// Names the calling thread (pthread_setname_np: at most 15 bytes are kept); 0 on success.
int mt_name_this_thread(const char *name);

#endif
