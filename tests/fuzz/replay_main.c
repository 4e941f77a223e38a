/* Replays saved inputs through a fuzz target's entry point without libFuzzer (built with the
 * normal compiler; ctest fuzz.replay_<target>):
 *   fuzz_replay_<target> [PATH...] [--expect-error PATH...]
 * feeds every file named, or every file of every directory named, once. A crash fails the test.
 * Inputs after --expect-error (the saved crash inputs) must be refused by the reader with an
 * error: once fixed, a reader answers them with a message, not with a (maybe silent) success. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"

static int expect_error = 0;

static int replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "replay: cannot open '%s'\n", path);
    return 1;
  }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *data = malloc(size > 0 ? (size_t)size : 1);
  size_t n = data ? fread(data, 1, (size_t)size, f) : 0;
  fclose(f);
  if (!data || n != (size_t)size) {
    fprintf(stderr, "replay: cannot read '%s'\n", path);
    free(data);
    return 1;
  }
  fuzz_reader_rc = 0;
  LLVMFuzzerTestOneInput(data, n);
  free(data);
  if (expect_error && fuzz_reader_rc == 0) {
    fprintf(stderr, "replay: '%s' was read without an error; the reader must refuse it\n", path);
    return 1;
  }
  return 0;
}

static int replay_dir(const char *dir, int *count) {
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "replay: cannot open directory '%s'\n", dir);
    return 1;
  }
  int fails = 0;
  struct dirent *ent;
  while ((ent = readdir(d)) != NULL) {
    if (ent->d_name[0] == '.') continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
    fails += replay_file(path);
    (*count)++;
  }
  closedir(d);
  return fails;
}

int main(int argc, char **argv) {
  int fails = 0, count = 0;
  for (int a = 1; a < argc; a++) {
    struct stat st;
    if (strcmp(argv[a], "--expect-error") == 0) {
      expect_error = 1;
    } else if (stat(argv[a], &st) != 0) {
      fprintf(stderr, "replay: '%s' does not exist\n", argv[a]);
      fails++;
    } else if (S_ISDIR(st.st_mode)) {
      fails += replay_dir(argv[a], &count);
    } else {
      fails += replay_file(argv[a]);
      count++;
    }
  }
  printf("replay: %d inputs fed to the reader without a crash%s\n", count,
         fails ? "; FAILED: see the messages above" : "");
  return fails ? 1 : 0;
}
