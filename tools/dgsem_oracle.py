#!/usr/bin/env python3
"""Independent numpy oracle of hexdg's weak-form DGSEM on Gauss-Lobatto nodes (3-D Euler).

usage: dgsem_oracle.py [--N 2] [--elems 2|nx,ny,nz] [--riemann lf|roe|upwind] [--cfl 0.25]
                       [--tend 1] [--analyze-dt DT] [--adv-vel 0.3] [--amplitude 0.1]
                       [--compare state.h5 ...] [--mesh box_mesh.h5] [--tol 1e-12]
                       [--norms ProjectName_ErrorNorms.csv]

What it solves: the compressible Euler equations (kappa = 1.4) with the manufactured solution of
FLEXI's IniExactFunc 4 (g = 2 + A sin(omega (x+y+z) - a t), rho = rho u = rho v = rho w = g,
rho E = g^2; A = 0.1, omega = pi f with f = 1, a = 2 pi AdvVel(1)) and its source term, on a
periodic Cartesian box [-1,1]^3 of nx*ny*nz elements, degree N on Gauss-Lobatto (LGL) nodes.

The scheme, written from the formulas (no solver's code):
  - collocated weak form per direction d of width h_d (the nodal DGSEM of Kopriva 2009,
    "Implementing Spectral Methods for Partial Differential Equations"):
    dU_i/dt = (2/h_d)/w_i [sum_j w_j D_ji F_j - (delta_iN F*_right - delta_i0 F*_left)] + S_i;
    on LGL nodes this equals the strong form (SBP property, Gassner 2013, SIAM J. Sci. Comput.
    35, A1233);
  - Riemann fluxes: lf (Rusanov with lambda = max(|u_n,L|, |u_n,R|) + max(c_L, c_R), the
    estimate of FLEXI's Riemann_LF; --lf-speed pairwise takes max(|u_n|+c) of the two states),
    roe (Roe 1981 averages, Roe-Pike wave strengths, Toro 2009 "Riemann Solvers and Numerical
    Methods for Fluid Dynamics" sec. 11.3, with the Harten & Hyman 1983 (JCP 50) entropy fix on
    every wave: delta = max(0, lam~ - lam_L, lam_R - lam~), |lam| -> (lam~^2/delta + delta)/2
    where |lam~| < delta), upwind (F* = F(U_L), valid only when every eigenvalue u_n - c, u_n,
    u_n + c of both face states is positive, as in p_3D where u = (1,1,1) and c ~ 0.5: asserted
    at every face and stage, the run stops where it fails);
  - time: Carpenter & Kennedy 1994 (NASA TM-109112, solution 3) five-stage 2N-storage RK4,
    k = A_s k + dt Ut(t + c_s dt), U += B_s k; the source is added pointwise at the stage time;
  - time step, hexdg's and FLEXI's rule (FLEXI timedisc fillCFL_DFL and CalcTimeStep):
    dt = CFLscale alpha(N) / (2N+1) * 2 / max_elem sum_d max_nodes (|u_d| + c) (2 / h_d), alpha
    FLEXI's CFLScaleAlpha of carpenterrk4-5 for LGL nodes; a step that would pass the next
    analysis time t_a (within dt (1 + 1e-9)) is shortened to land on it, t_a = t + Analyze_dt
    (tend when within 1e-12 tend of it);
  - error norms as hexdg's analysis: the state interpolated to the (2N+1)^3 Gauss points of each
    element, L2 = sqrt(sum w J |U - U_exact|^2 / volume), Linf = max |U - U_exact| there;
  - admissibility: the state at the start of a step (where hexdg computes dt) must have rho > 0,
    p > 0 and no NaN; the first stage state that fails is reported too.

--compare reads hexdg state files (DG_Solution of shape (nElems, N+1, N+1, N+1, nVar) in C order,
i.e. [elem, k, j, i, var]) and prints max |U_hexdg - U_oracle| per variable at the file's time,
which must be an analysis time of the oracle run (same Analyze_dt). Element placement comes from
a HOPR mesh file (--mesh; for MeshFile = box write it with `hexdg mesh box --elems 2,2,2 -o
box_mesh.h5`, the same generator and element order; a state run on a HOPR file finds it by its
MeshFile attribute): each element must be a cell of the box, its local directions i, j, k along
the axes in any order and sense (FLEXI's p_3D mesh rotates half of its elements). --tol: exit 1
when a difference relative to max |U| exceeds it; --norms compares hexdg's ErrorNorms.csv.

Needs numpy (h5py for --compare and --mesh); if the running Python lacks them, the script re-runs
itself with /usr/bin/python3.
"""
import argparse
import math
import os
import sys

