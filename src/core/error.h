/* Error reporting: every failing call prints its context once and returns a non-zero code
 * that the caller propagates with HX_CHECK up to main, which exits non-zero. */
#ifndef HEXDG_ERROR_H
#include <stddef.h>
#define HEXDG_ERROR_H

enum { HX_OK = 0, HX_ERR_INPUT = 1, HX_ERR_IO = 2, HX_ERR_MEM = 3, HX_ERR_NUMERIC = 4,
       HX_ERR_INTERNAL = 5, HX_ERR_DEVICE = 6 };

/* Print "hexdg error [where]: message" to stderr and return code. */
int hx_error_at(const char *src_file, int src_line, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#define HX_ERROR(code, ...) hx_error_at(__FILE__, __LINE__, (code), __VA_ARGS__)

/* Propagate a non-zero return code. */
#define HX_CHECK(call)                                                                             \
  do {                                                                                             \
    int hx_rc_ = (call);                                                                           \
    if (hx_rc_ != HX_OK) return hx_rc_;                                                            \
  } while (0)

/* Allocation helpers that report the size and the purpose on failure. */
void *hx_malloc(size_t bytes, const char *what);
void *hx_calloc(size_t n, size_t size, const char *what);
#define HX_ALLOC_CHECK(ptr)                                                                        \
  do {                                                                                             \
    if (!(ptr)) return HX_ERR_MEM;                                                                 \
  } while (0)

#endif
