// tessera/tiled_mma.hpp -- TiledMMA: an atom replicated over threads, and the thread partitions.
//
// A TiledMMA is an MMA atom, an atom layout (how many atoms along M, N, K and which threads run
// each) and a permutation per mode (which M/N/K coordinates one tile of atoms covers). Each
// thread's share of C is derived in five steps (the partition_C derivation), for C of shape (M,N):
//
//   1. logical_divide by the permutation        (M,N) -> ((PermM,RestM),(PermN,RestN))
//   2. zipped_divide by the atom shape          -> ((AtomM,AtomN),(RestM,RestN))
//   3. compose mode 0 with the atom's C TV      -> ((ThrV,FrgV),(RestM,RestN))
//   4. zipped_divide mode 1 by the thread grid  -> ((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN)))
//   5. slice one thread's (v,(m,n))             -> offset, fragment (FrgV,RestM,RestN)
//
// Step 1 (the step 1 kernel, "step1"): UniversalFMA, atoms (16,16,1):(16,1,0), permutation
// (16,4):(4,1) in M and N, C = (128,128):(128,1): every thread's fragment is
// (1,(4,2),(4,2)):(0,(128,8192),(1,64)) at offset 512*(t/16) + 4*(t%16); thread 0 owns rows and
// columns {0..3, 64..67}. A is partitioned the same way over (M,K) with threads (ThrM,ThrK), B over
// (N,K) with (ThrN,ThrK).
#pragma once

#include "atom/mma.hpp"
#include "tensor.hpp"

namespace tessera {

enum class Operand { kC = 0, kA = 1, kB = 2 };

TESSERA_HD constexpr const char* operand_name(Operand op) {
  return op == Operand::kC ? "C" : op == Operand::kA ? "A" : "B";
}

// One step of a partition derivation: what was done and the layout it produced.
struct DerivationStep {
  const char* name = "";
  const char* what = "";
  Layout layout;
};

struct Derivation {
  static constexpr int kSteps = 5;
  DerivationStep step[kSteps];
  View fragment;  // step 5: the thread's offset and fragment layout
};

// A partition of a tensor among threads: thread index -> offset, and the common fragment layout.
struct ThreadPartition {
  Layout thread;
  Layout fragment;
  TESSERA_HD constexpr View operator()(int64_t t) const { return View{thread(t), fragment}; }
};

struct TiledMMA {
  MmaAtom atom;
  Layout thr_vmnk;    // (V,M,N,K) -> thread index
  Layout perm[3];     // the tile of M, N and K (a layout per mode)

  TESSERA_HD constexpr int64_t threads() const { return thr_vmnk.size(); }
  TESSERA_HD constexpr int64_t tile_size(int mode) const { return perm[mode].size(); }

  // The (v, m, n, k) coordinate of a thread in the thread layout.
  TESSERA_HD constexpr IntTuple thread_vmnk(int64_t thread) const {
    if (thread < 0 || thread >= threads()) {
      Text t;
      t << "TiledMMA: thread " << thread << " is outside [0, " << threads() << ")";
      fail(t);
    }
    return thread_coord(thr_vmnk, thread);
  }

  // The two modes an operand spans (C: M,N; A: M,K; B: N,K), as indices 0..2 of M,N,K.
  TESSERA_HD static constexpr int mode0(Operand op) { return op == Operand::kB ? 1 : 0; }
  TESSERA_HD static constexpr int mode1(Operand op) { return op == Operand::kC ? 1 : 2; }

  // Steps 1-4 for an operand tensor layout of rank >= 2, each intermediate recorded in `d`.
  TESSERA_HD constexpr Layout thrfrg(Operand op, Layout const& t, Derivation* d = nullptr) const {
    if (t.rank() < 2) {
      Text m;
      m << "partition_" << operand_name(op) << ": the tensor " << t << " needs rank >= 2";
      fail(m);
    }
    int i0 = mode0(op), i1 = mode1(op);
    int64_t atom_mnk[3] = {atom.m, atom.n, atom.k};
    Layout const& tv = op == Operand::kC ? atom.c_tv : op == Operand::kA ? atom.a_tv : atom.b_tv;

    Layout permuted = logical_divide(t, make_tile(perm[i0], perm[i1]));
    Layout atoms = zipped_divide(permuted, make_tile(Layout(atom_mnk[i0]), Layout(atom_mnk[i1])));
    Layout thr_val = make_layout(composition(atoms[0], tv), atoms[1]);
    Layout threads = zipped_divide(thr_val[1], make_tile(Layout(thr_vmnk[1 + i0].size()),
                                                          Layout(thr_vmnk[1 + i1].size())));
    Layout result = make_layout(make_layout(thr_val[0][0], threads[0]),
                                make_layout(thr_val[0][1], threads[1]));
    if (d) {
      // Mode names per operand: C spans (M,N), A (M,K), B (N,K).
      int o = int(op);
      const char* split[3] = {"split M and N by the permutation: ((PermM,RestM),(PermN,RestN))",
                              "split M and K by the permutation: ((PermM,RestM),(PermK,RestK))",
                              "split N and K by the permutation: ((PermN,RestN),(PermK,RestK))"};
      const char* group[3] = {"group one atom's elements: ((AtomM,AtomN),(RestM,RestN))",
                              "group one atom's elements: ((AtomM,AtomK),(RestM,RestK))",
                              "group one atom's elements: ((AtomN,AtomK),(RestN,RestK))"};
      const char* thr[3] = {
          "split the rest over the threads: ((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN)))",
          "split the rest over the threads: ((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK)))",
          "split the rest over the threads: ((ThrV,(ThrN,ThrK)),(FrgV,(RestN,RestK)))"};
      d->step[0] = {"logical_divide", split[o], permuted};
      d->step[1] = {"zipped_divide", group[o], atoms};
      d->step[2] = {"compose", "relabel the atom's elements as (thread, value): ((ThrV,FrgV),Rest)",
                    thr_val};
      d->step[3] = {"zipped_divide", thr[o], result};
    }
    return result;
  }

