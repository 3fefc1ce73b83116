// The algebra verbs: batch, one verb per op, show and demo.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "batch.hpp"
#include "mma_cli.hpp"
#include "ops.hpp"
#include "verbs.hpp"

namespace tessera::tools {
namespace {

using nlohmann::json;

int run_batch() {
  std::ios::sync_with_stdio(false);
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::cout << batch_answer(line).dump() << '\n';
  }
  std::cout.flush();
  return std::cin.bad() ? 2 : 0;
}

// Sw<B,M,S> as a table of the units it moves: the low M bits pass through, so it permutes units of
// 2^M elements; unit u = row * 2^|S| + column goes to the unit printed in its cell.
void print_swizzle(Swizzle const& sw) {
  if (sw.bits == 0) {
    std::printf("\nSw<0,%d,%d> is the identity\n", sw.base, sw.shift);
    return;
  }
  int from = sw.base + std::max(0, sw.shift), to = sw.base - std::min(0, sw.shift);
  int64_t unit = int64_t(1) << sw.base, cols = int64_t(1) << std::abs(sw.shift),
          rows = int64_t(1) << sw.bits;
  std::printf(
      "\nx -> x XOR bits [%d,%d) of x moved to bits [%d,%d); units of %lld element%s (the low %d "
      "bits pass "
      "through);\nunit u = row * %lld + column goes to unit:\n",
      from, from + sw.bits, to, to + sw.bits, (long long)unit, unit == 1 ? "" : "s", sw.base,
      (long long)cols);
  print_grid(rows, cols, 1, [&](int64_t r, int64_t c) -> std::optional<int64_t> {
    return sw(((r * cols) + c) << sw.base) >> sw.base;
  });
}

struct OpFlags {
  bool as_json = false;
  bool runtime = false;  // bare integers are run-time (CuTe's int)
  bool cute = false;     // print CuTe's form: static _4, run-time 4
};

// One op on the command line: its words read as the op's argument kinds, the result printed as
// notation (or JSON) and, where it is a layout or a swizzle, as its table.
int run_op_verb(OpSpec const& op, std::vector<std::string> const& words, OpFlags const& f) {
  std::vector<Arg> args = read_args(op, words, ReadOptions{f.runtime});
  OpResult r = run_op(op, args);
  if (f.cute) r.result = r.cute;
  if (f.as_json) {
    json out = {{"result", r.result}, {"image", r.image ? json(*r.image) : json()}};
    if (!r.note.empty()) out["note"] = r.note;
    std::cout << out.dump() << '\n';
    return 0;
  }
  if (!r.note.empty()) std::fprintf(stderr, "tessera: note: %s\n", r.note.c_str());
  std::cout << r.result << '\n';
  std::cout.flush();
  if (auto const* sw = std::get_if<Swizzle>(&r.value)) print_swizzle(*sw);
  if (auto l = layout_of(r.value)) print_table(*l);
  return 0;
}

// CuTe's print of a layout or a swizzled layout: static _4, run-time 4; Sw<3,4,3> o _0 o L.
std::string cute_text(SwizzledLayout const& l, bool swizzled) {
  if (!swizzled) return to_cute_string(l.layout);
  return to_string(l.swizzle) + " o _" + std::to_string(l.offset) + " o " +
         to_cute_string(l.layout);
}

// show: the layout (as notation, or CuTe's print with --cute), its size and cosize, and its index
// table; --json every value.
int run_show(std::string const& text, OpFlags const& f) {
  const bool swizzled = is_swizzled(text);
  SwizzledLayout l = swizzled ? parse_swizzled_layout(text, f.runtime)
                              : SwizzledLayout{Swizzle(), 0, layout_arg(text, f.runtime)};
  const std::string shown = f.cute     ? cute_text(l, swizzled)
                            : swizzled ? to_string(l)
                                       : to_string(l.layout);
  if (f.as_json) {
    nlohmann::json values = nlohmann::json::array();
    for (int64_t i = 0; i < l.size(); ++i) values.push_back(l(i));
    std::cout << nlohmann::json{{"layout", shown},
                                {"shape", f.cute ? to_cute_string(l.layout.shape)
                                                 : to_string(l.layout.shape)},
                                {"size", l.size()},
                                {"cosize", l.layout.cosize()},
                                {"values", values}}
              << '\n';
    return 0;
  }
  if (swizzled)
    std::cout << shown << "  size " << l.size() << "  (the plain layout's cosize "
              << l.layout.cosize() << ")\n";
  else
    std::cout << shown << "  size " << l.size() << "  cosize " << l.layout.cosize() << '\n';
  std::cout.flush();
  print_table(l);
  return 0;
}

// The worked examples of the layout algebra tutorial, computed by the library.
int run_demo() {
  using namespace tessera;
  struct Example {
    const char* what;
    std::string value;
  };
  Layout nested = parse_layout("((2,2),(2,2)):((1,4),(2,8))");
  std::vector<Example> examples = {
      {"size of ((2,2),(2,2)):((1,4),(2,8))", std::to_string(nested.size())},
      {"coalesce (2,4):(1,2)", to_string(coalesce(parse_layout("(2,4):(1,2)")))},
      {"6:2 o (3,2):(1,3)",
       to_string(composition(parse_layout("6:2"), parse_layout("(3,2):(1,3)")))},
      {"(4,3):(1,8) o 6:2",
       to_string(composition(parse_layout("(4,3):(1,8)"), parse_layout("6:2")))},
      {"complement(4:1, 12)", to_string(complement(parse_layout("4:1"), 12))},
      {"logical_divide(12:1, 4:1)",
       to_string(logical_divide(parse_layout("12:1"), parse_tiler("4:1")))},
      {"logical_divide((4,6):(1,4), (2,3))",
       to_string(logical_divide(parse_layout("(4,6):(1,4)"), parse_tiler("(2,3)")))},
      {"zipped_divide((4,6):(1,4), (2,3))",
       to_string(zipped_divide(parse_layout("(4,6):(1,4)"), parse_tiler("(2,3)")))},
      {"tiled_divide((4,6):(1,4), (2,3))",
       to_string(tiled_divide(parse_layout("(4,6):(1,4)"), parse_tiler("(2,3)")))},
      {"flat_divide((4,6):(1,4), (2,3))",
       to_string(flat_divide(parse_layout("(4,6):(1,4)"), parse_tiler("(2,3)")))},
      {"logical_product(4:1, 3:1)",
       to_string(logical_product(parse_layout("4:1"), parse_tiler("3:1")))},
      {"logical_product(4:1, 2:1)  [4 threads x 2 values]",
       to_string(logical_product(parse_layout("4:1"), parse_tiler("2:1")))},
      {"blocked_product((2,5):(5,1), (3,4):(1,3))",
       to_string(blocked_product(parse_layout("(2,5):(5,1)"), parse_layout("(3,4):(1,3)")))},
      {"raked_product((2,5):(5,1), (3,4):(1,3))",
       to_string(raked_product(parse_layout("(2,5):(5,1)"), parse_layout("(3,4):(1,3)")))},
  };
  std::printf(
      "Layout algebra by example (coalesce, composition, complement, divides, products), computed "
      "by "
      "tessera\n\n");
  for (auto const& e : examples) std::printf("  %-52s = %s\n", e.what, e.value.c_str());
  std::printf("\nThe 2-D logical divide as a table (rows: mode 0, columns: mode 1):\n");
  print_table(coalesce(logical_divide(parse_layout("(4,6):(1,4)"), parse_tiler("(2,3)")),
                       parse_int_tuple("(1,1)")));
  return 0;
}

}  // namespace