REEXEC_GUARD = "HEXDG_DGSEM_ORACLE_REEXEC"

try:
    import numpy as np
except ImportError:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from system_python import rerun_or_exit

    rerun_or_exit(REEXEC_GUARD, "dgsem_oracle.py: needs numpy (pip install numpy)")

KAPPA = 1.4
AMPLITUDE = 0.1
FREQUENCY = 1.0
N_VAR = 5

# Carpenter & Kennedy 1994, NASA TM-109112, (5,4) 2N-storage scheme, solution 3
RK_A = [0.0, -567301805773.0 / 1357537059087.0, -2404267990393.0 / 2016746695238.0,
        -3550918686646.0 / 2091501179385.0, -1275806237668.0 / 842570457699.0]
RK_B = [1432997174477.0 / 9575080441755.0, 5161836677717.0 / 13612068292357.0,
        1720146321549.0 / 2090206949498.0, 3134564353537.0 / 4481467310338.0,
        2277821191437.0 / 14882151754819.0]
RK_C = [0.0, 1432997174477.0 / 9575080441755.0, 2526269341429.0 / 6820363962896.0,
        2006345519317.0 / 3224310063776.0, 2802321613138.0 / 2924317926251.0]
# FLEXI's CFLScaleAlpha of carpenterrk4-5 on Gauss-Lobatto nodes, N = 1..15 (FLEXI timedisc)
CFL_ALPHA_LGL = [4.7497, 3.4144, 2.8451, 2.4739, 2.2027, 1.9912, 1.8225, 1.6830, 1.5682, 1.4692,
                 1.3849, 1.3106, 1.2454, 1.1880, 1.1362]


# ---------------------------------------------------------------------------------------------
# basis


def lgl_nodes_weights(N):
    """LGL nodes (roots of (1 - x^2) P_N'(x)) and weights 2 / (N (N+1) P_N(x)^2)."""
    leg = np.polynomial.legendre
    cN = np.zeros(N + 1)
    cN[N] = 1.0
    inner = np.sort(np.real(leg.legroots(leg.legder(cN)))) if N > 1 else np.zeros(0)
    d1, d2 = leg.legder(cN), leg.legder(cN, 2)
    for _ in range(3):  # Newton polish of the companion-matrix roots
        inner = inner - leg.legval(inner, d1) / leg.legval(inner, d2)
    x = np.concatenate([[-1.0], inner, [1.0]])
    x = 0.5 * (x - x[::-1])  # exactly antisymmetric
    w = 2.0 / (N * (N + 1) * leg.legval(x, cN) ** 2)
    return x, 0.5 * (w + w[::-1])


def barycentric_weights(x):
    return np.array([1.0 / np.prod([x[j] - x[k] for k in range(len(x)) if k != j])
                     for j in range(len(x))])


def diff_matrix(x):
    """D_ij = l_j'(x_i) in barycentric form, the diagonal as minus the row sum (Kopriva 2009)."""
    wb = barycentric_weights(x)
    n = len(x)
    D = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if i != j:
                D[i, j] = wb[j] / wb[i] / (x[i] - x[j])
        D[i, i] = -np.sum(D[i, :])
    return D


def interp_matrix(x_from, x_to):
    """V[a, j] = l_j(x_to[a]), the Lagrange basis of x_from."""
    V = np.ones((len(x_to), len(x_from)))
    for j in range(len(x_from)):
        for k in range(len(x_from)):
            if k != j:
                V[:, j] *= (x_to - x_from[k]) / (x_from[j] - x_from[k])
    return V


def apply_along(M, A, axis):
    """sum_j M[i, j] A[..., j, ...] with j on the given axis."""
    return np.moveaxis(np.tensordot(M, A, axes=([1], [axis])), 0, axis)


# ---------------------------------------------------------------------------------------------
# physics


def primitive(U):
    rho = U[0]
    vel = U[1:4] / rho
    p = (KAPPA - 1.0) * (U[4] - 0.5 * rho * np.sum(vel * vel, axis=0))
    return rho, vel, p


