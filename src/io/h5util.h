/* Small HDF5 writers shared by the analysis outputs: FLEXI's blank-padded Fortran strings and
 * numeric datasets or attributes; each error names the file (path) and the object. */
#ifndef HEXDG_H5UTIL_H
#define HEXDG_H5UTIL_H

#include <hdf5.h>

/* n strings of len characters each (blank-padded), as a dataset or an attribute of loc. */
int h5_write_strings(hid_t loc, const char *name, int as_dataset, const char *const *v, int n,
                     size_t len, const char *path);
/* One string attribute. */
int h5_write_str_attr(hid_t loc, const char *name, const char *value, const char *path);
/* A numeric dataset or attribute of the given type and shape (C order). */
int h5_write_num(hid_t loc, const char *name, int as_dataset, hid_t type, int rank,
                 const hsize_t *dims, const void *data, const char *path);

#endif
