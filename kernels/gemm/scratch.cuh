// kernels/gemm/scratch.cuh -- the launchers' temporary memory: the library's memory pool and
// Scratch, pieces of the caller's workspace or of the pool for packed operands and partial sums.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "args.hpp"

namespace tessera::ladder {

// The library's stream-ordered memory pool on the current device, created on first use. It keeps
// what it has allocated (release threshold: never), so after the first calls a Scratch is served
// from memory the pool already holds, without an allocation by the driver; stream order keeps a
// piece alive for the launches that use it. nullptr when it cannot be made (then the device's
// default pool serves).
// (Defined in scratch.cu: kernel translation units do not compile <mutex>.)
cudaMemPool_t library_pool();

// Memory for packed operands and stream-K's partial sums: pieces of the caller's workspace when
// GemmArgs has one (never an allocation; the ABI checked its size first), else stream-ordered
// pieces of library_pool() freed on `stream` when the Scratch goes out of scope (after the GEMM's
// launch: stream order keeps them alive).
class Scratch {
 public:
  Scratch(GemmArgs const& p, cudaStream_t stream)
      : next_(static_cast<char*>(p.workspace)), left_(p.workspace_bytes), stream_(stream) {}
  Scratch(Scratch const&) = delete;
  Scratch& operator=(Scratch const&) = delete;
  ~Scratch() {
    for (int i = 0; i < owned_; ++i) cudaFreeAsync(pieces_[i], stream_);
  }
  cudaError_t get(void** piece, size_t bytes) {
    if (next_) {
      if (bytes > left_) return cudaErrorInvalidValue;  // (the ABI's size check prevents this)
      *piece = next_, next_ += bytes, left_ -= bytes;
      return cudaSuccess;
    }
    cudaMemPool_t pool = library_pool();
    const cudaError_t e = pool ? cudaMallocFromPoolAsync(piece, bytes, pool, stream_)
                               : cudaMallocAsync(piece, bytes, stream_);
    if (e == cudaSuccess) pieces_[owned_++] = *piece;
    return e;
  }
  cudaStream_t stream() const { return stream_; }

 private:
  char* next_;
  size_t left_;
  cudaStream_t stream_;
  void* pieces_[3] = {};  // packed A, packed B, stream-K partial sums
  int owned_ = 0;
};

}  // namespace tessera::ladder
