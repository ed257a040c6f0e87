#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <string.h>
#include <unistd.h>
#include "CMediaToolSystem.h"

int mt_affinity_count(void) {
    // A set as large as the kernel's largest (CONFIG_NR_CPUS is at most 8192).
    cpu_set_t *set = CPU_ALLOC(8192);
    if (set == NULL) return 0;
    size_t size = CPU_ALLOC_SIZE(8192);
    CPU_ZERO_S(size, set);
    int count = sched_getaffinity(0, size, set) == 0 ? CPU_COUNT_S(size, set) : 0;
    CPU_FREE(set);
    return count;
}

int mt_name_this_thread(const char *name) {
    char truncated[16];
    strncpy(truncated, name, sizeof truncated - 1);
    truncated[sizeof truncated - 1] = '\0';
    return pthread_setname_np(pthread_self(), truncated);
}

int mt_pipe_cloexec(int ends[2]) { return pipe2(ends, O_CLOEXEC); }

int mt_memory_file(const char *name) { return memfd_create(name, MFD_CLOEXEC); }