  // Step 5: a thread's offset and fragment (FrgV, RestM, RestN, ...) from the thrfrg layout.
  // In device code make `r` a static constexpr and only this cheap slice runs per thread.
  TESSERA_HD constexpr View slice(Operand op, Layout const& r, int64_t thread) const {
    IntTuple c = thread_vmnk(thread);
    int64_t offset = r[0](make_tuple(c[0], make_tuple(c[1 + mode0(op)], c[1 + mode1(op)])));
    LayoutBuilder frag;
    frag.add(r[1][0]);
    Layout rest = r[1][1];
    for (int i = 0; i < rest.rank(); ++i) frag.add(rest[i]);
    return View{offset, frag.get()};
  }

  // The same partition as two layouts, for kernels: `thread` maps a thread index to its offset and
  // `fragment` is every thread's fragment. thread = (ThrV,ThrM,ThrN,ThrK)-part of thrfrg composed
  // with right_inverse(thr_vmnk) (thread index -> its (v,m,n,k) index); the mode the operand does
  // not span gets stride 0. Bind the result to a static constexpr and a thread's partition is one
  // layout evaluation: offset = P.thread(threadIdx.x).
  TESSERA_HD constexpr ThreadPartition partitioner(Operand op, Layout const& t) const {
    Layout r = thrfrg(op, t);
    LayoutBuilder thr;  // (V,M,N,K), congruent in size to thr_vmnk
    thr.add(r[0][0]);
    for (int i = 0; i < 3; ++i) {
      if (i == mode0(op)) thr.add(r[0][1][0]);
      else if (i == mode1(op)) thr.add(r[0][1][1]);
      else thr.add(Layout(thr_vmnk[1 + i].size(), 0));
    }
    return ThreadPartition{composition(thr.get(), right_inverse(thr_vmnk)), slice(op, r, 0).layout};
  }

  // Steps 1-5: thread `thread`'s share of a tensor layout.
  TESSERA_HD constexpr View partition(Operand op, Layout const& t, int64_t thread,
                                      Derivation* d = nullptr) const {
    View v = slice(op, thrfrg(op, t, d), thread);
    if (d) {
      d->step[4] = {"slice",
                    "keep this thread's coordinate in the thread mode: offset + (FrgV,Rest...)",
                    v.layout};
      d->fragment = v;
    }
    return v;
  }
  TESSERA_HD constexpr View partition_C(Layout const& c, int64_t thread) const {
    return partition(Operand::kC, c, thread);
  }
  TESSERA_HD constexpr View partition_A(Layout const& a, int64_t thread) const {
    return partition(Operand::kA, a, thread);
  }
  TESSERA_HD constexpr View partition_B(Layout const& b, int64_t thread) const {
    return partition(Operand::kB, b, thread);
  }

  // The five steps for one thread, every intermediate layout included.
  TESSERA_HD constexpr Derivation explain(Operand op, Layout const& t, int64_t thread) const {
    Derivation d;
    partition(op, t, thread, &d);
    return d;
  }
};

// make_tiled_mma(atom, atom layout over (M,N,K), permutation per mode).
// The thread layout is tiled_product(atom threads, atom layout): (V,M,N,K) -> thread.
// A permutation entry `_` (or no permutation) means the plain tile atom_size * atoms in that mode.
TESSERA_HD constexpr TiledMMA make_tiled_mma(MmaAtom const& atom, Layout const& atom_layout,
                                             Tiler const& permutation = Tiler()) {
  if (atom_layout.rank() > 3) {
    Text t;
    t << "make_tiled_mma: the atom layout " << atom_layout << " has more than 3 modes (M,N,K)";
    fail(t);
  }
  TiledMMA r;
  r.atom = atom;
  Layout mnk = detail::append_to_rank(atom_layout, 3);
  r.thr_vmnk = tiled_product(atom.thr_id, Tiler(mnk));
  int64_t atom_mnk[3] = {atom.m, atom.n, atom.k};
  for (int i = 0; i < 3; ++i) {
    bool given = permutation.by_mode && i < permutation.n && !permutation.keep[i];
    r.perm[i] = given ? permutation.mode[i] : Layout(atom_mnk[i] * r.thr_vmnk[1 + i].size());
  }
  return r;
}

// The seeds' two configurations.
namespace presets {
// The step 1 kernel: scalar FMA, 256 threads as 16x16, permutation (16,4):(4,1), tile 128x128x8.
TESSERA_HD constexpr TiledMMA step1() {
  return make_tiled_mma(atom::universal_fma(), parse_layout("(16,16,1):(16,1,0)"),
                        make_tile(parse_layout("(16,4):(4,1)"), parse_layout("(16,4):(4,1)"), _));
}
// The step 4 kernel: mma.sync m16n8k16, atoms (2,2,1), permutation (32,32,16), tile 128x128x32.
TESSERA_HD constexpr TiledMMA step4() {
  return make_tiled_mma(atom::sm80_16x8x16_f32f16(), parse_layout("(2,2,1):(1,2,0)"),
                        make_tile(Layout(32), Layout(32), Layout(16)));
}
}  // namespace presets

}  // namespace tessera
