#!/usr/bin/env python3
"""Shared-memory wavefronts of the GPU line kernels' slot layouts (src/gpu/lifting_line.cuh).

A warp's 64-bit shared access is served per half-warp; a half-warp takes as many wavefronts as
the largest number of its distinct addresses that share a bank (address mod 16 doubles). This
model counts the wavefronts of one access by every task of a block of 256 threads:
  nodes: consecutive nodes (node phases), or the bank-grouped order of lifting_gauss_kernels.cu;
  lines: consecutive lines of each direction at each step along them (line phases), or grouped;
for slot layouts i + R j + P k (rows of R, planes of P values: padded R = np + 1, P = R np;
unpadded R = np, P = np^2; plane-padded R = np, P > np^2), and the weighted mix of the Gauss
lifting kernel (82 node and 30 line accesses per node and step; with the grouped orders the
node phases 2 and 4 (63 accesses) and the line phase 5 (10) take them).
  python3 tools/line_banks.py
"""


def wavefronts(addrs):
    total = 0
    for h in range(0, len(addrs), 16):
        group = {a for a in addrs[h:h + 16] if a is not None}
        if not group:
            continue
        count = {}
        for a in group:
            count[a % 16] = count.get(a % 16, 0) + 1
        total += max(count.values())
    return total


def bank_groups(ntask, bank, cls, nslots):
    """The kernel's bank_groups: groups of up to 16 tasks of distinct banks, one class each."""
    slots, used = [-1] * nslots, 0
    for c in range(3):
        count, groups = [0] * 16, 0
        for t in range(ntask):
            if cls[t] != c:
                continue
            g = count[bank[t]]
            count[bank[t]] += 1
            groups = max(groups, g + 1)
            if used + 16 * (g + 1) > nslots:
                return None
            slots[used + 16 * g + bank[t]] = t
        used += 16 * groups
    return slots


def model(np_, row, plane):
    n2, n3 = np_ * np_, np_ ** 3
    slot = plane * np_
    epb = 1 if n3 >= 128 else 256 // n3
    nt, lt = epb * n3, epb * 3 * n2
    nslots, lslots = -(-nt // 256) * 256, -(-lt // 256) * 256

    def pad(n):
        return n % np_ + row * (n // np_ % np_) + plane * (n // n2)

    def start(d, line):
        a, b = line % np_, line // np_
        return [(row * a + plane * b, 1), (a + plane * b, row), (a + row * b, plane)][d]

    def node_addr(t):
        return (t // n3) * 16 * slot + pad(t % n3)

    def line_addr(t, i):
        le, r = divmod(t, 3 * n2)
        d, line = divmod(r, n2)
        base, stride = start(d, line)
        return le * 16 * slot + base + d * 5 * slot + i * stride

    def node_wf(order):
        return sum(wavefronts([node_addr(t) if t is not None and t >= 0 else None
                               for t in order[w:w + 32]]) for w in range(0, len(order), 32))

    def line_wf(order):
        return sum(wavefronts([line_addr(t, i) if t is not None and t >= 0 else None
                               for t in order[w:w + 32]])
                   for w in range(0, len(order), 32) for i in range(np_))

    natural_nodes, natural_lines = list(range(nt)), list(range(lt))
    grouped_nodes = bank_groups(nt, [pad(t % n3) % 16 for t in range(nt)], [0] * nt, nslots)
    lb, lc = [], []
    for t in range(lt):
        d, line = divmod(t % (3 * n2), n2)
        lb.append(start(d, line)[0] % 16)
        lc.append(d)
    grouped_lines = bank_groups(lt, lb, lc, lslots)
    nn, ln = node_wf(natural_nodes), line_wf(natural_lines)
    ng = node_wf(grouped_nodes) if grouped_nodes else nn
    lg = line_wf(grouped_lines) if grouped_lines else ln
    return nn, ng, ln, lg, 82 * nn + 30 * ln, 19 * nn + 63 * ng + 20 * ln + 10 * lg


def main():
    print("np | R, P     | nodes natural/grouped | lines natural/grouped | mix natural | mix grouped")
    for np_ in range(2, 9):
        layouts = [(np_ + 1, (np_ + 1) * np_), (np_, np_ * np_)]
        # the best plane padding with unpadded rows (natural order)
        best = min(range(np_ * np_ + 1, np_ * np_ + 3 * np_),
                   key=lambda p: model(np_, np_, p)[4])
        layouts.append((np_, best))
        for row, plane in layouts:
            nn, ng, ln, lg, mn, mg = model(np_, row, plane)
            print(f"{np_:2d} | {row:2d}, {plane:3d}  | {nn:4d} / {ng:4d}           "
                  f"| {ln:4d} / {lg:4d}           | {mn:11d} | {mg:11d}")


if __name__ == "__main__":
    main()
