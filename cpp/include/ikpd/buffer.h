// ikpd — Buffer<T>: an owning array whose allocation may fail without harm. A
// contiguous range: std::span views it.
//
// The WebAssembly build has no exceptions: std::vector's allocation then
// returns null and the vector writes through it (memory corruption, or a trap
// after which the module is unusable). Buffer::Allocate reports the failure
// instead and leaves the buffer as it was, so the objects that size their
// storage at run time (LookAt, BodyLookAt, Tentacle2D) return a Status
// ("weights: out of memory") rather than corrupt WASM memory (README,
// "Guarantees").
#pragma once

#include <cstddef>
#include <memory>
#include <new>

namespace ikpd {

template <class T>
class Buffer {
 public:
  Buffer() = default;
  Buffer(Buffer&&) noexcept = default;
  Buffer& operator=(Buffer&&) noexcept = default;
  // Copies allocate as std::vector does (native code and tests copy rigs to
  // compare states; the bindings never copy one).
  Buffer(const Buffer& other) : data_(other.size_ > 0 ? new T[other.size_] : nullptr), size_(other.size_) {
    for (std::size_t i = 0; i < size_; ++i) data_[i] = other.data_[i];
  }
  Buffer& operator=(const Buffer& other) {
    if (this != &other) *this = Buffer(other);
    return *this;
  }

  // Replaces the contents with n value-initialized elements; false (and the
  // buffer unchanged) when the memory cannot be had.
  [[nodiscard]] bool Allocate(std::size_t n) {
    if (n == 0) {
      data_.reset();
      size_ = 0;
      return true;
    }
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) return false;
    T* p = new (std::nothrow) T[n]();
    if (p == nullptr) return false;
    data_.reset(p);
    size_ = n;
    return true;
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }
  T* begin() { return data_.get(); }
  T* end() { return data_.get() + size_; }
  const T* begin() const { return data_.get(); }
  const T* end() const { return data_.get() + size_; }

 private:
  std::unique_ptr<T[]> data_;
  std::size_t size_ = 0;
};

}  // namespace ikpd
