#define _GNU_SOURCE
#include "CSandbox.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <linux/sockios.h>
#include <linux/capability.h>
#include <linux/landlock.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

enum { MAX_DESCRIPTORS = 4 };

int mt_send_message(int socket, const void *bytes, size_t length, const int *descriptors, int count) {
    if (count < 0 || count > MAX_DESCRIPTORS) {
        errno = EINVAL;
        return -1;
    }
    struct iovec part = {.iov_base = (void *)bytes, .iov_len = length};
    union {
        struct cmsghdr header;
        char space[CMSG_SPACE(sizeof(int) * MAX_DESCRIPTORS)];
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1};
    if (count > 0) {
        message.msg_control = control.space;
        message.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)count);
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)count);
        memcpy(CMSG_DATA(header), descriptors, sizeof(int) * (size_t)count);
    }
    ssize_t sent;
    do {
        sent = sendmsg(socket, &message, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    return sent < 0 ? -1 : 0;
}

ssize_t mt_receive_message(int socket, void *bytes, size_t capacity, int *descriptors, int capacity_descriptors, int *count) {
    *count = 0;
    struct iovec part = {.iov_base = bytes, .iov_len = capacity};
    union {
        struct cmsghdr header;
        char space[CMSG_SPACE(sizeof(int) * MAX_DESCRIPTORS)];
    } control;
    struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1, .msg_control = control.space,
                             .msg_controllen = sizeof control.space};
    ssize_t received;
    do {
        received = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
    } while (received < 0 && errno == EINTR);
    if (received < 0) return -1;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header != NULL; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        int arrived = (int)((header->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        int *fds = (int *)CMSG_DATA(header);
        for (int index = 0; index < arrived; index++) {
            // More than asked for are not kept open.
            if (*count < capacity_descriptors) {
                descriptors[(*count)++] = fds[index];
            } else {
                close(fds[index]);
            }
        }
    }
    // A message cut short, or descriptors dropped by the kernel, is no message to act on.
    if (message.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
        for (int index = 0; index < *count; index++) close(descriptors[index]);
        *count = 0;
        errno = EMSGSIZE;
        return -1;
    }
    return received;
}

int mt_limit_resources(size_t address_space, size_t file_size, int parent) {
    // Sent when the parent's thread that started this worker ends: mediatool starts every worker
    // from one thread that lasts as long as the process.
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) return -1;
    // The parent may have ended before the line above: then this worker is another's child already.
    if (getppid() != (pid_t)parent) _exit(0);
    struct rlimit none = {0, 0};
    if (setrlimit(RLIMIT_CORE, &none) != 0) return -1;
    // No file written larger than this (SIGXFSZ past it): a worker does not fill the disk.
    if (file_size > 0) {
        struct rlimit size = {file_size, file_size};
        if (setrlimit(RLIMIT_FSIZE, &size) != 0) return -1;
    }
    if (address_space > 0) {
        struct rlimit space = {address_space, address_space};
        if (setrlimit(RLIMIT_AS, &space) != 0) return -1;
    }
    return 0;
}

void mt_limit_cpu_time(double seconds) {
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) != 0) return;
    double used = (double)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + 1;
    double allowed = used + seconds;
    if (!(allowed < 1e12)) return;
    struct rlimit cpu = {(rlim_t)allowed, RLIM_INFINITY};
    setrlimit(RLIMIT_CPU, &cpu);
}

size_t mt_mapped_bytes(void) {
    FILE *file = fopen("/proc/self/statm", "re");
    if (file == NULL) return 0;
    unsigned long pages = 0;
    int got = fscanf(file, "%lu", &pages);
    fclose(file);
    return got == 1 ? pages * (size_t)sysconf(_SC_PAGESIZE) : 0;
}


int mt_spawn_close_from(void *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np((posix_spawn_file_actions_t *)actions, lowest);
}