def sound_speed(rho, p):
    return np.sqrt(KAPPA * p / rho)


def physical_flux(U, d):
    """Euler flux in direction d of conservative states U[5, ...]."""
    rho, vel, p = primitive(U)
    un = vel[d]
    F = np.empty_like(U)
    F[0] = U[1 + d]
    for m in range(3):
        F[1 + m] = U[1 + m] * un
    F[1 + d] += p
    F[4] = (U[4] + p) * un
    return F


def mms_phase(x, t, adv):
    return math.pi * FREQUENCY * (x[0] + x[1] + x[2]) - 2.0 * math.pi * adv * t


def mms_state(x, t, adv):
    g = 2.0 + AMPLITUDE * np.sin(mms_phase(x, t, adv))
    return np.stack([g, g, g, g, g * g])


def mms_source(x, t, adv):
    """FLEXI exactfunc.f90 CalcSource, IniExactFunc 4, Euler part (no tmp(6))."""
    omega, a = math.pi * FREQUENCY, 2.0 * math.pi * adv
    tmp1 = AMPLITUDE * (-a + 3.0 * omega)
    tmp2 = AMPLITUDE * (-a + 0.5 * omega * (1.0 + 5.0 * KAPPA))
    tmp3 = AMPLITUDE * AMPLITUDE * omega * (KAPPA - 1.0)
    tmp4 = AMPLITUDE * 0.5 * ((9.0 + 15.0 * KAPPA) * omega - 8.0 * a)
    tmp5 = AMPLITUDE * AMPLITUDE * (3.0 * omega * KAPPA - a)
    phase = mms_phase(x, t, adv)
    c, s = np.cos(phase), np.sin(phase)
    s2 = 2.0 * s * c
    mom = tmp2 * c + tmp3 * s2
    return np.stack([tmp1 * c, mom, mom, mom, tmp4 * c + tmp5 * s2])


# ---------------------------------------------------------------------------------------------
# Riemann fluxes at faces of normal e_d; UL, UR: [5, ...]


class FaceStats:
    """What the Roe/upwind fluxes saw: smallest eigenvalue, entropy-fix activations."""

    def __init__(self):
        self.min_lambda = math.inf
        self.fix_active = 0
        self.fix_times = []  # stage times at which the entropy fix changed an eigenvalue
        self.faces = 0
        self.t = 0.0


def rotate(U, d):
    """Conservative state in the frame (e_d, e_d+1, e_d+2): momentum components permuted."""
    t1, t2 = (d + 1) % 3, (d + 2) % 3
    return np.stack([U[0], U[1 + d], U[1 + t1], U[1 + t2], U[4]])


def rotate_back(F, d):
    out = np.empty_like(F)
    t1, t2 = (d + 1) % 3, (d + 2) % 3
    out[0], out[4] = F[0], F[4]
    out[1 + d], out[1 + t1], out[1 + t2] = F[1], F[2], F[3]
    return out


def flux_lf(UL, UR, d, pairwise):
    rL, vL, pL = primitive(UL)
    rR, vR, pR = primitive(UR)
    cL, cR = sound_speed(rL, pL), sound_speed(rR, pR)
    if pairwise:
        lam = np.maximum(np.abs(vL[d]) + cL, np.abs(vR[d]) + cR)
    else:  # FLEXI's Riemann_LF estimate
        lam = np.maximum(np.abs(vL[d]), np.abs(vR[d])) + np.maximum(cL, cR)
    return 0.5 * (physical_flux(UL, d) + physical_flux(UR, d)) - 0.5 * lam * (UR - UL)


def side_eigenvalues(U):
    """u_n - c, u_n, u_n + c of a state in the rotated frame."""
    rho, vel, p = primitive(U)
    c = sound_speed(rho, p)
    return vel[0] - c, vel[0], vel[0] + c


