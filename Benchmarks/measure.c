/* Runs one command and measures it: wall time, CPU time and peak resident size.
 *
 *   cc -O2 -o measure measure.c
 *   ./measure RESULT_FILE COMMAND [ARG...]
 *
 * Writes "wall_seconds cpu_seconds max_rss_kib exit_status system_seconds" to RESULT_FILE (cpu is
 * user + system); the command keeps
 * this process's stdin, stdout and stderr. Why a C program and not the Python driver: Linux
 * carries the peak RSS of a process across exec, and a child forked (even vforked) from a 15 MiB
 * Python would report at least 15 MiB; forked from this, at most about 1 MiB. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fputs("usage: measure RESULT_FILE COMMAND [ARG...]\n", stderr);
        return 2;
    }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t pid = fork();
    if (pid < 0) { perror("fork"); return 2; }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror(argv[2]);
        _exit(127);
    }
    int status;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) < 0) { perror("wait4"); return 2; }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double wall = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9;
    double cpu = (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec / 1e6
               + (double)usage.ru_stime.tv_sec + (double)usage.ru_stime.tv_usec / 1e6;
    double sys = (double)usage.ru_stime.tv_sec + (double)usage.ru_stime.tv_usec / 1e6;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    FILE *out = fopen(argv[1], "w");
    if (!out) { perror(argv[1]); return 2; }
    fprintf(out, "%.9f %.6f %ld %d %.6f\n", wall, cpu, usage.ru_maxrss, code, sys);
    fclose(out);
    return 0;
}