pid_t mt_fork_sibling(int socket, int errors, int socket_target) {
    // The raw system call: glibc's fork() knows no CLONE_PARENT. The caller is single-threaded and
    // holds no lock here, so nothing glibc's own fork would reset is held in the copy.
    pid_t pid = (pid_t)syscall(SYS_clone, CLONE_PARENT | SIGCHLD, 0, 0, 0, 0);
    if (pid != 0) return pid;
    // The new worker keeps its socket and its standard error, and nothing else of the zygote's:
    // not the zygote's own socket, which a worker taken over by a file could otherwise use.
    if (dup2(socket, socket_target) < 0 || dup2(errors, STDERR_FILENO) < 0) _exit(70);
    if (syscall(SYS_close_range, (unsigned)socket_target + 1, ~0U, 0) != 0) {
        for (int descriptor = socket_target + 1; descriptor < 65536; descriptor++) close(descriptor);
    }
    return 0;
}

static pthread_mutex_t spawner_turn = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t spawner_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t spawner_changed = PTHREAD_COND_INITIALIZER;
static pthread_once_t spawner_started = PTHREAD_ONCE_INIT;
static void (*spawner_task)(void *);
static void *spawner_context;
static int spawner_done;
static int spawner_running;

static void *spawner_loop(void *unused) {
    (void)unused;
    pthread_mutex_lock(&spawner_lock);
    for (;;) {
        while (spawner_task == NULL) pthread_cond_wait(&spawner_changed, &spawner_lock);
        spawner_task(spawner_context);
        spawner_task = NULL;
        spawner_done = 1;
        pthread_cond_broadcast(&spawner_changed);
    }
    return NULL;
}

static void start_spawner(void) {
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    spawner_running = pthread_create(&thread, &attributes, spawner_loop, NULL) == 0;
    pthread_attr_destroy(&attributes);
}

void mt_run_on_spawner_thread(void (*task)(void *context), void *context) {
    pthread_once(&spawner_started, start_spawner);
    if (!spawner_running) {
        // No thread to spare: started from here, a worker may end with this thread.
        task(context);
        return;
    }
    pthread_mutex_lock(&spawner_turn);
    pthread_mutex_lock(&spawner_lock);
    spawner_done = 0;
    spawner_context = context;
    spawner_task = task;
    pthread_cond_broadcast(&spawner_changed);
    while (!spawner_done) pthread_cond_wait(&spawner_changed, &spawner_lock);
    pthread_mutex_unlock(&spawner_lock);
    pthread_mutex_unlock(&spawner_turn);
}

short mt_spawn_setsid_flag(void) { return POSIX_SPAWN_SETSID; }

void mt_seccomp_version(unsigned *major, unsigned *minor, unsigned *micro) {
    const struct scmp_version *version = seccomp_version();
    *major = version ? version->major : 0;
    *minor = version ? version->minor : 0;
    *micro = version ? version->micro : 0;
}

int mt_landlock_abi(void) {
#ifdef SYS_landlock_create_ruleset
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi > 0 ? (int)abi : 0;
#else
    return 0;
#endif
}

/// No access to any file by path: a ruleset that handles every filesystem right and allows none.
static int restrict_filesystem(void) {
#ifdef SYS_landlock_create_ruleset
    int abi = mt_landlock_abi();
    if (abi <= 0) return 0;
    struct landlock_ruleset_attr attributes = {
        .handled_access_fs = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE
            | LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE
            | LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG
            | LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK
            | LANDLOCK_ACCESS_FS_MAKE_SYM,
    };
#ifdef LANDLOCK_ACCESS_FS_REFER
    if (abi >= 2) attributes.handled_access_fs |= LANDLOCK_ACCESS_FS_REFER;
#endif
#ifdef LANDLOCK_ACCESS_FS_TRUNCATE
    if (abi >= 3) attributes.handled_access_fs |= LANDLOCK_ACCESS_FS_TRUNCATE;
#endif
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attributes, sizeof attributes, 0);
    if (ruleset < 0) return 0;
    int restricted = (int)syscall(SYS_landlock_restrict_self, ruleset, 0);
    close(ruleset);
    return restricted == 0;
#else
    return 0;
#endif
}

int mt_thread_count(void) {
    DIR *tasks = opendir("/proc/self/task");
    if (tasks == NULL) return -1;
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(tasks)) != NULL) {
        if (entry->d_name[0] != '.') count++;
    }
    closedir(tasks);
    return count;
}

