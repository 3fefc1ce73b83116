// tools/attention_cli.hpp -- the attention kernels for `explain` and `render` (--preset attention):
// the TiledMMAs of S = Q K^T and O += P V (kernels/attention/tiled_mmas.hpp, the kernels' own
// definitions), which rows of S each thread reduces and with which lanes (acc_rowcol,
// row_shuffles), and how P's accumulators are read as the A operand of P V (acc_as_operand):
// the functions the kernels' acc_rowcol / reduce_rows / acc_as_A call at compile time, here at
// run time.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "mma_cli.hpp"

namespace tessera::tools {

// The preset's name (mma_preset: the S TiledMMA of the default variant).
inline constexpr const char* kAttentionPreset = "attention";

// Which kernel and head dimension: the Hopper kernel (fa3_sm90: wgmma) or the SM80 kernel
// (fa2_sm80: mma.sync), head dim 64, 128 or 256.
struct AttentionVariant {
  std::string kernel = "fa3_sm90";
  int64_t head_dim = 128;
};

// The TiledMMA of one product, `S` (S = Q K^T, CTA tile (BM,BN,D)) or `O` (O += P V, (BM,D,BN)),
// with the tensors as the TiledMMA pages draw them. Throws std::invalid_argument for an unknown
// kernel or head dimension.
MmaConfig attention_config(AttentionVariant const& v, char product);

// Everything the preset shows: both TiledMMAs, the views' layouts, the shuffle distances; per
// thread its rows of S and the threads that share them ("rows_of", "row_threads"); the register
// map of P -> A ("p_to_a"); and "thread": the chosen thread's rows, lanes and registers.
nlohmann::json attention_json(AttentionVariant const& v, int64_t thread);
// ... as text for the terminal.
std::string attention_text(nlohmann::json const& j);

}  // namespace tessera::tools
