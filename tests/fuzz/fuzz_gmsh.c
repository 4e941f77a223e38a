/* Fuzz target: the gmsh .msh 4.1 reader (src/mesh/gmsh.c), ASCII and binary: the input is the file.
 */
#include "fuzz_common.h"
#include "mesh/gmsh.h"

int fuzz_reader_rc;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_temp_path("msh");
  if (fuzz_write_file(path, data, size) != 0) return 0;
  Mesh *m = NULL;
  fuzz_reader_rc = mesh_read_gmsh(path, &m);
  if (fuzz_reader_rc == 0) mesh_destroy(m);
  remove(path);
  return 0;
}