def flux_roe(UL, UR, d, stats):
    L, R = rotate(UL, d), rotate(UR, d)
    rL, vL, pL = primitive(L)
    rR, vR, pR = primitive(R)
    sL, sR = np.sqrt(rL), np.sqrt(rR)
    HL, HR = (L[4] + pL) / rL, (R[4] + pR) / rR
    vel = (sL * vL + sR * vR) / (sL + sR)
    H = (sL * HL + sR * HR) / (sL + sR)
    q2 = np.sum(vel * vel, axis=0)
    c = np.sqrt((KAPPA - 1.0) * (H - 0.5 * q2))
    rho = sL * sR
    u, v, w = vel
    dp, du = pR - pL, vR[0] - vL[0]
    alpha = [(dp - rho * c * du) / (2.0 * c * c), (rR - rL) - dp / (c * c), rho * (vR[1] - vL[1]),
             rho * (vR[2] - vL[2]), (dp + rho * c * du) / (2.0 * c * c)]
    one, zero = np.ones_like(u), np.zeros_like(u)
    r = [np.stack([one, u - c, v, w, H - u * c]), np.stack([one, u, v, w, 0.5 * q2]),
         np.stack([zero, zero, one, zero, v]), np.stack([zero, zero, zero, one, w]),
         np.stack([one, u + c, v, w, H + u * c])]
    lamL, lamR = side_eigenvalues(L), side_eigenvalues(R)
    wave = [0, 1, 1, 1, 2]  # eigenvalue of each wave: u - c, u (three), u + c
    lam_roe = [u - c, u, u + c]
    F = 0.5 * (physical_flux(L, 0) + physical_flux(R, 0))
    for k in range(5):
        lam = lam_roe[wave[k]]
        delta = np.maximum(0.0, np.maximum(lam - lamL[wave[k]], lamR[wave[k]] - lam))
        fix = np.abs(lam) < delta
        abs_lam = np.where(fix, 0.5 * (lam * lam / np.where(fix, delta, 1.0) + delta), np.abs(lam))
        if np.any(fix):
            stats.fix_active += int(np.count_nonzero(fix))
            stats.fix_times.append(stats.t)
        F = F - 0.5 * alpha[k] * abs_lam * r[k]
    stats.min_lambda = min(stats.min_lambda, float(np.min(lamL[0])), float(np.min(lamR[0])),
                           float(np.min(u - c)))
    stats.faces += u.size
    return rotate_back(F, d)


def flux_upwind(UL, UR, d, stats):
    lamL, lamR = side_eigenvalues(rotate(UL, d)), side_eigenvalues(rotate(UR, d))
    smallest = min(float(np.min(lamL[0])), float(np.min(lamR[0])))
    if not smallest > 0.0:
        raise RuntimeError(f"upwind flux invalid: an eigenvalue u_n - c = {smallest:.3e} <= 0 at "
                           f"a face of normal {'xyz'[d]}; use --riemann roe")
    stats.min_lambda = min(stats.min_lambda, smallest)
    stats.faces += UL[0].size
    return physical_flux(UL, d)


# ---------------------------------------------------------------------------------------------
# the DG operator on the periodic box; U[v, ex, i, ey, j, ez, k]


