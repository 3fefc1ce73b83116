// tessera/int_tuple.hpp -- nested integer tuples.
//
// An IntTuple is an integer or a tuple of IntTuples: 4, (4), (2,(3,4)). The one-element tuple (4)
// is distinct from the integer 4, as in CuTe. It is stored as its nodes in preorder:
//
//   (2,(3,4))  ->  node:   0     1    2     3    4
//                  tuple:  yes   no   yes   no   no
//                  value:  2     2    2     3    4      (a tuple node's value is its child count)
//
// so a subtree is a contiguous range of nodes and every algorithm is a loop over that array.
//
// Each leaf is a static or a run-time integer, as CuTe's Int<4> and int: `dyn` marks the run-time
// leaves. The mark decides nothing about values; CuTe's algorithms merge and drop modes only where
// the integers involved are static, so the algebra carries it (see Int below) and the CuTe form of
// the notation prints it: a static 4 as _4, a run-time 4 as 4. `==` compares values and structure;
// same_kinds also compares the marks.
//
// Coordinates are colexicographic: the leftmost mode varies fastest. For shape (3,(2,4)) the
// integer 7 is the coordinate (1,(0,1)) because 7 = 1 + 3*(0 + 2*1).
#pragma once

#include "config.hpp"

namespace tessera {

struct IntTuple {
  int n = 0;                    // nodes in use
  int64_t v[kMaxNodes] = {};    // leaf value, or the child count of a tuple node
  bool tup[kMaxNodes] = {};     // true for a tuple node
  bool dyn[kMaxNodes] = {};     // true for a run-time leaf (false: static, and for tuple nodes)

  TESSERA_HD constexpr IntTuple() : n(1) {}  // the integer 0
  TESSERA_HD constexpr IntTuple(int64_t x) : n(1) { v[0] = x; }
  TESSERA_HD constexpr IntTuple(int x) : IntTuple(int64_t(x)) {}
  // A run-time integer: runtime(4) prints as 4 in CuTe's form, IntTuple(4) as _4.
  TESSERA_HD static constexpr IntTuple runtime(int64_t x) {
    IntTuple r(x);
    r.dyn[0] = true;
    return r;
  }

  TESSERA_HD constexpr bool is_int() const { return !tup[0]; }
  TESSERA_HD constexpr bool is_tuple() const { return tup[0]; }
  // The value of an integer (a leaf).
  TESSERA_HD constexpr int64_t value() const { return v[0]; }
  // Number of top-level modes; an integer has rank 1.
  TESSERA_HD constexpr int rank() const { return tup[0] ? int(v[0]) : 1; }

  // One past the last node of the subtree starting at node `i`.
  TESSERA_HD constexpr int subtree_end(int i) const {
    int pending = 1;
    while (pending > 0) {
      --pending;
      if (tup[i]) pending += int(v[i]);
      ++i;
    }
    return i;
  }
  // First node of child `k` of the tuple node at `i`.
  TESSERA_HD constexpr int child_node(int i, int k) const {
    int c = i + 1;
    for (int j = 0; j < k; ++j) c = subtree_end(c);
    return c;
  }
  // The subtree starting at node `i`, as its own tuple.
  TESSERA_HD constexpr IntTuple subtree(int i) const {
    IntTuple r;
    int e = subtree_end(i);
    r.n = e - i;
    for (int k = i; k < e; ++k) {
      r.v[k - i] = v[k];
      r.tup[k - i] = tup[k];
      r.dyn[k - i] = dyn[k];
    }
    return r;
  }
  // Mode `k`; an integer's only mode is itself (as in CuTe's get<0>(int)).
  TESSERA_HD constexpr IntTuple operator[](int k) const {
    if (!tup[0]) {
      if (k != 0) fail("get: mode index out of range for an integer");
      return *this;
    }
    if (k < 0 || k >= v[0]) {
      Text t;
      t << "get: mode " << k << " out of range for a tuple of rank " << int(v[0]);
      fail(t);
    }
    return subtree(child_node(0, k));
  }

  TESSERA_HD constexpr int leaf_count() const {
    int c = 0;
    for (int i = 0; i < n; ++i) c += !tup[i];
    return c;
  }