int mt_confine(char *message, size_t capacity) {
    message[0] = '\0';
    // Landlock and the dropped capabilities hold for this thread and those it starts: a thread
    // started before would run unconfined beside the decoders.
    int threads = mt_thread_count();
    if (threads != 1) {
        snprintf(message, capacity, "%d threads run before the confinement, which holds for one", threads);
        return -1;
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        snprintf(message, capacity, "cannot set no-new-privileges: %s", strerror(errno));
        return -1;
    }
    // No capabilities, should mediatool run as root (as in containers and CI): the worker is no
    // more than an unprivileged process.
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    for (int capability = 0; capability <= 63; capability++) prctl(PR_CAPBSET_DROP, capability, 0, 0, 0);
    struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
    struct __user_cap_data_struct none[2];
    memset(none, 0, sizeof none);
    if (syscall(SYS_capset, &header, none) != 0) {
        snprintf(message, capacity, "cannot drop capabilities: %s", strerror(errno));
        return -1;
    }
    int flags = restrict_filesystem() ? MT_CONFINED_LANDLOCK : 0;
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
    if (filter == NULL) {
        snprintf(message, capacity, "cannot start a seccomp filter");
        return -1;
    }
    static const int refused[] = {
        // Files by name, and changes to the filesystem.
        SCMP_SYS(open), SCMP_SYS(openat), SCMP_SYS(openat2), SCMP_SYS(creat), SCMP_SYS(open_by_handle_at),
        SCMP_SYS(name_to_handle_at), SCMP_SYS(truncate), SCMP_SYS(link), SCMP_SYS(linkat), SCMP_SYS(unlink),
        SCMP_SYS(unlinkat), SCMP_SYS(rename), SCMP_SYS(renameat), SCMP_SYS(renameat2), SCMP_SYS(mkdir),
        SCMP_SYS(mkdirat), SCMP_SYS(rmdir), SCMP_SYS(symlink), SCMP_SYS(symlinkat), SCMP_SYS(mknod),
        SCMP_SYS(mknodat), SCMP_SYS(chmod), SCMP_SYS(fchmodat), SCMP_SYS(chown), SCMP_SYS(lchown),
        SCMP_SYS(fchownat), SCMP_SYS(utimensat), SCMP_SYS(chdir), SCMP_SYS(chroot), SCMP_SYS(pivot_root),
        SCMP_SYS(mount), SCMP_SYS(umount2), SCMP_SYS(fanotify_init), SCMP_SYS(inotify_init), SCMP_SYS(inotify_init1),
        SCMP_SYS(memfd_secret), SCMP_SYS(userfaultfd),
        // The network, and other processes.
        SCMP_SYS(socket), SCMP_SYS(socketpair), SCMP_SYS(connect), SCMP_SYS(bind), SCMP_SYS(listen),
        SCMP_SYS(accept), SCMP_SYS(accept4), SCMP_SYS(execve), SCMP_SYS(execveat), SCMP_SYS(fork), SCMP_SYS(vfork),
        SCMP_SYS(ptrace), SCMP_SYS(process_vm_readv), SCMP_SYS(process_vm_writev), SCMP_SYS(pidfd_open),
        SCMP_SYS(pidfd_getfd), SCMP_SYS(pidfd_send_signal), SCMP_SYS(tkill), SCMP_SYS(setns), SCMP_SYS(unshare), SCMP_SYS(personality),
        SCMP_SYS(kexec_load), SCMP_SYS(init_module), SCMP_SYS(finit_module), SCMP_SYS(delete_module),
        SCMP_SYS(bpf), SCMP_SYS(perf_event_open), SCMP_SYS(keyctl), SCMP_SYS(add_key), SCMP_SYS(request_key),
        SCMP_SYS(setuid), SCMP_SYS(setgid), SCMP_SYS(setreuid), SCMP_SYS(setregid), SCMP_SYS(setresuid),
        SCMP_SYS(setresgid), SCMP_SYS(setgroups), SCMP_SYS(reboot), SCMP_SYS(swapon), SCMP_SYS(swapoff),
        SCMP_SYS(sethostname), SCMP_SYS(setdomainname), SCMP_SYS(acct), SCMP_SYS(quotactl), SCMP_SYS(iopl),
        SCMP_SYS(ioperm), SCMP_SYS(io_uring_setup), SCMP_SYS(io_uring_enter), SCMP_SYS(io_uring_register),
        SCMP_SYS(seccomp), SCMP_SYS(capset), SCMP_SYS(fsopen), SCMP_SYS(fsconfig), SCMP_SYS(fsmount), SCMP_SYS(fspick),
        SCMP_SYS(open_tree), SCMP_SYS(move_mount), SCMP_SYS(mount_setattr), SCMP_SYS(landlock_create_ruleset),
        SCMP_SYS(landlock_add_rule), SCMP_SYS(process_madvise), SCMP_SYS(kcmp), SCMP_SYS(lookup_dcookie),
        SCMP_SYS(fanotify_mark), SCMP_SYS(inotify_add_watch), SCMP_SYS(vhangup), SCMP_SYS(syslog),
        // Modes, owners, times and attributes, by name or of the descriptors it was sent (the
        // input's mode or owner, a setuid output); space taken without writing.
        SCMP_SYS(fchmod), SCMP_SYS(fchown), SCMP_SYS(utime), SCMP_SYS(utimes), SCMP_SYS(futimesat),
        SCMP_SYS(setxattr), SCMP_SYS(lsetxattr), SCMP_SYS(fsetxattr), SCMP_SYS(removexattr), SCMP_SYS(lremovexattr),
        SCMP_SYS(fremovexattr), SCMP_SYS(fallocate), SCMP_SYS(flock),
        // System V and POSIX message queues, shared memory and semaphores of other processes.
        SCMP_SYS(shmget), SCMP_SYS(shmat), SCMP_SYS(shmctl), SCMP_SYS(msgget), SCMP_SYS(msgsnd), SCMP_SYS(msgrcv),
        SCMP_SYS(msgctl), SCMP_SYS(semget), SCMP_SYS(semop), SCMP_SYS(semctl), SCMP_SYS(semtimedop),
        SCMP_SYS(mq_open), SCMP_SYS(mq_unlink), SCMP_SYS(mq_timedsend), SCMP_SYS(mq_timedreceive),
        SCMP_SYS(mq_notify), SCMP_SYS(mq_getsetattr), SCMP_SYS(setsid), SCMP_SYS(setpgid),
    };
    int failed = 0;
    // Every thread of the process under the filter, not only this one (and no new privileges for
    // each): threads started before this call would otherwise run without it.
    if (seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1) != 0) failed = 1;
    // Signals to this process only: raise, abort and the runtime's own signals stay.
    pid_t self = getpid();
    if (seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(kill), 1, SCMP_A0(SCMP_CMP_NE, (scmp_datum_t)self)) != 0) failed = 1;
    if (seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(tgkill), 1, SCMP_A0(SCMP_CMP_NE, (scmp_datum_t)self)) != 0) failed = 1;
    if (seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(rt_sigqueueinfo), 1, SCMP_A0(SCMP_CMP_NE, (scmp_datum_t)self)) != 0) failed = 1;
    if (seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(rt_tgsigqueueinfo), 1, SCMP_A0(SCMP_CMP_NE, (scmp_datum_t)self)) != 0) failed = 1;
    // fchmodat2 (Linux 6.6) is newer than libseccomp 2.5.4's table: by its number.
