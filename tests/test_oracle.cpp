// Every case of NVIDIA's CuTe oracle (../shared/oracle/layout_cases.json) through the C++ API.
// The file is read in place; without ../shared the test says so and skips.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>
#include <tessera.hpp>

#include "ops.hpp"

using nlohmann::json;

namespace {
std::filesystem::path oracle_file(const char* name) {
  const char* env = std::getenv("TESSERA_ORACLE_DIR");
  return std::filesystem::path(env ? env : TESSERA_ORACLE_DIR) / name;
}
}  // namespace

TEST(Oracle, LayoutCases) {
  auto path = oracle_file("layout_cases.json");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "SKIPPED: oracle vectors not found at " << path;
  json cases = json::parse(std::ifstream(path))["cases"];
  int passed = 0, rejected = 0, printed_as_cpp = 0;
  for (json const& c : cases) {
    SCOPED_TRACE(c["id"].get<std::string>() + " " + c["op"].get<std::string>() + c["args"].dump());
    if (c["error"].get<bool>()) {
      EXPECT_THROW(tessera::tools::run_op(c["op"], c["args"]), tessera::Error);
      ++rejected;
      continue;
    }
    tessera::tools::OpResult r;
    ASSERT_NO_THROW(r = tessera::tools::run_op(c["op"], c["args"]));
    if (!c["image"].is_null()) {
      ASSERT_TRUE(r.image.has_value());
      EXPECT_EQ(json(*r.image), c["image"]);  // the same function
    }
    bool as_pycute = r.result == c["result"];
    bool as_cpp = c.contains("cpp_result") && r.result == c["cpp_result"];
    EXPECT_TRUE(as_pycute || as_cpp) << "printed " << r.result << ", expected " << c["result"];
    printed_as_cpp += !as_pycute && as_cpp;
    ++passed;
  }
  EXPECT_GT(passed, 1400);
  EXPECT_GT(rejected, 40);
  std::printf("oracle: %d cases computed, %d rejected as required, %d printed in C++'s form\n", passed,
              rejected, printed_as_cpp);
}
