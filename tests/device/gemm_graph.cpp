// tests/device/gemm_graph.cpp -- the C ABI as a library user needs it (GPU): calls captured in a
// CUDA graph replay to the same result, the caller's workspace gives the same result as the
// stream-ordered pool, and a call works only on its stream.
//
// For each tensor-core dtype and a problem whose A the kernel must pack (A's pointer off 16-byte
// alignment), an aligned one, and two that kernel 05 runs with stream-K: C_direct from a plain
// call; then the same call captured on a non-blocking stream into a graph and replayed twice
// (C_graph), and tessera_gemm_ex with a workspace of exactly tessera_gemm_workspace_size bytes,
// directly and captured (C_ws). All must equal C_direct bit for bit (the same kernels on the same
// inputs). Exit status 0 when all passed.
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include <cuda_runtime.h>
#include <tessera/gemm.h>

#include "harness.cuh"

namespace {

struct Problem {
  tessera_dtype d;
  const char* kernel;
  int64_t m, n, k, shift_a;  // shift_a elements off A's aligned base: packing
};

size_t elem_bytes(tessera_dtype d) { return d == TESSERA_F16 || d == TESSERA_BF16 ? 2 : 4; }

std::vector<unsigned char> download(void* p, size_t bytes) {
  std::vector<unsigned char> h(bytes);
  CHECK_CUDA(cudaMemcpy(h.data(), p, bytes, cudaMemcpyDeviceToHost));
  return h;
}

// One problem's buffers (A shifted by shift_a elements, leading dimensions padded by 8), its
// workspace, and the checks of every way of calling it against the direct call's C.
struct ProblemRun {
  Problem pr;
  cudaStream_t stream;
  int& runs;
  int& failures;
  size_t eb = elem_bytes(pr.d);
  int64_t lda = pr.m + 8, ldb = pr.k + 8, ldc = pr.m + 8;
  size_t c_bytes = size_t(ldc * pr.n) * eb, ws_bytes = 0;
  void *A = nullptr, *B = nullptr, *C = nullptr, *ws = nullptr;
  const void* a = nullptr;
  char plan[1024] = {};