#ifdef __x86_64__
    if (seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), 452, 0) != 0) failed = 1;
#endif
    // Other processes' limits, priorities and CPUs; the promise to end with the parent.
    if (seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(prlimit64), 1, SCMP_A0(SCMP_CMP_NE, 0)) != 0) failed = 1;
    if (seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(setpriority), 1, SCMP_A1(SCMP_CMP_NE, 0)) != 0) failed = 1;
    // PRIO_PGRP and PRIO_USER with 0 are the whole group or every process of the user.
    if (seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(setpriority), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, PRIO_PGRP)) != 0) failed = 1;
    if (seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(setpriority), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, PRIO_USER)) != 0) failed = 1;
    // Signals by I/O readiness to a process of its choosing (F_SETOWN and its kin): the kernel
    // checks them against the worker's credentials only.
    static const unsigned owners[] = {F_SETOWN, F_SETOWN_EX, F_SETSIG};
    for (size_t index = 0; index < sizeof owners / sizeof owners[0]; index++) {
        if (seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(fcntl), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, owners[index])) != 0) failed = 1;
    }
    static const unsigned long owner_ioctls[] = {FIOSETOWN, SIOCSPGRP, TIOCSTI, TIOCLINUX};
    for (size_t index = 0; index < sizeof owner_ioctls / sizeof owner_ioctls[0]; index++) {
        if (seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, owner_ioctls[index])) != 0) failed = 1;
    }
    if (seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(sched_setaffinity), 1, SCMP_A0(SCMP_CMP_NE, 0)) != 0) failed = 1;
    if (seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(sched_setscheduler), 1, SCMP_A0(SCMP_CMP_NE, 0)) != 0) failed = 1;
    if (seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(sched_setparam), 1, SCMP_A0(SCMP_CMP_NE, 0)) != 0) failed = 1;
    if (seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(sched_setattr), 1, SCMP_A0(SCMP_CMP_NE, 0)) != 0) failed = 1;
    // The kernel reads prctl's option as 32 bits: compared so, or 0x100000001 passes.
    if (seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(prctl), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, PR_SET_PDEATHSIG)) != 0) failed = 1;
    for (size_t index = 0; index < sizeof refused / sizeof refused[0]; index++) {
        // A call this kernel or libseccomp does not know is negative here: nothing to refuse.
        if (refused[index] < 0) continue;
        if (seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), refused[index], 0) != 0) failed = 1;
    }
    // Threads are clone with CLONE_THREAD; a new process is clone without it. clone3 passes its
    // flags in memory, which a filter cannot read: it is refused as unknown (ENOSYS), and the C
    // library falls back to clone.
    if (seccomp_rule_add(filter, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                         SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0)) != 0) failed = 1;
    if (seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0) != 0) failed = 1;
    if (failed || seccomp_load(filter) != 0) {
        snprintf(message, capacity, "cannot load the seccomp filter");
        seccomp_release(filter);
        return -1;
    }
    seccomp_release(filter);
    return flags | MT_CONFINED_SECCOMP;
}

