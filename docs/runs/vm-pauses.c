// Pauses of the whole machine, seen from inside: THREADS threads (default 2, one per core here) spin on
// CLOCK_MONOTONIC for SECONDS; for each second and thread it prints the longest gap between two readings
// and how many gaps exceeded 1 ms, then the steal ticks /proc/stat's cpu line gained meanwhile.
// Used for docs/runs/latency-pauses-2026-12-06.txt:  gcc -O2 -pthread -o vm-pauses vm-pauses.c
// ./vm-pauses SECONDS [THREADS]
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_SECONDS 600
#define MAX_THREADS 2

static double seconds;
static long longest_gap[MAX_THREADS][MAX_SECONDS];
static long gaps_over_1ms[MAX_THREADS][MAX_SECONDS];

static long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

static void *spin(void *arg) {
    int id = (int)(long)arg;
    long start = now_ns(), previous = start;
    for (;;) {
        long now = now_ns();
        if (now - start > seconds * 1e9) break;
        int second = (now - start) / 1000000000L;
        long gap = now - previous;
        if (gap > longest_gap[id][second]) longest_gap[id][second] = gap;
        if (gap > 1000000) gaps_over_1ms[id][second]++;
        previous = now;
    }
    return NULL;
}

static long steal_ticks(void) {
    long user, nice, system, idle, iowait, irq, softirq, steal = 0;
    FILE *stat = fopen("/proc/stat", "r");
    if (!stat || fscanf(stat, "cpu %ld %ld %ld %ld %ld %ld %ld %ld", &user, &nice, &system, &idle,
                        &iowait, &irq, &softirq, &steal) != 8) steal = 0;
    if (stat) fclose(stat);
    return steal;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s SECONDS [THREADS]\n", argv[0]); return 2; }
    seconds = atof(argv[1]);
    int threads = argc > 2 ? atoi(argv[2]) : 2;
    if (seconds <= 0 || seconds > MAX_SECONDS || threads < 1 || threads > MAX_THREADS) return 2;
    long steal_before = steal_ticks();
    pthread_t spinners[MAX_THREADS];
    for (int i = 0; i < threads; i++) pthread_create(&spinners[i], NULL, spin, (void *)(long)i);
    for (int i = 0; i < threads; i++) pthread_join(spinners[i], NULL);
    for (int s = 0; s < (int)seconds; s++)
        printf("%2d s: maxgap %6ld %6ld us, >1ms %ld %ld\n", s, longest_gap[0][s] / 1000,
               longest_gap[1][s] / 1000, gaps_over_1ms[0][s], gaps_over_1ms[1][s]);
    printf("steal ticks %ld\n", steal_ticks() - steal_before);
    return 0;
}
