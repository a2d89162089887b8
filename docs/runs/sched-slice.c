/* Runs a command with a shorter scheduler slice (EEVDF's custom slice, Linux 6.12+): sets
 * sched_runtime for SCHED_OTHER on itself with sched_setattr(2), then execs the command, whose
 * processes and threads inherit it. Used for docs/runs/intel-vm-2026-12-06.txt, section 2.
 *
 * Build: cc -O2 sched-slice.c -o sched-slice
 * Usage: sched-slice NANOSECONDS COMMAND [ARG...]   (e.g. 100000 for 100 µs; the default is
 *        0.7 ms x (1 + log2 cores), 1.4 ms on 2 cores, shown as se.slice in /proc/PID/sched) */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

struct sched_attr {
    uint32_t size, sched_policy;
    uint64_t sched_flags;
    int32_t sched_nice;
    uint32_t sched_priority;
    uint64_t sched_runtime, sched_deadline, sched_period;
    uint32_t sched_util_min, sched_util_max;
};

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: sched-slice NANOSECONDS COMMAND [ARG...]\n");
        return 2;
    }
    struct sched_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.sched_policy = 0; /* SCHED_OTHER */
    attr.sched_runtime = strtoull(argv[1], NULL, 10);
    if (syscall(SYS_sched_setattr, 0, &attr, 0) != 0) {
        perror("sched_setattr");
        return 1;
    }
    execvp(argv[2], argv + 2);
    perror("execvp");
    return 1;
}
