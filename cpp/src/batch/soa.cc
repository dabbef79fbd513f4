#include "ikpd/batch/soa.h"

#include <cassert>
#include <new>

namespace ikpd::batch {

namespace {
constexpr std::size_t kAlignFloats = 4;  // 16 bytes
constexpr std::size_t RoundUp(std::size_t n) { return (n + kAlignFloats - 1) / kAlignFloats * kAlignFloats; }
}  // namespace

void SoaStorage::AlignedDelete::operator()(float* p) const {
  ::operator delete[](p, std::align_val_t{16});
}

SoaStorage::SoaStorage(std::span<const Field> fields, std::size_t count)
    : count_(count), fieldCount_(fields.size()) {
  assert(fields.size() <= kMaxFields);
  std::size_t total = 0;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    offsets_[i] = total;
    total += RoundUp(fields[i].components * count);
  }
  float* data = static_cast<float*>(::operator new[]((total > 0 ? total : 1) * sizeof(float), std::align_val_t{16}));
  data_.reset(data);
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
