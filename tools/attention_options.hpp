// tools/attention_options.hpp -- `--kernel` and `--head-dim` of `explain` and `render`: which
// attention kernel --preset attention draws (attention_cli.hpp).
#pragma once

#include <CLI/CLI.hpp>
#include <stdexcept>
#include <string>

#include "attention_cli.hpp"
#include "render_options.hpp"

namespace tessera::tools {

inline void add_attention_options(CLI::App* cmd, AttentionVariant& v) {
  cmd->add_option("--kernel", v.kernel,
                  "with --preset attention: fa3_sm90 (the Hopper kernel, wgmma; default) or "
                  "fa2_sm80 (the SM80 kernel, mma.sync)")
      ->check(CLI::IsMember({"fa3_sm90", "fa2_sm80"}));
  cmd->add_option("--head-dim", v.head_dim,
                  "with --preset attention: the head dimension, 64, 128 (default) or 256")
      ->check(CLI::IsMember({64, 128, 256}));
}

// Whether the options name the attention preset; --kernel or --head-dim without it is an error.
inline bool attention_chosen(MmaArgs const& a, std::string const& verb) {
  const bool flags = a.cmd && (a.cmd->count("--kernel") || a.cmd->count("--head-dim"));
  if (a.preset == kAttentionPreset) return true;
  if (flags)
    throw std::invalid_argument(verb +
                                ": --kernel and --head-dim choose the attention kernel: give "
                                "--preset attention");
  return false;
}

}  // namespace tessera::tools