constexpr int64_t kShown = 32;  // rows and columns printed per table; more are counted, not printed

void print_grid(int64_t rows, int64_t cols, int64_t row_step,
                std::function<std::optional<int64_t>(int64_t, int64_t)> const& cell) {
  // Colored cells on a terminal (unless NO_COLOR is set), plain text into pipes and files.
  const bool color = isatty(fileno(stdout)) && !std::getenv("NO_COLOR");
  int64_t shown_rows = std::min(rows, kShown), shown_cols = std::min(cols, kShown);
  int width = int(std::to_string(std::max((shown_rows - 1) * row_step, shown_cols - 1)).size());
  for (int64_t r = 0; r < shown_rows; ++r)
    for (int64_t c = 0; c < shown_cols; ++c)
      if (auto v = cell(r, c)) width = std::max(width, int(std::to_string(*v).size()));
  std::printf("\n%*s", width + 2, "");
  for (int64_t c = 0; c < shown_cols; ++c) std::printf(" %*lld", width, (long long)c);
  std::printf("\n");
  for (int64_t r = 0; r < shown_rows; ++r) {
    std::printf("%*lld |", width + 1, (long long)(r * row_step));
    for (int64_t c = 0; c < shown_cols; ++c) {
      std::optional<int64_t> v = cell(r, c);
      if (!v) break;
      if (color) {  // equal offsets share a color, so repeats and strides stand out
        static const int palette[] = {196, 208, 34, 37, 33, 63, 129, 163, 130, 70, 31, 166};
        std::printf(" \x1b[38;5;%dm%*lld\x1b[0m", palette[((*v % 12) + 12) % 12], width,
                    (long long)*v);
      } else {
        std::printf(" %*lld", width, (long long)*v);
      }
    }
    std::printf("\n");
  }
  if (shown_rows < rows || shown_cols < cols)
    std::printf("  (first %lld of %lld rows and %lld of %lld columns; --json prints every value)\n",
                (long long)shown_rows, (long long)rows, (long long)shown_cols, (long long)cols);
}