class Box:
    def __init__(self, N, elems, lower, upper, riemann, lf_pairwise, adv):
        self.N, self.n = N, N + 1
        self.elems = elems
        self.lower, self.upper = np.array(lower, float), np.array(upper, float)
        self.h = (self.upper - self.lower) / np.array(elems)
        self.xi, self.w = lgl_nodes_weights(N)
        D = diff_matrix(self.xi)
        self.Dhat = (D.T * self.w[None, :]) / self.w[:, None]  # Dhat_ij = w_j D_ji / w_i
        self.riemann, self.lf_pairwise, self.adv = riemann, lf_pairwise, adv
        self.stats = FaceStats()
        self.x = self.coordinates(self.xi)

    def coordinates(self, nodes):
        """x[3, ex, i, ey, j, ez, k] of the given 1-D reference nodes."""
        n, (kx, ky, kz) = len(nodes), self.elems
        x = np.zeros((3, kx, n, ky, n, kz, n))
        for d, (K, shape) in enumerate([(kx, (kx, n, 1, 1, 1, 1)), (ky, (1, 1, ky, n, 1, 1)),
                                        (kz, (1, 1, 1, 1, kz, n))]):
            ref = 0.5 * (nodes[None, :] + 1.0)
            line = self.lower[d] + self.h[d] * (np.arange(K)[:, None] + ref)
            x[d] = line.reshape(shape)
        return x

    def face_flux(self, UL, UR, d):
        if self.riemann == "lf":
            return flux_lf(UL, UR, d, self.lf_pairwise)
        if self.riemann == "roe":
            return flux_roe(UL, UR, d, self.stats)
        return flux_upwind(UL, UR, d, self.stats)

    def time_derivative(self, U, t):
        self.stats.t = t
        Ut = np.zeros_like(U)
        for d in range(3):
            ea, na = 1 + 2 * d, 2 + 2 * d  # element and node axis of direction d
            scale = 2.0 / self.h[d]
            Ut += scale * apply_along(self.Dhat, physical_flux(U, d), na)
            UL = np.take(U, [self.N], axis=na)  # right face of each element
            UR = np.roll(np.take(U, [0], axis=na), -1, axis=ea)  # left face of the next
            Fs = self.face_flux(UL, UR, d)
            right = [slice(None)] * U.ndim
            left = list(right)
            right[na], left[na] = slice(self.N, self.N + 1), slice(0, 1)
            Ut[tuple(right)] -= scale / self.w[-1] * Fs
            Ut[tuple(left)] += scale / self.w[0] * np.roll(Fs, 1, axis=ea)
        return Ut + mms_source(self.x, t, self.adv)

    def max_lambda(self, U):
        """max over elements of sum_d max_nodes (|u_d| + c) 2 / h_d, or None if not admissible."""
        if not admissible(U):
            return None
        rho, vel, p = primitive(U)
        c = sound_speed(rho, p)
        node_axes = (1, 3, 5)  # of a scalar field [ex, i, ey, j, ez, k]
        lam = 0.0
        for d in range(3):
            lam = lam + np.max(np.abs(vel[d]) + c, axis=node_axes) * 2.0 / self.h[d]
        return float(np.max(lam))

    def error_norms(self, U, t):
        """hexdg's analysis: (2N+1)^3 Gauss points per element, L2 and Linf per variable."""
        xg, wg = np.polynomial.legendre.leggauss(2 * self.N + 1)
        V = interp_matrix(self.xi, xg)
        Ua = U
        for axis in (2, 4, 6):
            Ua = apply_along(V, Ua, axis)
        err = np.abs(Ua - mms_state(self.coordinates(xg), t, self.adv))
        w3 = (wg[None, :, None, None, None, None] * wg[None, None, None, :, None, None]
              * wg[None, None, None, None, None, :])
        J = np.prod(self.h / 2.0)
        volume = np.prod(self.upper - self.lower)
        l2 = np.sqrt(np.array([np.sum(w3 * J * err[v] ** 2) for v in range(N_VAR)]) / volume)
        linf = np.array([np.max(err[v]) for v in range(N_VAR)])
        return l2, linf

    def elem_block(self, U, cell, orient):
        """One element's state in hexdg's layout [k, j, i, var]; orient: axis and sense of the
        local directions i, j, k (elem_placement)."""
        ex, ey, ez = cell
        B = U[:, ex, :, ey, :, ez, :]  # [var, x, y, z]
        local = np.meshgrid(*[np.arange(self.n)] * 3, indexing="ij")  # i, j, k
        idx = [None] * 3
        for (axis, sense), r in zip(orient, local):
            idx[axis] = r if sense > 0 else self.N - r
        return np.transpose(B[:, idx[0], idx[1], idx[2]], (3, 2, 1, 0))


def admissible(U):
    rho, _, p = primitive(U)
    return bool(np.all(np.isfinite(U)) and np.all(rho > 0.0) and np.all(p > 0.0))


# ---------------------------------------------------------------------------------------------
# hexdg files


def as_text(value):
    """HDF5 string attribute -> str (hexdg and FLEXI write fixed-length byte strings)."""
    return value.decode().strip() if isinstance(value, bytes) else str(value).strip()


def read_state(path):
    import h5py

    with h5py.File(path, "r") as f:
        U = np.asarray(f["DG_Solution"][...])
        t = float(np.asarray(f.attrs["Time"]).ravel()[0])
        mesh = np.asarray(f.attrs["MeshFile"]).ravel()[0]
        node = np.asarray(f.attrs["NodeType"]).ravel()[0]
    return U, t, as_text(mesh), as_text(node)


