/* Fuzz target: the FLEXI-syntax parameter-file reader (src/core/params.c) with hexdg's whole
 * registry (simulation_define_params), then getters of every value type on what was read. */
#include <stdbool.h>

#include "core/params.h"
#include "fuzz_common.h"
#include "time/simulation.h"

/* Getters of each type: their conversions of the stored text run on fuzzed values too. */
static void read_back(const Params *p) {
  int n, ids[2];
  double x, ref[5];
  bool box_periodic[3];
  const char *s;
  params_get_int(p, "N", &n);
  params_get_real(p, "CFLscale", &x);
  params_get_choice(p, "NodeType", &n);
  params_get_string(p, "MeshFile", &s);
  params_get_logical_array(p, "BoxPeriodic", 3, box_periodic);
  for (int i = 0; i < params_count(p, "RefState") && i < 8; i++)
    params_get_real_array_at(p, "RefState", i, 5, ref);
  for (int i = 0; i < params_count(p, "BoundaryName") && i < 8; i++)
    params_get_string_at(p, "BoundaryName", i, &s);
  for (int i = 0; i < params_count(p, "BoundaryType") && i < 8; i++)
    params_get_int_array_at(p, "BoundaryType", i, 2, ids);
  params_check_mandatory(p);
}

int fuzz_reader_rc;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_temp_path("ini");
  if (fuzz_write_file(path, data, size) != 0) return 0;
  Params *p = params_create();
  fuzz_reader_rc = p ? simulation_define_params(p) : -1;
  if (fuzz_reader_rc == 0) fuzz_reader_rc = params_read_file(p, path);
  if (fuzz_reader_rc == 0) read_back(p);
  params_destroy(p);
  remove(path);
  return 0;
}
