/* Where the chemistry tests find their mechanisms: tests/data/chem (shipped), ../shared/data
 * (h2o2, Burke 2012, Li 2004) and .oracle/mechanisms (GRI-Mech 3.0 and n-dodecane Reitz, copied
 * from Cantera's data folder by tools/install_oracle.sh). A test whose file is missing skips. */
#ifndef HEXDG_TEST_CHEM_PATHS_H
#define HEXDG_TEST_CHEM_PATHS_H
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* short names: h2o2, burke, li, gri30, dodecane; anything else: tests/data/chem/<name> */
static inline const char *chem_test_mech_path(const char *name, char *buf, size_t len) {
  const char *src = HEXDG_SOURCE_DIR;
  if (!strcmp(name, "h2o2"))
    snprintf(buf, len, "%s/../shared/data/mechanisms/h2o2_cantera/h2o2.yaml", src);
  else if (!strcmp(name, "burke"))
    snprintf(buf, len, "%s/../shared/data/mechanisms/burke2012/mechanism.yaml", src);
  else if (!strcmp(name, "li"))
    snprintf(buf, len, "%s/../shared/data/mechanisms/li2004/mechanism.yaml", src);
  else if (!strcmp(name, "gri30"))
    snprintf(buf, len, "%s/.oracle/mechanisms/gri30.yaml", src);
  else if (!strcmp(name, "dodecane"))
    snprintf(buf, len, "%s/.oracle/mechanisms/nDodecane_Reitz.yaml", src);
  else
    snprintf(buf, len, "%s/tests/data/chem/%s", src, name);
  /* the GPU machine gets the checkout only: shared mechanisms travel as
   * .oracle/mechanisms/<name>.yaml */
  if (access(buf, R_OK) != 0 &&
      (!strcmp(name, "h2o2") || !strcmp(name, "burke") || !strcmp(name, "li")))
    snprintf(buf, len, "%s/.oracle/mechanisms/%s.yaml", src, name);
  return buf;
}

/* 1 if the mechanism file exists, else prints why the test skips and returns 0 */
static inline int chem_test_have(const char *path) {
  if (access(path, R_OK) == 0) return 1;
  printf("  %s not found: skipped (../shared/data absent, or no Cantera oracle: "
         "bash tools/install_oracle.sh)\n",
         path);
  return 0;
}
#endif
