#ifndef CSANDBOX_H
#define CSANDBOX_H

#include <stddef.h>
#include <sys/types.h>

/// Sends `length` bytes as one message on a SOCK_SEQPACKET socket, with `count` descriptors
/// (SCM_RIGHTS, at most 4). 0, or -1 with errno.
int mt_send_message(int socket, const void *bytes, size_t length, const int *descriptors, int count);

/// Receives one message: its length (0 when the other end closed), or -1 with errno. Descriptors
/// that came with it are stored in `descriptors` (close-on-exec), their number in `*count`.
ssize_t mt_receive_message(int socket, void *bytes, size_t capacity, int *descriptors, int capacity_descriptors, int *count);

enum {
    MT_CONFINED_SECCOMP = 1,
    MT_CONFINED_LANDLOCK = 2,
};

/// Drops what a decoding worker does not need, for good: no new privileges, no filesystem (Landlock,
/// where the kernel has it), and a seccomp filter that refuses opening files, sockets, exec, fork,
/// ptrace and the like with EPERM (reading and writing open descriptors, memory, threads and
/// signals to itself stay). Returns the MT_CONFINED_ flags in force, or -1 with a message when
/// seccomp could not be set.
int mt_confine(char *message, size_t capacity);

/// Resource limits of a worker: it ends with its parent `parent` (PR_SET_PDEATHSIG), writes no core
/// dump, maps at most `address_space` bytes and writes no file larger than `file_size` (no limit
/// where 0). 0, or -1 with errno.
int mt_limit_resources(size_t address_space, size_t file_size, int parent);

/// Lets the process use `seconds` more of CPU time from now (soft RLIMIT_CPU: SIGXCPU past it).
void mt_limit_cpu_time(double seconds);

/// Bytes of address space the process maps now.
size_t mt_mapped_bytes(void);

/// Adds to `actions` the closing of every descriptor from `lowest` up in the child (glibc's
/// posix_spawn_file_actions_addclosefrom_np, which needs _GNU_SOURCE). 0, or an error number.
int mt_spawn_close_from(void *actions, int lowest);

/// Starts a copy of this process (the zygote's) as a sibling: its parent is this process's parent
/// (CLONE_PARENT), which waits for it and is told of its end as of any worker it started. In the
/// copy, `socket` becomes descriptor `socket_target`, `errors` standard error, and every other
/// descriptor above `socket_target` is closed. The caller must be single-threaded. The copy's
/// process ID in the caller, 0 in the copy, or -1 with errno.
pid_t mt_fork_sibling(int socket, int errors, int socket_target);

/// How many threads this process has, or -1.
int mt_thread_count(void);

/// Runs `task(context)` on one thread that lasts as long as the process (started at the first
/// call) and returns when it has run; callers take turns.
void mt_run_on_spawner_thread(void (*task)(void *context), void *context);

/// glibc's POSIX_SPAWN_SETSID (the child in a session of its own), which needs _GNU_SOURCE.
short mt_spawn_setsid_flag(void);

/// The libseccomp version this process runs with.
void mt_seccomp_version(unsigned *major, unsigned *minor, unsigned *micro);

/// The Landlock ABI the kernel offers; 0 without Landlock.
int mt_landlock_abi(void);

/// Tries each forbidden kind of call (for tests in debug builds), each harmless where it is allowed
/// (a program that does not exist, signal 0, the mode `path` has): which ones the kernel refused,
/// as a bit mask of MT_PROBE_ flags.
enum {
    MT_PROBE_OPEN = 1,
    MT_PROBE_SOCKET = 2,
    MT_PROBE_EXEC = 4,
    MT_PROBE_FORK = 8,
    MT_PROBE_CHMOD = 16,
    MT_PROBE_SIGNAL = 32,
    MT_PROBE_TERMINAL = 64,
};
int mt_probe_forbidden(const char *path);

#endif