def elem_placement(X, box, label):
    """Box cell and orientation of one element from its node coordinates X[k, j, i, xyz]: the
    cell index (ex, ey, ez) and, for each of the local directions i, j, k, the axis it runs along
    and its sense (+1/-1). FLEXI's meshes rotate some elements (p_3D's second HOPR zone)."""
    origin = X[0, 0, 0]
    edges = [X[0, 0, -1] - origin, X[0, -1, 0] - origin, X[-1, 0, 0] - origin]  # i, j, k
    orient = []
    for edge in edges:
        axis = int(np.argmax(np.abs(edge)))
        sense = 1 if edge[axis] > 0 else -1
        if not np.allclose(edge, sense * box.h[axis] * np.eye(3)[axis], atol=1e-12):
            raise SystemExit(f"dgsem_oracle.py: {label} is not a cell of the {box.elems} box "
                             f"(edge {edge}, cell size {box.h})")
        orient.append((axis, sense))
    if sorted(a for a, _ in orient) != [0, 1, 2]:
        raise SystemExit(f"dgsem_oracle.py: {label}: two local directions along one axis")
    lo = np.min(X.reshape(-1, 3), axis=0)
    cell = np.round((lo - box.lower) / box.h).astype(int)
    if not np.allclose(lo, box.lower + cell * box.h, atol=1e-12) or np.any(cell < 0) \
            or np.any(cell >= np.array(box.elems)):
        raise SystemExit(f"dgsem_oracle.py: {label} (lower corner {lo}) is not a box cell")
    return tuple(int(c) for c in cell), tuple(orient)


def read_elem_cells(mesh_path, box):
    """Placement (cell, orientation) of each element of a HOPR mesh file, in file order."""
    import h5py

    with h5py.File(mesh_path, "r") as f:
        X = np.asarray(f["NodeCoords"][...])
        ngeo = int(np.asarray(f.attrs["Ngeo"]).ravel()[0])
        n_elems = int(np.asarray(f.attrs["nElems"]).ravel()[0])
    ng = ngeo + 1
    X = X.reshape(n_elems, ng, ng, ng, 3)  # [elem, k, j, i, xyz]
    cells = [elem_placement(X[e], box, f"element {e + 1} of {mesh_path}") for e in range(n_elems)]
    if len(set(c for c, _ in cells)) != len(cells):
        raise SystemExit(f"dgsem_oracle.py: {mesh_path} has two elements in the same box cell")
    return cells


def compare(box, U, path, state, cells):
    """max |U_hexdg - U_oracle| per variable, and relative to max |U_oracle|."""
    Uh = state
    if Uh.shape != (len(cells), box.n, box.n, box.n, N_VAR):
        raise SystemExit(f"dgsem_oracle.py: {path}: DG_Solution has shape {Uh.shape}, expected "
                         f"({len(cells)}, {box.n}, {box.n}, {box.n}, {N_VAR})")
    Uo = np.stack([box.elem_block(U, cell, orient) for cell, orient in cells])
    diff = np.abs(Uh - Uo).reshape(-1, N_VAR).max(axis=0)
    scale = np.abs(Uo).reshape(-1, N_VAR).max(axis=0)
    return diff, float(np.max(diff / scale))


# ---------------------------------------------------------------------------------------------
# time stepping


def next_analysis_time(t, analyze_dt, tend):
    ta = t + analyze_dt if analyze_dt > 0.0 else tend
    return ta if ta < tend - 1e-12 * abs(tend) else tend


def rk_step(box, U, t, dt):
    """One carpenterrk4-5 step; returns the new state and the first non-admissible stage (or -1)."""
    k = np.zeros_like(U)
    bad_stage = -1
    for s in range(5):
        k = RK_A[s] * k + dt * box.time_derivative(U, t + RK_C[s] * dt)
        U = U + RK_B[s] * k
        if bad_stage < 0 and s < 4 and not admissible(U):
            bad_stage = s
    return U, bad_stage


def format_row(label, values):
    return f"  {label:<5}: " + " ".join(f"{v:.10e}" for v in values)


def read_norms(path):
    """hexdg's <ProjectName>_ErrorNorms.csv: time -> (L2[5], Linf[5])."""
    rows = np.atleast_1d(np.genfromtxt(path, delimiter=",", names=True))
    names = rows.dtype.names
    l2 = [n for n in names if n.startswith("L2_")]
    linf = [n for n in names if n.startswith("Linf_")]
    if len(l2) != N_VAR or len(linf) != N_VAR:
        raise SystemExit(f"dgsem_oracle.py: {path}: expected {N_VAR} L2_ and Linf_ columns")
    return {float(r["time"]): (np.array([r[n] for n in l2]), np.array([r[n] for n in linf]))
            for r in rows}