  TESSERA_HD constexpr bool operator==(IntTuple const& o) const {
    if (n != o.n) return false;
    for (int i = 0; i < n; ++i)
      if (v[i] != o.v[i] || tup[i] != o.tup[i]) return false;
    return true;
  }
};

// One integer with its kind: the working value of the algorithms that carry marks. A result is
// run-time when an operand is, except where CuTe's integer arithmetic stays static: a static 0
// times anything is a static 0, and so is a static 0 divided by anything.
//   Int{4} * Int{8,true} = 32 (run-time)      Int{0} * Int{8,true} = 0 (static)
struct Int {
  int64_t v = 0;
  bool dyn = false;
  TESSERA_HD constexpr bool is_static(int64_t x) const { return !dyn && v == x; }
};
TESSERA_HD constexpr Int operator*(Int a, Int b) {
  return {checked_mul(a.v, b.v), a.is_static(0) || b.is_static(0) ? false : a.dyn || b.dyn};
}
TESSERA_HD constexpr Int operator/(Int a, Int b) {
  return {a.v / b.v, a.is_static(0) ? false : a.dyn || b.dyn};
}
TESSERA_HD constexpr Int ceil_div(Int a, Int b) { return {ceil_div(a.v, b.v), a.dyn || b.dyn}; }
TESSERA_HD constexpr Int min(Int a, Int b) { return {min64(a.v, b.v), a.dyn || b.dyn}; }
// Leaf i of a tuple as an Int.
TESSERA_HD constexpr Int leaf(IntTuple const& t, int i) { return {t.v[i], t.dyn[i]}; }
TESSERA_HD constexpr IntTuple to_tuple(Int x) {
  return x.dyn ? IntTuple::runtime(x.v) : IntTuple(x.v);
}

// Builds a tuple from modes, appended one at a time: TupleBuilder b; b.add(x); b.add(y); b.get().
struct TupleBuilder {
  IntTuple t;
  TESSERA_HD constexpr TupleBuilder() {
    t.n = 1;
    t.tup[0] = true;
    t.v[0] = 0;
  }
  TESSERA_HD constexpr TupleBuilder& add(IntTuple const& x) {
    if (t.n + x.n > kMaxNodes) {
      Text m;
      m << "capacity: an integer tuple may hold at most " << kMaxNodes << " nodes";
      fail(m);
    }
    for (int i = 0; i < x.n; ++i) {
      t.v[t.n + i] = x.v[i];
      t.tup[t.n + i] = x.tup[i];
      t.dyn[t.n + i] = x.dyn[i];
    }
    t.n += x.n;
    t.v[0] += 1;
    return *this;
  }
  TESSERA_HD constexpr int size() const { return int(t.v[0]); }
  TESSERA_HD constexpr IntTuple const& get() const { return t; }
};

// make_tuple(a, b, ...) -> (a,b,...)
template <class... Ts>
TESSERA_HD constexpr IntTuple make_tuple(Ts const&... xs) {
  TupleBuilder b;
  (b.add(IntTuple(xs)), ...);
  return b.get();
}

// The leaves in order: flatten((2,(3,4))) = (2,3,4); an integer stays an integer.
TESSERA_HD constexpr IntTuple flatten(IntTuple const& a) {
  if (a.is_int()) return a;
  TupleBuilder b;
  for (int i = 0; i < a.n; ++i)
    if (!a.tup[i]) b.add(a.subtree(i));
  return b.get();
}

// Product of all leaves: size((2,(3,4))) = 24.
TESSERA_HD constexpr int64_t product(IntTuple const& a) {
  int64_t p = 1;
  for (int i = 0; i < a.n; ++i)
    if (!a.tup[i]) p = checked_mul(p, a.v[i]);
  return p;
}

// Sum of all leaves.
TESSERA_HD constexpr int64_t sum(IntTuple const& a) {
  int64_t s = 0;
  for (int i = 0; i < a.n; ++i)
    if (!a.tup[i]) s = checked_add(s, a.v[i]);
  return s;
}

// True when some leaf is a run-time integer (CuTe: the product of the leaves is run-time).
TESSERA_HD constexpr bool any_runtime(IntTuple const& a) {
  for (int i = 0; i < a.n; ++i)
    if (a.dyn[i]) return true;
  return false;
}

// Every leaf marked run-time (or static): a tuple as CuTe's make_shape(4, 2) or Shape<_4,_2>.
TESSERA_HD constexpr IntTuple with_kind(IntTuple a, bool runtime) {
  for (int i = 0; i < a.n; ++i) a.dyn[i] = runtime && !a.tup[i];
  return a;
}

// Same values, structure and marks.
TESSERA_HD constexpr bool same_kinds(IntTuple const& a, IntTuple const& b) {
  if (!(a == b)) return false;
  for (int i = 0; i < a.n; ++i)
    if (a.dyn[i] != b.dyn[i]) return false;
  return true;
}

// Nesting depth: depth(4) = 0, depth((4,2)) = 1, depth(((2,2),4)) = 2.
TESSERA_HD constexpr int depth(IntTuple const& a) {
  int open[kMaxNodes] = {};  // children still to visit, per open tuple
  int level = 0, deepest = 0;
  for (int i = 0; i < a.n; ++i) {
    while (level > 0 && open[level - 1] == 0) --level;
    if (level > 0) --open[level - 1];
    if (a.tup[i]) {
      open[level++] = int(a.v[i]);
      deepest = level > deepest ? level : deepest;
    }
  }
  return deepest;
}

// Same tree structure (profile), leaf values ignored.
TESSERA_HD constexpr bool congruent(IntTuple const& a, IntTuple const& b) {
  if (a.n != b.n) return false;
  for (int i = 0; i < a.n; ++i) {
    if (a.tup[i] != b.tup[i]) return false;
    if (a.tup[i] && a.v[i] != b.v[i]) return false;
  }
  return true;
}

// Exclusive prefix product, congruent to `shape`: compact column-major strides.
// prefix_product((2,(3,4))) = (1,(2,6)).
// A run-time extent makes every later stride run-time, as CuTe's products.
TESSERA_HD constexpr IntTuple prefix_product(IntTuple const& shape, int64_t init = 1) {
  IntTuple r = shape;
  int64_t p = init;
  bool runtime = false;
  for (int i = 0; i < r.n; ++i) {
    if (!r.tup[i]) {
      r.v[i] = p;
      r.dyn[i] = runtime;
      p = checked_mul(p, shape.v[i]);
      runtime |= shape.dyn[i];
    }
  }
  return r;
}

// Integer index -> natural coordinate in `shape` (colexicographic). Every leaf takes idx modulo its
// extent, as CuTe's idx2crd does: idx2crd(8, (4,(1,6))) = (0,(0,2)).
TESSERA_HD constexpr IntTuple idx2crd(int64_t idx, IntTuple const& shape) {
  IntTuple r = shape;
  for (int i = 0; i < r.n; ++i) {
    if (!r.tup[i]) {
      int64_t s = shape.v[i];
      r.v[i] = s == 0 ? 0 : idx % s;
      idx = s == 0 ? 0 : idx / s;
    }
  }
  return r;
}

// Element-wise a < b on congruent tuples (every leaf): used for bounds predicates.
TESSERA_HD constexpr bool elem_less(IntTuple const& a, IntTuple const& b) {
  if (!congruent(a, b)) fail("elem_less: operands are not congruent");
  for (int i = 0; i < a.n; ++i)
    if (!a.tup[i] && !(a.v[i] < b.v[i])) return false;
  return true;
}

// Writes CuTe notation: 4, (4), (2,(3,4)) -- no spaces. With `marks`, CuTe's own print: a static
// leaf as _4, a run-time one as 4: ((_2,_2),4,(_2,4)).
TESSERA_HD constexpr Text& write(Text& out, IntTuple const& a, bool marks) {
  int open[kMaxNodes] = {};  // children still to write, per open tuple
  int level = 0;
  for (int i = 0; i < a.n; ++i) {
    if (a.tup[i] && a.v[i] > 0) {
      out << '(';
      open[level++] = int(a.v[i]);
      continue;
    }
    if (a.tup[i]) out << "()";
    else if (marks && !a.dyn[i]) out << '_' << a.v[i];
    else out << a.v[i];
    // Node i is complete: write a comma before its next sibling, or close its parent(s).
    while (level > 0) {
      if (--open[level - 1] > 0) {
        out << ',';
        break;
      }
      out << ')';
      --level;
    }
  }
  return out;
}
TESSERA_HD constexpr Text& operator<<(Text& out, IntTuple const& a) { return write(out, a, false); }

// CuTe's printed form of a value (IntTuple, Layout): out << cute_form(x) writes
// ((_2,_2),4):((_1,8),64).
template <class T>
struct CuteForm {
  T const& x;
};
template <class T>
TESSERA_HD constexpr CuteForm<T> cute_form(T const& x) {
  return CuteForm<T>{x};
}
TESSERA_HD constexpr Text& operator<<(Text& out, CuteForm<IntTuple> f) {
  return write(out, f.x, true);
}

}  // namespace tessera