int mt_probe_forbidden(const char *path) {
    int refused = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 && errno == EPERM) refused |= MT_PROBE_OPEN;
    if (fd >= 0) close(fd);
    int sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (sock < 0 && errno == EPERM) refused |= MT_PROBE_SOCKET;
    if (sock >= 0) close(sock);
    // A program that does not exist: unconfined, this fails with ENOENT and replaces nothing.
    char *const arguments[] = {"mediatool-probe", NULL};
    char *const environment[] = {NULL};
    if (execve("/nonexistent/mediatool-probe", arguments, environment) < 0 && errno == EPERM) refused |= MT_PROBE_EXEC;
    pid_t child = fork();
    if (child < 0 && errno == EPERM) refused |= MT_PROBE_FORK;
    if (child == 0) _exit(0);
    if (child > 0) waitpid(child, NULL, 0);
    struct stat status;
    if (stat(path, &status) == 0) {
        // The mode it has, set again: by name (fchmodat2, chmod) and through utimensat's sibling.
        long changed = syscall(452, AT_FDCWD, path, status.st_mode & 07777, 0);
        if (changed < 0 && errno == EPERM && chmod(path, status.st_mode & 07777) < 0 && errno == EPERM) refused |= MT_PROBE_CHMOD;
    }
    // Signal 0 checks without sending.
    pid_t parent = getppid();
    if (kill(parent, 0) < 0 && errno == EPERM && syscall(SYS_tgkill, parent, parent, 0) < 0 && errno == EPERM) refused |= MT_PROBE_SIGNAL;
    char letter = ' ';
    if (ioctl(STDERR_FILENO, TIOCSTI, &letter) < 0 && errno == EPERM) refused |= MT_PROBE_TERMINAL;
    return refused;
}
