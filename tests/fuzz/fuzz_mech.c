/* Fuzz target: the Cantera YAML mechanism reader (src/chem/mech_yaml.c): the input is the file. */
#include "chem/mech.h"
#include "fuzz_common.h"

int fuzz_reader_rc;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_temp_path("yaml");
  if (fuzz_write_file(path, data, size) != 0) return 0;
  ChemMech *m = NULL;
  fuzz_reader_rc = chem_mech_load(path, NULL, &m);
  if (fuzz_reader_rc == 0) chem_mech_free(m);
  remove(path);
  return 0;
}