class Outcome:
    """What a run found: largest state difference, norm difference, compared times, blow-up."""

    def __init__(self):
        self.worst = 0.0
        self.worst_norm = 0.0
        self.compared = set()
        self.norm_times = 0
        self.t_bad = None


def run(args, box, targets, norms):
    """Time loop; prints the analysis rows and compares with hexdg's states and norms."""
    N = args.N
    factor = args.cfl * CFL_ALPHA_LGL[N - 1] / (2.0 * N + 1.0) * 2.0
    U = mms_state(box.x, 0.0, args.adv_vel)
    t, it, first_bad_stage = 0.0, 0, None
    out = Outcome()
    t_ana = next_analysis_time(t, args.analyze_dt, args.tend)
    same_time = lambda a, b: abs(a - b) <= 1e-12 * max(1.0, abs(b))

    def compare_states(U, t):
        for path, (state, t_file, cells) in targets.items():
            if same_time(t_file, t):
                diff, rel = compare(box, U, path, state, cells)
                out.worst = max(out.worst, rel)
                print(f"  compare {path}: max |U_hexdg - U_oracle| = "
                      + " ".join(f"{v:.3e}" for v in diff) + f"  (relative {rel:.3e})")
                out.compared.add(path)

    def analyse(U, t, dt):
        l2, linf = box.error_norms(U, t)
        print(f"t = {t:.9e}  dt = {dt:.6e}  iter {it}")
        print(format_row("L2", l2))
        print(format_row("Linf", linf))
        compare_states(U, t)
        for t_row, (l2_h, linf_h) in norms.items():
            if same_time(t_row, t):
                rel = float(max(np.max(np.abs(l2_h - l2) / np.maximum(l2, 1e-300)),
                                np.max(np.abs(linf_h - linf) / np.maximum(linf, 1e-300))))
                out.worst_norm = max(out.worst_norm, rel)
                out.norm_times += 1
                print(f"  hexdg's L2/Linf at this time: largest relative difference {rel:.3e}")

    analyse(U, t, 0.0)
    while t < args.tend:
        lam = box.max_lambda(U)
        if lam is None:
            rho, _, p = primitive(U)
            print(f"non-admissible state (rho <= 0, p <= 0 or NaN) at t = {t:.9g} after {it} "
                  f"steps (the step from the previous time produced it): min rho "
                  f"{np.nanmin(rho):.4e}, min p {np.nanmin(p):.4e}")
            if first_bad_stage:
                print(f"  first non-admissible stage state: {first_bad_stage}")
            compare_states(U, t)  # hexdg writes the non-admissible state too
            out.t_bad = t
            return out
        dt = factor / lam
        land = t_ana - t <= dt * (1.0 + 1e-9)
        if land:
            dt = t_ana - t
        try:
            U, bad = rk_step(box, U, t, dt)
        except RuntimeError as err:  # the upwind flux met a face it does not hold for
            print(f"stopped in the step from t = {t:.9g}: {err}")
            out.t_bad = t
            return out
        if bad >= 0 and first_bad_stage is None:
            first_bad_stage = f"stage {bad + 1} of the step from t = {t:.9g} (dt = {dt:.6e})"
        t = t_ana if land else t + dt
        it += 1
        if land:
            analyse(U, t, dt)
            t_ana = next_analysis_time(t, args.analyze_dt, args.tend)
    if first_bad_stage:
        print(f"note: a stage state was non-admissible: {first_bad_stage}")
    return out


def parse_elems(text):
    parts = [int(p) for p in text.replace("(/", "").replace("/)", "").split(",")]
    return tuple(parts * 3) if len(parts) == 1 else tuple(parts)


