/* HDF5 writing helpers of the structured fuzz targets (HOPR mesh, state file): the decoded arrays
 * are written with HDF5 itself, so the fuzzer mutates what the readers interpret (counts, offsets,
 * shapes, attributes), not HDF5's own file format. */
#ifndef HEXDG_FUZZ_H5_H
#define HEXDG_FUZZ_H5_H
#include <hdf5.h>
#include <string.h>

/* A file in memory, written out when closed (one write per input). */
static inline hid_t fuzz_h5_create(const char *path) {
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  H5Pset_fapl_core(fapl, 1 << 16, 1);
  hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  H5Pclose(fapl);
  return file;
}

/* Dataset or attribute of rank dims (0 entries allowed) and the given memory type. */
static inline void fuzz_h5_dataset(hid_t loc, const char *name, hid_t type, int rank,
                                   const hsize_t *dims, const void *values) {
  hid_t space = H5Screate_simple(rank, dims, NULL);
  hid_t dset = H5Dcreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (dset >= 0) {
    H5Dwrite(dset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values);
    H5Dclose(dset);
  }
  H5Sclose(space);
}

/* Attribute of n values (n = 0: a null dataspace) of the given memory type. */
static inline void fuzz_h5_attr(hid_t loc, const char *name, hid_t type, hsize_t n,
                                const void *values) {
  hid_t space = n > 0 ? H5Screate_simple(1, &n, NULL) : H5Screate(H5S_NULL);
  hid_t attr = H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  if (attr >= 0) {
    if (n > 0) H5Awrite(attr, type, values);
    H5Aclose(attr);
  }
  H5Sclose(space);
}

/* n fixed-length strings of `size` bytes each (FLEXI's blank-padded Fortran strings) or, when
 * vlen, variable-length C strings. */
static inline void fuzz_h5_string_attr(hid_t loc, const char *name, const char *const *values,
                                       hsize_t n, int vlen) {
  hid_t type = H5Tcopy(H5T_C_S1);
  if (vlen) {
    H5Tset_size(type, H5T_VARIABLE);
    fuzz_h5_attr(loc, name, type, n, values);
  } else {
    size_t size = 1;
    for (hsize_t i = 0; i < n; i++)
      if (strlen(values[i]) > size) size = strlen(values[i]);
    char buf[16 * 64];
    if (n * size > sizeof buf) n = sizeof buf / size;
    memset(buf, ' ', sizeof buf);
    for (hsize_t i = 0; i < n; i++)
      memcpy(buf + i * size, values[i], strlen(values[i]));
    H5Tset_size(type, size);
    H5Tset_strpad(type, H5T_STR_SPACEPAD);
    fuzz_h5_attr(loc, name, type, n, buf);
  }
  H5Tclose(type);
}

#endif
