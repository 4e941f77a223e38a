/* Small HDF5 writers shared by the analysis outputs (record points, the front-pressure record). */
#include "io/h5util.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"

int h5_write_strings(hid_t loc, const char *name, int as_dataset, const char *const *v, int n,
                     size_t len, const char *path) {
  char *pad = hx_malloc((size_t)(n > 0 ? n : 1) * len, "HDF5 strings");
  HX_ALLOC_CHECK(pad);
  memset(pad, ' ', (size_t)(n > 0 ? n : 1) * len);
  for (int i = 0; i < n; i++)
    memcpy(pad + i * len, v[i], strlen(v[i]) < len ? strlen(v[i]) : len);
  hsize_t dims = (hsize_t)n;
  hid_t type = H5Tcopy(H5T_FORTRAN_S1), space = H5Screate_simple(1, &dims, NULL), obj = -1;
  herr_t st = H5Tset_size(type, len) < 0 || H5Tset_strpad(type, H5T_STR_SPACEPAD) < 0 ? -1 : 0;
  if (st == 0 && as_dataset) {
    obj = H5Dcreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    st = obj < 0 ? -1 : H5Dwrite(obj, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, pad);
    if (obj >= 0) H5Dclose(obj);
  } else if (st == 0) {
    obj = H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    st = obj < 0 ? -1 : H5Awrite(obj, type, pad);
    if (obj >= 0) H5Aclose(obj);
  }
  H5Sclose(space);
  H5Tclose(type);
  free(pad);
  if (st < 0) return HX_ERROR(HX_ERR_IO, "%s: cannot write '%s' (disk full?)", path, name);
  return HX_OK;
}

int h5_write_str_attr(hid_t loc, const char *name, const char *value, const char *path) {
  size_t len = strlen(value);
  return h5_write_strings(loc, name, 0, &value, 1, len > 0 ? len : 1, path);
}

int h5_write_num(hid_t loc, const char *name, int as_dataset, hid_t type, int rank,
                 const hsize_t *dims, const void *data, const char *path) {
  hid_t space = H5Screate_simple(rank, dims, NULL), obj;
  herr_t st;
  if (as_dataset) {
    obj = H5Dcreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    st = obj < 0 ? -1 : H5Dwrite(obj, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
    if (obj >= 0) H5Dclose(obj);
  } else {
    obj = H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    st = obj < 0 ? -1 : H5Awrite(obj, type, data);
    if (obj >= 0) H5Aclose(obj);
  }
  H5Sclose(space);
  if (st < 0) return HX_ERROR(HX_ERR_IO, "%s: cannot write '%s' (disk full?)", path, name);
  return HX_OK;
}
