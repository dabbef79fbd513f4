// Internal: what the single-item IK jobs use to keep their per-call cost low:
// one branch-light finiteness test over all per-call inputs, and a per-thread
// memo of the setup derived from the options (docs/architecture.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include "../thread_memo.h"

namespace ikpd::detail {

// Sum of the components (the sum of several finite values overflows only
// near 1e38: such input just takes the full check).
inline float SumOf(float v) { return v; }
inline float SumOf(const glm::vec3& v) { return v.x + v.y + v.z; }
inline float SumOf(const glm::quat& q) { return q.x + q.y + q.z + q.w; }

// True when every component of every argument is finite: their sum times 0
// is 0, where any NaN or ±Inf (or an overflowing sum) gives NaN. One add per
// value and one comparison (no fast-math here); false may also mean "check
// fully".
template <class... T>
inline bool AllFinite(const T&... v) {
  return (SumOf(v) + ... + 0.0f) * 0.0f == 0.0f;
}

// The last (key, value) pair seen on this thread. Key: plain 4-byte fields
// without padding, compared bit-wise (−0 and 0 only miss; invalid options are
// never stored, so a hit means the options were valid).
template <class Key, class Value>
struct OptionsMemo {
  Key key{};
  Value value{};
  bool valid = false;

  // This thread's memo for Key and Value.
  static OptionsMemo& OfThisThread() {
    IKPD_THREAD_MEMO OptionsMemo memo;
    return memo;
  }

  const Value* Find(const Key& k) const {
    std::uint32_t a[sizeof(Key) / 4], b[sizeof(Key) / 4];
    std::memcpy(a, &k, sizeof(Key));
    std::memcpy(b, &key, sizeof(Key));
    std::uint32_t differ = 0;
    for (std::size_t i = 0; i < sizeof(Key) / 4; ++i) differ |= a[i] ^ b[i];
    return valid && differ == 0 ? &value : nullptr;
  }
  const Value& Store(const Key& k, const Value& v) {
    key = k;
    value = v;
    valid = true;
    return value;
  }
};

}  // namespace ikpd::detail
