/* Loop hints of the CPU backend's hot loops (GCC and clang; other compilers ignore them). */
#ifndef HEXDG_CPULOOPS_H
#define HEXDG_CPULOOPS_H

/* The next loop has no dependence between its iterations that the compiler cannot see (writes
 * through several pointers into one array): GCC vectorizes it without run-time alias checks.
 * Not clang's "vectorize(assume_safety)": it turns a loop clang cannot vectorize into an error. */
#if defined(__GNUC__) && !defined(__clang__)
#define HX_IVDEP _Pragma("GCC ivdep")
#else
#define HX_IVDEP
#endif

/* Inline into every caller, so that a constant loop bound (np) reaches the loops. */
#if defined(__GNUC__)
#define HX_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define HX_ALWAYS_INLINE inline
#endif

#endif
