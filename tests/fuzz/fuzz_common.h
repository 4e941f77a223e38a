/* Shared pieces of the fuzz targets (tests/fuzz, docs/fuzzing.md): the readers take a path, so each
 * input is written to a per-process file in /dev/shm (or $TMPDIR) before the reader opens it. */
#ifndef HEXDG_FUZZ_COMMON_H
#define HEXDG_FUZZ_COMMON_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The reader's return code for the last input (0: read); each target defines it. The replay
 * driver checks that every saved crash input is now refused with an error. */
extern int fuzz_reader_rc;

/* "<dir>/hexdg_fuzz_<pid>.<ext>": one name per process, so parallel fuzz jobs do not collide. */
static inline const char *fuzz_temp_path(const char *ext) {
  static char path[512];
  const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
  snprintf(path, sizeof path, "%s/hexdg_fuzz_%ld.%s", dir, (long)getpid(), ext);
  return path;
}

/* Write the bytes to path; 0 on success. */
static inline int fuzz_write_file(const char *path, const uint8_t *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  size_t n = size ? fwrite(data, 1, size, f) : 0;
  return (fclose(f) == 0 && n == size) ? 0 : -1;
}

/* Sequential little-endian decoder of the structured inputs (HOPR, state): reads past the end
 * give zeros, so every byte string is a valid input. */
typedef struct {
  const uint8_t *data;
  size_t size, pos;
} FuzzReader;

static inline uint8_t fuzz_u8(FuzzReader *r) {
  return r->pos < r->size ? r->data[r->pos++] : 0;
}

static inline uint16_t fuzz_u16(FuzzReader *r) {
  uint16_t lo = fuzz_u8(r);
  return (uint16_t)(lo | (uint16_t)fuzz_u8(r) << 8);
}

static inline int32_t fuzz_i32(FuzzReader *r) {
  uint32_t v = 0;
  for (int b = 0; b < 4; b++)
    v |= (uint32_t)fuzz_u8(r) << (8 * b);
  int32_t out;
  memcpy(&out, &v, sizeof out);
  return out;
}

static inline double fuzz_f64(FuzzReader *r) {
  uint64_t v = 0;
  for (int b = 0; b < 8; b++)
    v |= (uint64_t)fuzz_u8(r) << (8 * b);
  double out;
  memcpy(&out, &v, sizeof out);
  return out;
}

/* A string of (length byte % max_len) bytes into out (NUL-terminated, max_len + 1 bytes). */
static inline void fuzz_string(FuzzReader *r, char *out, size_t max_len) {
  size_t n = fuzz_u8(r) % (max_len + 1);
  for (size_t i = 0; i < n; i++)
    out[i] = (char)fuzz_u8(r);
  out[n] = '\0';
}

#endif
