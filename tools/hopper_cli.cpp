// tools/hopper_cli.cpp -- see hopper_cli.hpp.
#include "hopper_cli.hpp"
#include "plural.hpp"

#include <sstream>
#include <tessera.hpp>
#include <tessera/gmma.hpp>
#include <tessera/tma.hpp>

#include "ops.hpp"

namespace tessera::tools {
namespace {

using nlohmann::json;

const char* swizzle_name(int layout_type) {
  return layout_type == 1   ? "128B"
         : layout_type == 2 ? "64B"
         : layout_type == 3 ? "32B"
                            : "none (interleave)";
}
const char* tma_swizzle_name(TmaSwizzle s) {
  return s == TmaSwizzle::k128B  ? "CU_TENSOR_MAP_SWIZZLE_128B"
         : s == TmaSwizzle::k64B ? "CU_TENSOR_MAP_SWIZZLE_64B"
         : s == TmaSwizzle::k32B ? "CU_TENSOR_MAP_SWIZZLE_32B"
                                 : "CU_TENSOR_MAP_SWIZZLE_NONE";
}

const char* l2_name(TmaL2Promotion p) {
  return p == TmaL2Promotion::k256B  ? "CU_TENSOR_MAP_L2_PROMOTION_L2_256B"
         : p == TmaL2Promotion::k128B ? "CU_TENSOR_MAP_L2_PROMOTION_L2_128B"
         : p == TmaL2Promotion::k64B  ? "CU_TENSOR_MAP_L2_PROMOTION_L2_64B"
                                      : "CU_TENSOR_MAP_L2_PROMOTION_NONE";
}

// A tile's boxes and cuTensorMapEncodeTiled's arguments for the global tensor (shape, stride).
json tma_json(TmaTile const& tma, TmaArgs const& args, const char* type, json const& shape,
              json const& stride) {
  json boxes = json::array();
  for (int g = 0; g < tma.boxes; ++g) {
    json coord = json::array();
    for (int i = 0; i < tma.rank; ++i) coord.push_back(tma.box_coord[g][i]);
    boxes.push_back({{"smem_byte", tma.box_offset[g] * tma.elem_bits / 8},
                     {"tile_coord", coord},
                     {"loader", g / tma.boxes_per_loader()}});
  }
  json box = json::array(), modes = json::array(), dims = json::array(), strides = json::array(),
       box_dim = json::array(), elem = json::array();
  for (int i = 0; i < tma.rank; ++i) {
    box.push_back(tma.box[i]);
    modes.push_back(tma.dim_mode[i]);
    dims.push_back(args.dims[i]);
    if (i > 0) strides.push_back(args.strides[i - 1]);
    box_dim.push_back(args.box[i]);
    elem.push_back(args.elem_strides[i]);
  }
  return {{"box", box},
          {"dims_are_tile_modes", modes},
          {"loaders", tma.loaders},
          {"box_bytes", tma.box_bytes()},
          {"boxes", boxes},
          {"global", {{"shape", shape}, {"stride", stride}}},
          {"encode",
           {{"tensorDataType", type},
            {"tensorRank", args.rank},
            {"globalDim", dims},
            {"globalStrides", strides},
            {"boxDim", box_dim},
            {"elementStrides", elem},
            {"interleave", "CU_TENSOR_MAP_INTERLEAVE_NONE"},
            {"swizzle", tma_swizzle_name(args.swizzle)},
            {"l2Promotion", l2_name(args.l2_promotion)},
            {"oobFill", "CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE"}}}};
}

// One operand's stage tile (rows, 64) of 16-bit elements: kernel 05's configuration.
json operand_json(const char* name, bool k_major, int64_t rows, int64_t block_rows, int loaders,
                  int64_t extent, int64_t k) {
  constexpr int64_t kBits = 16, kBK = 64;
  const SwizzledLayout tile = gmma_smem_tile(GmmaSwizzle::kB128, k_major, kBits, rows, kBK);
  const GmmaOperand op = make_gmma_operand(tile, kBits, block_rows, 16);
  const TmaTile tma = make_tma_tile(tile, kBits, loaders);
  // The global operand (extent, K), K-major (extent,K):(K,1) or MN-major (extent,K):(1,extent).
  const Coord<2> shape{{extent, k}}, stride = k_major ? Coord<2>{{k, 1}} : Coord<2>{{1, extent}};
  const TmaArgs args =
      make_tma_args(tma, TmaDataType::kFloat16, 0, shape, stride, TmaL2Promotion::k256B);
  json j;
  j["operand"] = name;
  j["major"] = k_major ? "K" : "MN";
  j["tile_shape"] = {rows, kBK};
  j["tile"] = to_string(tile.layout);
  j["swizzle"] = to_string(tile.swizzle);
  j["bytes"] = rows * kBK * kBits / 8;
  j["block"] = {block_rows, 16};
  j["descriptor"] = {{"layout_type", op.desc.layout_type},
                     {"swizzle", swizzle_name(op.desc.layout_type)},
                     {"lbo_bytes", op.desc.lbo_bytes},
                     {"sbo_bytes", op.desc.sbo_bytes},
                     {"base_offset", op.desc.base_offset}};
  j["blocks"] = to_string(op.blocks);
  json starts = json::array();  // [row block][k-step] start byte offsets in the tile
  for (int64_t i = 0; i < op.blocks[0].size(); ++i) {
    json row = json::array();
    for (int64_t s = 0; s < op.blocks[1].size(); ++s) row.push_back(op.block_bytes(i, s));
    starts.push_back(row);
  }
  j["block_starts"] = starts;
  j["tma"] = tma_json(tma, args, "CU_TENSOR_MAP_DATA_TYPE_FLOAT16", {extent, k},
                      {stride[0], stride[1]});
  return j;
}

}  // namespace

json hopper_json(int64_t m, int64_t n, int64_t k) {
  json h;
  h["name"] =
      "kernel 05 (wgmma + TMA, 16-bit): two consumer warpgroups of SM90 m64n256k16 along M, "
      "CTA tile 128x256x64, 128-byte swizzled stage tiles, clusters of 2 CTAs sharing B";
  h["problem"] = {m, n, k};
  h["operands"] = json::array();
  for (bool k_major : {true, false}) {
    h["operands"].push_back(operand_json("A", k_major, 128, 64, 1, m, k));
    h["operands"].push_back(operand_json("B", k_major, 256, 256, 2, n, k));
  }
  return h;
}

namespace {

// cuTensorMapEncodeTiled's data types by the page's short names, with their bits.
struct TmaType {
  const char* name;
  TmaDataType type;
  const char* cu;
};
constexpr TmaType kTmaTypes[] = {
    {"f16", TmaDataType::kFloat16, "CU_TENSOR_MAP_DATA_TYPE_FLOAT16"},
    {"bf16", TmaDataType::kBFloat16, "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16"},
    {"f32", TmaDataType::kFloat32, "CU_TENSOR_MAP_DATA_TYPE_FLOAT32"},
    {"u8", TmaDataType::kUInt8, "CU_TENSOR_MAP_DATA_TYPE_UINT8"},
    {"u16", TmaDataType::kUInt16, "CU_TENSOR_MAP_DATA_TYPE_UINT16"},
    {"u32", TmaDataType::kUInt32, "CU_TENSOR_MAP_DATA_TYPE_UINT32"}};

// The shared tile as typed: a (swizzled) layout, or a shape (its compact column-major layout)
// with the swizzle mode's Sw<B, 4 - log2(element bytes), 3> (B = 1, 2, 3 for 32, 64, 128 bytes).
SwizzledLayout tma_smem_tile(std::string const& tile, std::string const& swizzle, int64_t bits) {
  SwizzledLayout s = any_layout_arg(tile);
  if (swizzle.empty() || swizzle == "none") return s;
  const int b = swizzle == "32B" ? 1 : swizzle == "64B" ? 2 : swizzle == "128B" ? 3 : 0;
  if (b == 0)
    throw std::invalid_argument("tma: the swizzle is none, 32B, 64B or 128B, not " + swizzle);
  if (s.swizzle.bits != 0)
    throw std::invalid_argument("tma: the shared tile " + tile + " is swizzled already; " +
                                "choose the swizzle none or type the tile unswizzled");
  const int e = bits == 8 ? 0 : bits == 16 ? 1 : 2;
  s.swizzle = Swizzle(b, 4 - e, 3);
  return s;
}

template <int R>
TmaArgs tma_args_of(TmaTile const& t, TmaDataType type, json const& shape, json const& stride) {
  Coord<R> sh, st;
  for (int i = 0; i < R; ++i) sh[i] = shape[i].get<int64_t>(), st[i] = stride[i].get<int64_t>();
  return make_tma_args(t, type, 0, sh, st);
}

}  // namespace

json tma_for_tensor(json const& spec) {
  const std::string dtype = spec.value("dtype", std::string("f16"));
  const TmaType* type = nullptr;
  for (TmaType const& t : kTmaTypes)
    if (dtype == t.name) type = &t;
  if (!type) throw std::invalid_argument("tma: the data type is f16, bf16, f32, u8, u16 or u32, "
                                         "not " + dtype);
  const json shape = spec.value("shape", json::array()), stride = spec.value("stride", json());
  const size_t rank = shape.size();
  if (rank < 1 || rank > 5 || !stride.is_array() || stride.size() != rank)
    throw std::invalid_argument("tma: the global tensor's shape and strides are 1 to 5 integers "
                                "each, as many strides as extents (shape " + shape.dump() +
                                ", strides " + stride.dump() + ")");
  const int64_t bits = tma_data_type_bits(type->type);
  const SwizzledLayout tile = tma_smem_tile(spec.value("tile", std::string()),
                                            spec.value("swizzle", std::string()), bits);
  const TmaTile tma = make_tma_tile(tile, bits, spec.value("loaders", 1));
  TmaArgs args;
  switch (rank) {
    case 1: args = tma_args_of<1>(tma, type->type, shape, stride); break;
    case 2: args = tma_args_of<2>(tma, type->type, shape, stride); break;
    case 3: args = tma_args_of<3>(tma, type->type, shape, stride); break;
    case 4: args = tma_args_of<4>(tma, type->type, shape, stride); break;
    default: args = tma_args_of<5>(tma, type->type, shape, stride); break;
  }
  json j = tma_json(tma, args, type->cu, shape, stride);
  j["tile"] = to_string(tile.layout);
  j["swizzle_layout"] = to_string(tile.swizzle);
  return j;
}

std::string hopper_text(json const& h) {
  std::ostringstream o;
  o << "Hopper: " << h["name"].get<std::string>() << "\n";
  for (auto const& j : h["operands"]) {
    auto const& d = j["descriptor"];
    auto const& t = j["tma"];
    const bool a = j["operand"] == "A";
    o << "\n  " << j["operand"].get<std::string>() << ", " << j["major"].get<std::string>()
      << "-major: stage tile (" << j["tile_shape"][0] << "," << j["tile_shape"][1]
      << ") = " << j["swizzle"].get<std::string>() << " o 0 o " << j["tile"].get<std::string>()
      << ", " << plural(j["bytes"].get<int64_t>(), "byte") << "\n";
    o << "    wgmma block " << j["block"][0] << "x" << j["block"][1] << ": descriptor swizzle "
      << d["swizzle"].get<std::string>() << " (layout type " << d["layout_type"] << "), LBO "
      << d["lbo_bytes"] << " B, SBO " << d["sbo_bytes"] << " B, base offset " << d["base_offset"]
      << "\n";
    o << "    blocks " << j["blocks"].get<std::string>() << " (elements): start = tile + ";
    auto const& s = j["block_starts"];
    for (size_t i = 0; i < s.size(); ++i) {
      o << (i ? "; " : "") << (a ? "warpgroup " : "")
        << (a ? std::to_string(i) + ": " : "k-steps: ");
      for (size_t q = 0; q < s[i].size(); ++q) o << (q ? ", " : "") << s[i][q];
    }
    o << " bytes\n";
    o << "    TMA box (" << t["box"][0] << "," << t["box"][1] << ") along tile modes ("
      << t["dims_are_tile_modes"][0] << "," << t["dims_are_tile_modes"][1] << "), "
      << plural(t["box_bytes"].get<int64_t>(), "byte") << ", "
      << plural(int64_t(t["boxes"].size()), "box", "boxes");
    if (t["loaders"] > 1)
      o << " shared by " << plural(t["loaders"].get<int64_t>(), "CTA") << " (multicast)";
    o << ":";
    for (auto const& b : t["boxes"])
      o << " [smem +" << b["smem_byte"] << ", tile (" << b["tile_coord"][0] << ","
        << b["tile_coord"][1] << "), loader " << b["loader"] << "]";
    auto const& e = t["encode"];
    o << "\n    cuTensorMapEncodeTiled(" << e["tensorDataType"].get<std::string>() << ", rank "
      << e["tensorRank"] << ", globalDim {" << e["globalDim"][0] << ", " << e["globalDim"][1]
      << "}, globalStrides {" << e["globalStrides"][0] << "}, boxDim {" << e["boxDim"][0] << ", "
      << e["boxDim"][1] << "}, elementStrides {1, 1}, " << e["interleave"].get<std::string>()
      << ", " << e["swizzle"].get<std::string>() << ", " << e["l2Promotion"].get<std::string>()
      << ", " << e["oobFill"].get<std::string>() << ")\n"
      << "      for " << j["operand"].get<std::string>() << " (" << t["global"]["shape"][0] << ","
      << t["global"]["shape"][1] << "):(" << t["global"]["stride"][0] << ","
      << t["global"]["stride"][1] << ")\n";
  }
  return o.str();
}

}  // namespace tessera::tools
