/* State files: the solution U at one time, in FLEXI's HDF5 layout so that FLEXI's posti tools
 * (and h5py) read them, and so that hexdg restarts from them. docs/formats.md describes the
 * format; tools/read_state.py prints a file's header.
 *
 * state_write/state_read are single-process routines (serial HDF5 calls; they also build against
 * a parallel HDF5). In an MPI run every rank writes and reads its own elements of the one file
 * with state_write_part/state_read_part. */
#ifndef HEXDG_IO_STATE_H
#define HEXDG_IO_STATE_H
#include <stddef.h>

/* FLEXI reads every string attribute into a CHARACTER(LEN=255) buffer, so hexdg writes no
 * string longer than this. */
#define STATE_MAX_STRING 255

/* Element-wise datasets a file may hold besides elem_data (StateHeader.elem_extra). */
#define STATE_MAX_ELEM_EXTRA 4

/* Node-wise fields a file may hold besides DG_Solution (StateHeader.field_data). */
#define STATE_MAX_FIELD_VARS 4

/* Length of StateHeader.mechanism_hash without its terminating NUL. */
#define STATE_MECHANISM_HASH_DIGITS 16

typedef struct {
  char project_name[256];
  char mesh_file[1024];
  char node_type[32]; /* "GAUSS" or "GAUSS-LOBATTO" */
  int N;
  int n_var;
  long n_elems;
  double time;
  /* Reacting runs: the Cantera mechanism file and its 16-hex-digit hash, written as attributes
   * Mechanism and MechanismHash; both empty for air (no attributes). A restart must have the
   * file's hash: the species, and so the variables, belong to the mechanism. */
  char mechanism[4096]; /* as ChemMech.path */
  char mechanism_hash[17];
  /* Optional element-wise dataset written beside DG_Solution, shape (nElems), e.g. "FV_alpha"
   * (the FV blending factor); NULL: none. elem_data holds the local elements (as U). */
  const char *elem_data_name;
  const double *elem_data;
  /* Up to STATE_MAX_ELEM_EXTRA more such datasets, e.g. "ElemCost"; written like elem_data. */
  int n_elem_extra;
  const char *elem_extra_names[STATE_MAX_ELEM_EXTRA];
  const double *elem_extra[STATE_MAX_ELEM_EXTRA];
  /* Optional node-wise fields (e.g. "MaxPressure"), FLEXI's dataset FieldData of shape (nElems,
   * N+1, N+1, N+1, n_field_vars) with their names in the attribute VarNamesAddField; field_data
   * holds the local elements in hexdg's layout [elem][var][k][j][i]. 0: none. */
  int n_field_vars;
  const char *field_var_names[STATE_MAX_FIELD_VARS];
  const double *field_data;
  /* FV switching: 1 where an element holds FV subcell means (local elements, as U), written as
   * FLEXI's FV = SWITCH builds do: dataset ElemData (nElems, 1), attribute VarNamesAdd =
   * FV_Elems. NULL: none. */
  const int *fv_elems;
} StateHeader;

/* "<project>_State_<time as %017.9f>.h5", FLEXI's TIMESTAMP naming (F17.9 with the leading blanks
 * replaced by zeros), e.g. ("tgv", 1.5) -> "tgv_State_0000001.500000000.h5". */
void state_file_name(char *buf, size_t len, const char *project, double time);

/* Write U (hexdg layout U[elem][var][k][j][i], var-blocked, i fastest) transposed to FLEXI's
 * layout DG_Solution[elem][k][j][i][var]. Writes to "<path>.tmp" first, then renames, so an
 * existing file is never left half-written and no .tmp is left behind on error.
 * var_names: n_var strings. */
int state_write(const char *path, const StateHeader *h, const char *const *var_names,
                const double *U);

/* Read the header: File_Type must be "State"; N, n_var and n_elems come from DG_Solution's
 * shape, which must agree with the attributes N and VarNames. mechanism and mechanism_hash are
 * empty when the file has no such attributes (air); the element-dataset pointers are NULL. */
int state_read_header(const char *path, StateHeader *h);

/* Read into caller-allocated U (hexdg layout, n_elems*n_var*(N+1)^3 doubles). The file's
 * MechanismHash must equal expected->mechanism_hash (both empty for air; checked first, since
 * another mechanism usually also changes n_var), and its N, n_var and n_elems must match expected
 * (and its node_type, when that is not empty); a mismatch is an HX_ERR_INPUT error that names
 * the file, the attribute, the value found and the value expected. */
int state_read(const char *path, const StateHeader *expected, double *U);

/* FLEXI's FV_Elems of a whole file (the column FV_Elems of ElemData, named in VarNamesAdd) into
 * out (n_elems doubles): *found = 0 when the file has none (not an error). */
int state_read_fv_elems(const char *path, long n_elems, double *out, int *found);

/* The element-wise dataset name (e.g. "FV_alpha" or "ElemCost", written through elem_data or
 * elem_extra) of a whole file into out (n_elems doubles): *found = 0 when the file has none (not
 * an error); a dataset of another size is an error. */
int state_read_elem_data(const char *path, const char *name, long n_elems, double *out,
                         int *found);

/* The node-wise field name (one of the file's VarNamesAddField) of this rank's n_local elements
 * (global ids global_id, 1-based ascending; NULL: every element in order) of a file of n_elems
 * elements at degree N into out (hexdg layout, n_local*(N+1)^3 doubles): *found = 0 when the
 * file has no such field (not an error); a FieldData of another shape is an error. */
int state_read_field(const char *path, const char *name, int N, long n_elems, long n_local,
                     const long *global_id, double *out, int *found);

/* MPI runs: this rank's n_local elements, global ids global_id (1-based, ascending; U holds them
 * in that order) of a file of h->n_elems elements. Writing is collective (every rank calls it,
 * with the same header) through MPI-IO; rank 0 renames the file when all parts are written.
 * Reading: every rank reads its elements on its own. With one rank holding every element these
 * are state_write/state_read. */
int state_write_part(const char *path, const StateHeader *h, const char *const *var_names,
                     const double *U, long n_local, const long *global_id);
int state_read_part(const char *path, const StateHeader *expected, double *U, long n_local,
                    const long *global_id);

/* A node-wise dataset of FLEXI's layout (nElems, N+1, N+1, N+1, n_var) with its names in the
 * attribute VarNames_<name>; values: the local elements in hexdg's layout [elem][var][k][j][i]. */
typedef struct {
  const char *name;
  int n_var;
  const char *const *var_names;
  const double *values;
} StateNodeData;

/* FLEXI's time-average file (hdf5_output.f90 WriteTimeAverage): File_Type "TimeAvg", the
 * header attributes of a state file (h: its N, n_elems, time, project, mesh file, node type;
 * n_var and field/element data are not used), a dummy one-variable DG_Solution, the n_sets
 * datasets (Mean, MeanSquare) and the attribute AvgTime. Collective like state_write_part. */
int state_write_timeavg_part(const char *path, const StateHeader *h, double avg_time, int n_sets,
                             const StateNodeData *sets, long n_local, const long *global_id);

#endif
