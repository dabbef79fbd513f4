// ikpd — structure-of-arrays storage shared by every batch job.
//
// A batch holds N items as one array per field ("target": 3 floats per item,
// "weight": 1 float per item, ...). Components of one item stay together
// (x, y, z, x, y, z, ...) so JS can fill a field with three.js's
// `vector.toArray(field, 3 * i)`. Batch jobs take raw field pointers (they
// never own memory); SoaStorage is a convenient owner used by the bindings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace ikpd::batch {

// One field of a batch layout: `components` floats per item, filled with
// `fill[0..components)` for every item when the storage is created.
struct Field {
  const char* name;  // the JS property name, e.g. "rootRotation"
  std::uint32_t components;
  float fill[4];
};

// Owns one 16-byte-aligned allocation with every field of `fields` for
// `count` items. Each field starts on a 16-byte boundary. When that memory
// cannot be had (the allocation fails, the byte count overflows size_t, or
// count > kMaxCount) the storage is empty: ok() is false, count() 0 and every
// field() null; nothing is written (README, "Guarantees").
class SoaStorage {
 public:
  SoaStorage(std::span<const Field> fields, std::size_t count);

  bool ok() const { return data_ != nullptr; }
  std::size_t count() const { return count_; }
  std::size_t fieldCount() const { return fieldCount_; }
  // Pointer to the first float of field `index` (index < fieldCount()); null when !ok().
  float* field(std::size_t index) const { return ok() ? data_.get() + offsets_[index] : nullptr; }

  // Upper bound on `count` accepted by every batch (2^24 items).
  static constexpr std::size_t kMaxCount = std::size_t{1} << 24;

 private:
  static constexpr std::size_t kMaxFields = 32;
  struct AlignedDelete {
    void operator()(float* p) const;
  };
  std::unique_ptr<float[], AlignedDelete> data_;
  std::size_t offsets_[kMaxFields] = {};
  std::size_t count_ = 0;
  std::size_t fieldCount_ = 0;
};

}  // namespace ikpd::batch