// The index table of a layout: rows are mode 0, columns mode 1, one table per index of the modes
// after them (rank 3 and up); a rank-1 layout prints as one row, or rows of 16 when longer.
void print_table(SwizzledLayout const& l) {
  int64_t n = l.size();
  if (l.rank() < 2) {
    if (n <= kShown) {
      print_grid(1, n, 1, [&](int64_t, int64_t c) -> std::optional<int64_t> { return l(c); });
    } else {
      std::printf("\n(%lld values in rows of 16; a row is labelled by its first index)",
                  (long long)n);
      print_grid(ceil_div(n, 16), 16, 16, [&](int64_t r, int64_t c) -> std::optional<int64_t> {
        if (r * 16 + c >= n) return std::nullopt;
        return l(r * 16 + c);
      });
    }
    return;
  }
  int64_t rows = l.layout[0].size(), cols = l.layout[1].size(), slices = n / (rows * cols);
  const int64_t kSlices = 4;
  for (int64_t k = 0; k < std::min(slices, kSlices); ++k) {
    if (slices > 1)
      std::printf(
          "\n(:,:,%lld)%s", (long long)k,
          l.rank() > 3 && k == 0 ? "  (the index over modes 2.. together, colexicographic)" : "");
    print_grid(rows, cols, 1, [&](int64_t r, int64_t c) -> std::optional<int64_t> {
      return l(r + rows * c + rows * cols * k);
    });
  }
  if (slices > kSlices)
    std::printf("\n  (first %lld of %lld tables (:,:,k); --json prints every value)\n",
                (long long)kSlices, (long long)slices);
}

void print_table(Layout const& l) { print_table(SwizzledLayout{Swizzle(), 0, l}); }

std::string const& notation_help() {
  static const std::string text =
      "Layouts in CuTe notation, e.g. \"(4,3):(1,8)\"; a bare shape such as (4,3) means its "
      "compact\n"
      "column-major layout (4,3):(1,4). A tiler is a layout, a shape such as (2,3), or a tuple of\n"
      "layouts and _ such as \"(3:3,_,(2,4):(1,8))\". A swizzled layout \"Sw<3,4,3> o 0 o "
      "(8,64):(64,1)\"\n"
      "is accepted by show, render --layout, size, rank, depth and as A of composition,\n"
      "logical_divide and zipped_divide.\n"
      "Static and run-time integers, as CuTe's Int<4> and int: CuTe merges and drops modes only "
      "where\n"
      "the integers are static, so results differ. Integers are static by default; write _4 for a\n"
      "static one in CuTe's printed form (then the bare ones are run-time: "
      "\"((_2,_2),4):((_1,8),64)\"),\n"
      "or pass --runtime to make every bare integer run-time. --cute prints CuTe's form.\n"
      "CuTe's C++ spellings read the same: \"Layout<Shape<_4,_8>,Stride<_8,_1>>\",\n"
      "\"make_layout(make_shape(4,8), make_stride(8,1))\" (bare integers run-time, as in C++),\n"
      "\"Tile<_32,_32,_16>\", \"composition(Swizzle<3,4,3>{}, L)\", and CuTe's printed\n"
      "\"Sw<3,4,3> o _0 o (_8,_64):(_64,_1)\" or the short \"Sw<3,4,3> o (8,64):(64,1)\".";
  return text;
}

void add_algebra_verbs(CLI::App& app, Verbs& verbs) {
  verbs.push_back({app.add_subcommand(
                       "batch", "Answer JSON Lines cases on stdin, one line each (docs/batch.md)"),
                   run_batch});
  verbs.push_back(
      {app.add_subcommand(
           "demo", "Print the worked examples of the layout algebra, computed by the library"),
       run_demo});

  auto flags = std::make_shared<OpFlags>();
  for (OpSpec const& op : ops::table()) {
    if (!op.verb) continue;
    CLI::App* sub = app.add_subcommand(op.name, op.help);
    sub->footer(notation_help());
    if (*op.alias) sub->alias(op.alias);
    auto words = std::make_shared<std::vector<std::string>>();
    sub->add_option("args", *words, "operands")->required();
    sub->add_flag("--json", flags->as_json, "print {result, image} as JSON");
    sub->add_flag(
        "--runtime", flags->runtime,
        "bare integers are run-time values (CuTe's int); _4 stays static (CuTe's Int<4>)");
    sub->add_flag("--cute", flags->cute,
                  "print the result as CuTe's C++ does: static _4, run-time 4");
    verbs.push_back({sub, [&op, words, flags] { return run_op_verb(op, *words, *flags); }});
  }

  CLI::App* show = app.add_subcommand("show", "Print a layout and its index table: show LAYOUT");
  show->footer(notation_help());
  auto text = std::make_shared<std::string>();
  auto show_flags = std::make_shared<OpFlags>();
  show->add_option("layout", *text, "a layout, a shape or a swizzled layout")->required();
  show->add_flag("--json", show_flags->as_json,
                 "print {layout, shape, size, cosize, values}: values[i] = L(i) (i "
                 "colexicographic)");
  show->add_flag("--runtime", show_flags->runtime,
                 "bare integers are run-time values (CuTe's int); _4 stays static (CuTe's Int<4>)");
  show->add_flag("--cute", show_flags->cute,
                 "print the layout as CuTe's C++ does: static _4, run-time 4");
  verbs.push_back({show, [text, show_flags] { return run_show(*text, *show_flags); }});
}

}  // namespace tessera::tools
