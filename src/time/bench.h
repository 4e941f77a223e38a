/* hexdg bench: PID (seconds per DOF per RK stage) and memory per DOF on a periodic box. */
#ifndef HEXDG_BENCH_H
#define HEXDG_BENCH_H

/* argv: the options after "bench" (--N, --elems, --split, --node, --backend, --steps, --curving,
 * --graphs, --mu0). Prints a table line and, last, "PID <s> DOF <n> stages <n> bytes_per_DOF <n>". */
int hexdg_bench(int argc, char **argv);

#endif
