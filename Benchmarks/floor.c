/* The floor: what libyaml's event parser alone costs over the same files as `policyc lint`.
 *
 *   cc -O2 -o floor floor.c $(pkg-config --cflags --libs yaml-0.1)
 *   ./floor PATH...     (files, or folders walked for *.yaml / *.yml like policyc does)
 *
 * Reads each file whole (as policyc does), parses every event, and prints the number of files,
 * events and parse errors, so the work can't be optimised away. Single-threaded: the target
 * lets policyc use both cores to come within 2x of it. Exit 0 unless a path is unreadable. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

static long files, events, errors;
static unsigned char *buffer;
static size_t capacity;

static int parse_file(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) { perror(path); return -1; }
    struct stat info;
    if (fstat(fd, &info) != 0) { perror(path); close(fd); return -1; }
    size_t want = (size_t)info.st_size + 1;
    if (want > capacity) {
        capacity = want;
        buffer = realloc(buffer, capacity);
        if (!buffer) { perror("realloc"); exit(2); }
    }
    size_t count = 0;
    for (;;) {
        ssize_t n = read(fd, buffer + count, capacity - count);
        if (n < 0) { perror(path); close(fd); return -1; }
        if (n == 0 || (count += (size_t)n) == capacity) break;
    }
    close(fd);

    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) { fputs("yaml_parser_initialize failed\n", stderr); exit(2); }
    /* With the encoding set, libyaml takes a BOM for content and stops at line 2 with an error,
     * which would time a few events instead of the file. policyc drops the BOM; so does the floor. */
    size_t skip = count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF ? 3 : 0;
    yaml_parser_set_input_string(&parser, buffer + skip, count - skip);
    yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
    for (;;) {
        yaml_event_t event;
        if (!yaml_parser_parse(&parser, &event)) { errors++; break; }
        events++;
        int done = event.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&event);
        if (done) break;
    }
    yaml_parser_delete(&parser);
    files++;
    return 0;
}

static int is_policy(const char *name) {
    size_t n = strlen(name);
    return (n >= 5 && strcmp(name + n - 5, ".yaml") == 0) || (n >= 4 && strcmp(name + n - 4, ".yml") == 0);
}

static int walk(const char *path) {
    struct stat info;
    if (stat(path, &info) != 0) { perror(path); return -1; }
    if (!S_ISDIR(info.st_mode)) return parse_file(path);
    DIR *dir = opendir(path);
    if (!dir) { perror(path); return -1; }
    int status = 0;
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        if (entry->d_name[0] == '.') continue;
        char child[4096];
        snprintf(child, sizeof child, "%s/%s", path, entry->d_name);
        struct stat c;
        if (lstat(child, &c) != 0) continue;
        if (S_ISDIR(c.st_mode)) status |= walk(child);
        else if (S_ISREG(c.st_mode) && is_policy(entry->d_name)) status |= parse_file(child);
    }
    closedir(dir);
    return status;
}

int main(int argc, char **argv) {
    int status = 0;
    for (int i = 1; i < argc; i++) status |= walk(argv[i]);
    printf("%ld files, %ld events, %ld parse errors\n", files, events, errors);
    free(buffer);
    return status ? 2 : 0;
}
