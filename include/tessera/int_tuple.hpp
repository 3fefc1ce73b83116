// tessera/int_tuple.hpp -- nested integer tuples.
//
// An IntTuple is an integer or a tuple of IntTuples: 4, (4), (2,(3,4)). The one-element tuple (4) is
// distinct from the integer 4, as in CuTe. It is stored as its nodes in preorder:
//
//   (2,(3,4))  ->  node:   0     1    2     3    4
//                  tuple:  yes   no   yes   no   no
//                  value:  2     2    2     3    4      (a tuple node's value is its child count)
//
// so a subtree is a contiguous range of nodes and every algorithm is a loop over that array.
//
// Coordinates are colexicographic: the leftmost mode varies fastest. For shape (3,(2,4)) the integer
// 7 is the coordinate (1,(0,1)) because 7 = 1 + 3*(0 + 2*1).
#pragma once

#include "config.hpp"

namespace tessera {

struct IntTuple {
  int n = 0;                    // nodes in use
  int64_t v[kMaxNodes] = {};    // leaf value, or the child count of a tuple node
  bool tup[kMaxNodes] = {};     // true for a tuple node

  TESSERA_HD constexpr IntTuple() : n(1) {}  // the integer 0
  TESSERA_HD constexpr IntTuple(int64_t x) : n(1) { v[0] = x; }
  TESSERA_HD constexpr IntTuple(int x) : IntTuple(int64_t(x)) {}

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
    if (!a.tup[i]) b.add(IntTuple(a.v[i]));
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

// A tuple with the structure of `like` and every leaf set to `x`.
TESSERA_HD constexpr IntTuple repeat_like(IntTuple const& like, int64_t x) {
  IntTuple r = like;
  for (int i = 0; i < r.n; ++i)
    if (!r.tup[i]) r.v[i] = x;
  return r;
}

// Exclusive prefix product, congruent to `shape`: compact column-major strides.
// prefix_product((2,(3,4))) = (1,(2,6)).
TESSERA_HD constexpr IntTuple prefix_product(IntTuple const& shape, int64_t init = 1) {
  IntTuple r = shape;
  int64_t p = init;
  for (int i = 0; i < r.n; ++i) {
    if (!r.tup[i]) {
      r.v[i] = p;
      p = checked_mul(p, shape.v[i]);
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

// Writes CuTe notation: 4, (4), (2,(3,4)) -- no spaces.
TESSERA_HD constexpr Text& operator<<(Text& out, IntTuple const& a) {
  int open[kMaxNodes] = {};  // children still to write, per open tuple
  int level = 0;
  for (int i = 0; i < a.n; ++i) {
    if (a.tup[i] && a.v[i] > 0) {
      out << '(';
      open[level++] = int(a.v[i]);
      continue;
    }
    if (a.tup[i]) out << "()";
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

}  // namespace tessera
