#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/error.h"

/* The whole line in one fprintf: the ranks of a run share stderr, and a line written in pieces
 * came out interleaved with another rank's ("hexdg error: hexdg error: ..."). */
int hx_error_at(const char *src_file, int src_line, int code, const char *fmt, ...) {
  const char *dbg = getenv("HEXDG_DEBUG");
  char msg[4096], where[512] = "";
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (dbg && dbg[0] == '1') snprintf(where, sizeof where, " [%s:%d]", src_file, src_line);
  fprintf(stderr, "hexdg error: %s%s\n", msg, where);
  return code;
}

void *hx_malloc(size_t bytes, const char *what) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) HX_ERROR(HX_ERR_MEM, "out of host memory allocating %zu bytes for %s", bytes, what);
  return p;
}

void *hx_calloc(size_t n, size_t size, const char *what) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) HX_ERROR(HX_ERR_MEM, "out of host memory allocating %zu x %zu bytes for %s", n, size, what);
  return p;
}