def main():
    global AMPLITUDE
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--N", type=int, default=2, help="polynomial degree (1..15)")
    ap.add_argument("--elems", default="2", help="elements per direction: K or nx,ny,nz")
    ap.add_argument("--lower", type=float, default=-1.0, help="box lower corner (every direction)")
    ap.add_argument("--upper", type=float, default=1.0, help="box upper corner (every direction)")
    ap.add_argument("--riemann", choices=["lf", "roe", "upwind"], default="roe")
    ap.add_argument("--lf-speed", choices=["flexi", "pairwise"], default="flexi",
                    help="LF's lambda: max|u_n| + max c (FLEXI) or max(|u_n| + c)")
    ap.add_argument("--cfl", type=float, default=0.25, help="CFLscale")
    ap.add_argument("--tend", type=float, default=1.0)
    ap.add_argument("--analyze-dt", type=float, default=0.0,
                    help="hexdg's Analyze_dt: analysis (and landing) times; 0: tend only")
    ap.add_argument("--adv-vel", type=float, default=0.3, help="AdvVel(1): a = 2 pi AdvVel(1)")
    ap.add_argument("--amplitude", type=float, default=AMPLITUDE,
                    help="A of the manufactured solution (hexdg's IniAmplitude)")
    ap.add_argument("--compare", action="append", default=[], metavar="STATE.h5",
                    help="hexdg state file to compare with at its time (repeatable)")
    ap.add_argument("--mesh", help="HOPR mesh file of the hexdg run (element placement)")
    ap.add_argument("--tol", type=float, help="fail (exit 1) above this relative difference")
    ap.add_argument("--norms", metavar="ERRORNORMS.csv",
                    help="hexdg's <ProjectName>_ErrorNorms.csv: compare L2 and Linf at the "
                         "analysis times")
    ap.add_argument("--norms-tol", type=float, default=1e-9,
                    help="fail above this relative L2/Linf difference (the CSV has 11 digits)")
    args = ap.parse_args()
    if not 1 <= args.N <= 15:
        ap.error("--N must be in 1..15")
    elems = parse_elems(args.elems)
    AMPLITUDE = args.amplitude
    box = Box(args.N, elems, [args.lower] * 3, [args.upper] * 3, args.riemann,
              args.lf_speed == "pairwise", args.adv_vel)
    targets = {}
    for path in args.compare:
        state, t_file, mesh, node = read_state(path)
        if node != "GAUSS-LOBATTO":
            raise SystemExit(f"dgsem_oracle.py: {path} has NodeType {node}; the oracle is LGL only")
        mesh_path = args.mesh
        if not mesh_path:
            cand = os.path.join(os.path.dirname(path), mesh)
            if mesh.endswith(".h5") and os.path.exists(cand):
                mesh_path = cand
            else:
                raise SystemExit(f"dgsem_oracle.py: {path} was run on MeshFile = {mesh}; give "
                                 f"--mesh (hexdg mesh box --elems ... -o box_mesh.h5 writes the "
                                 f"built-in box with the same element order)")
        targets[path] = (state, t_file, read_elem_cells(mesh_path, box))
    norms = read_norms(args.norms) if args.norms else {}
    print(f"oracle: N = {args.N} LGL weak form, {elems} elements, riemann {args.riemann}"
          f"{' (' + args.lf_speed + ')' if args.riemann == 'lf' else ''}, CFLscale {args.cfl}, "
          f"alpha {CFL_ALPHA_LGL[args.N - 1]}, tend {args.tend}, Analyze_dt {args.analyze_dt}")
    with np.errstate(invalid="ignore"):  # a non-admissible state is reported, not warned about
        out = run(args, box, targets, norms)
    if args.riemann != "lf":
        print(f"faces: {box.stats.faces} face-node fluxes, smallest eigenvalue u_n - c seen "
              f"{box.stats.min_lambda:.4f}, entropy fix active {box.stats.fix_active} times"
              + (f" (first at stage time {box.stats.fix_times[0]:.9g})" if box.stats.fix_times
                 else ""))
    missing = [p for p in targets if p not in out.compared]
    for p in missing:
        print(f"compare {p}: time {targets[p][1]:.9g} was not an analysis time of this run")
    if norms and out.norm_times == 0:
        missing.append(args.norms)
        print(f"{args.norms}: no row at an analysis time of this run")
    if out.t_bad is None:
        print(f"reached tend = {args.tend}")
    failed = False
    if args.tol is not None and out.worst > args.tol:
        print(f"FAIL: largest relative state difference {out.worst:.3e} > tol {args.tol:.1e}")
        failed = True
    if norms and out.worst_norm > args.norms_tol:
        print(f"FAIL: largest relative L2/Linf difference {out.worst_norm:.3e} > "
              f"{args.norms_tol:.1e}")
        failed = True
    if missing:
        print("FAIL: a hexdg file was not compared")
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
