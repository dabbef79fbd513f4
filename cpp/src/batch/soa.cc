#include "ikpd/batch/soa.h"

#include <cassert>
#include <cstdint>
#include <cstdlib>
#include <limits>

namespace ikpd::batch {

namespace {
constexpr std::size_t kAlignFloats = 4;  // 16 bytes
constexpr std::uint64_t RoundUp(std::uint64_t n) { return (n + kAlignFloats - 1) / kAlignFloats * kAlignFloats; }
}  // namespace

void SoaStorage::AlignedDelete::operator()(float* p) const { std::free(p); }

SoaStorage::SoaStorage(std::span<const Field> fields, std::size_t count) : fieldCount_(fields.size()) {
  assert(fields.size() <= kMaxFields);
  // Sizes in 64 bits: on wasm32 size_t is 32 bits, and 2^24 items of a wide
  // batch exceed 4 GiB. Any failure leaves the storage empty (never a null
  // allocation written through: that trapped, or corrupted WASM memory).
  if (count > kMaxCount) return;
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    offsets_[i] = static_cast<std::size_t>(total);
    total += RoundUp(std::uint64_t{fields[i].components} * count);
  }
  const std::uint64_t bytes = (total > 0 ? total : kAlignFloats) * sizeof(float);
  if (bytes > std::numeric_limits<std::size_t>::max()) return;
  float* data = static_cast<float*>(std::aligned_alloc(16, static_cast<std::size_t>(bytes)));
  if (data == nullptr) return;
  data_.reset(data);
  count_ = count;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    float* f = data + offsets_[i];
    const std::size_t c = fields[i].components;
    for (std::size_t item = 0; item < count; ++item) {
      for (std::size_t k = 0; k < c; ++k) f[item * c + k] = fields[i].fill[k];
    }
    for (std::size_t k = c * count; k < RoundUp(c * count); ++k) f[k] = 0.0f;
  }
}

}  // namespace ikpd::batch