  // Random bits of small finite values: the high byte of every element from [0x30, 0x3b].
  void upload(void** dev, size_t count, std::mt19937& rng) {
    std::vector<unsigned char> h(count * eb);
    for (size_t i = 0; i < h.size(); ++i)
      h[i] = (i % eb == eb - 1) ? 0x30 + rng() % 12 : rng() % 256;
    CHECK_CUDA(cudaMalloc(dev, h.size()));
    CHECK_CUDA(cudaMemcpy(*dev, h.data(), h.size(), cudaMemcpyHostToDevice));
  }
  void setup(std::mt19937& rng) {
    upload(&A, size_t(lda * pr.k + 16), rng);
    upload(&B, size_t(ldb * pr.n), rng);
    CHECK_CUDA(cudaMalloc(&C, c_bytes));
    a = static_cast<char*>(A) + pr.shift_a * eb;
    ws_bytes =
        tessera_gemm_workspace_size(pr.kernel, pr.d, 'N', 'N', pr.m, pr.n, pr.k, a, lda, B, ldb);
    if (ws_bytes) CHECK_CUDA(cudaMalloc(&ws, ws_bytes));
    tessera_gemm_plan(pr.kernel, pr.d, 'N', 'N', pr.m, pr.n, pr.k, 1.0f, a, lda, B, ldb, 0.0f, C,
                      ldc, plan, sizeof plan);
    std::printf("-- %s\n", plan);
  }
  int call(bool with_ws) {
    return tessera_gemm_ex(pr.kernel, pr.d, 'N', 'N', pr.m, pr.n, pr.k, 1.0f, a, lda, B, ldb,
                           0.0f, C, ldc, with_ws ? ws : nullptr, with_ws ? ws_bytes : 0, stream);
  }
  void check(const char* what, std::vector<unsigned char> const& want) {
    ++runs;
    if (download(C, c_bytes) != want) {
      ++failures;
      std::printf("FAIL %s: %s differs from the direct call\n", plan, what);
    }
  }
  // The call captured in a graph, then replayed twice over a poisoned C.
  void replays(bool with_ws, std::vector<unsigned char> const& want) {
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    const int st = call(with_ws);
    CHECK_CUDA(cudaStreamEndCapture(stream, &graph));
    if (st) { std::printf("FAIL %s: status %d under capture\n", plan, st); ++failures; return; }
    CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    for (int replay = 0; replay < 2; ++replay) {
      CHECK_CUDA(cudaMemset(C, 0xff, c_bytes));
      CHECK_CUDA(cudaGraphLaunch(exec, stream));
      CHECK_CUDA(cudaStreamSynchronize(stream));
      check(with_ws ? "a graph replay (workspace)" : "a graph replay (stream-ordered pool)", want);
    }
    CHECK_CUDA(cudaGraphExecDestroy(exec));
    CHECK_CUDA(cudaGraphDestroy(graph));
  }
  // Returns false where the direct call failed (nothing to compare with).
  bool run() {
    CHECK_CUDA(cudaMemset(C, 0xff, c_bytes));
    if (call(false)) { std::printf("FAIL %s: direct call\n", plan); ++failures; return false; }
    CHECK_CUDA(cudaStreamSynchronize(stream));
    const std::vector<unsigned char> want = download(C, c_bytes);
    for (bool with_ws : {false, true}) {
      if (with_ws && !ws_bytes) continue;
      // Directly with the workspace.
      if (with_ws) {
        CHECK_CUDA(cudaMemset(C, 0xff, c_bytes));
        if (call(true)) { std::printf("FAIL %s: call with workspace\n", plan); ++failures; }
        CHECK_CUDA(cudaStreamSynchronize(stream));
        check("the call with the caller's workspace", want);
      }
      replays(with_ws, want);
    }
    return true;
  }
};

}  // namespace

int main() {
  int failures = 0, runs = 0;
  std::mt19937 rng(12345);
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (Problem pr :
       {Problem{TESSERA_F16, nullptr, 1000, 512, 300, 1},
        Problem{TESSERA_BF16, "05", 777, 640, 256, 1},
        Problem{TESSERA_TF32, "05", 512, 384, 200, 0}, Problem{TESSERA_F16, "04", 333, 200, 96, 1},
        Problem{TESSERA_F16, nullptr, 4096, 256, 512, 0},
        // kernel 05 with split-K (32 tiles of 128 x 128, long K: 2 splits) and stream-K (40 tiles
        // on the H100's 66 clusters): partial sums and flags in the scratch memory, the flags
        // zeroed by a memset captured with the launch
        Problem{TESSERA_F16, nullptr, 1024, 1024, 8192, 0},
        Problem{TESSERA_BF16, "05", 1024, 1024, 8192, 1},
        Problem{TESSERA_F16, nullptr, 2560, 2048, 2048, 1},
        // Kernel 06 (skinny): K split across CTAs, partial sums in the workspace;
        // its GEMV on all of K (no workspace) and with K split (300 rows).
        Problem{TESSERA_F16, "06", 4096, 16, 4096, 0},
        Problem{TESSERA_F32, nullptr, 4096, 1, 4096, 0},
        Problem{TESSERA_BF16, nullptr, 300, 1, 5000, 1},
        Problem{TESSERA_TF32, "06", 8, 2048, 1024, 1}}) {
    ProblemRun run{pr, stream, runs, failures};
    run.setup(rng);
    if (!run.run()) continue;
    for (void* p : {run.A, run.B, run.C, run.ws})
      if (p) CHECK_CUDA(cudaFree(p));
  }
  CHECK_CUDA(cudaStreamDestroy(stream));
  CHECK_CUDA(cudaGetLastError());
  std::printf("gemm_graph: %d checks, %d failures\n", runs, failures);
  return failures ? 1 : 0;
}
