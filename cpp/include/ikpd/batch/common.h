// ikpd — what the batch jobs share: the pole mode, strided float access and the
// per-item error convention.
#pragma once

#include <cstddef>

#include "ikpd/common.h"

namespace ikpd {

// What the per-item `pole` field holds (shared by every item of a batch).
enum class PoleMode : int {
  kNone = 0,       // no pole: the `pole` field is not read
  kPoint = 1,      // TwoBoneJob::pole / AimJob::pole (a world point)
  kDirection = 2,  // TwoBoneJob::poleDirection (a world direction; two-bone only)
};

// The per-item arrays of a limb (root, mid and end joints) that the two-bone and
// pseudo three-bone batch jobs share, with the same names and meaning in both:
// vec3 3 floats, quaternion 4 floats [x, y, z, w], scalar 1 float per item.
struct LimbBatchArrays {
  PoleMode poleMode = PoleMode::kNone;
  std::size_t count = 0;

  // Inputs, per item.
  const float* rootPosition = nullptr;  // 3
  const float* rootRotation = nullptr;  // 4
  const float* midPosition = nullptr;   // 3
  const float* midRotation = nullptr;   // 4
  const float* endPosition = nullptr;   // 3
  const float* endRotation = nullptr;   // 4
  const float* target = nullptr;        // 3
  const float* pole = nullptr;          // 3, read unless poleMode is kNone
  const float* weight = nullptr;        // 1, optional (null: the options' weight)

  // Outputs, per item (the root position never changes).
  float* outRootRotation = nullptr;  // 4
  float* outMidPosition = nullptr;   // 3
  float* outMidRotation = nullptr;   // 4
  float* outEndPosition = nullptr;   // 3
  float* outEndRotation = nullptr;   // 4
  float* outReached = nullptr;       // 1: 1 when reached, else 0
  float* outDistance = nullptr;      // 1

  std::size_t* failedItem = nullptr;  // optional output: index of the failing item
};

}  // namespace ikpd

namespace ikpd::batch {

// Items are stored with their components together: field[i * components + k].
inline glm::vec3 LoadVec3(const float* field, std::size_t i) {
  const float* p = field + 3 * i;
  return {p[0], p[1], p[2]};
}
// Quaternions are stored [x, y, z, w] (three.js order).
inline glm::quat LoadQuat(const float* field, std::size_t i) {
  const float* p = field + 4 * i;
  return glm::quat(p[3], p[0], p[1], p[2]);
}
inline void StoreVec3(float* field, std::size_t i, const glm::vec3& v) {
  float* p = field + 3 * i;
  p[0] = v.x;
  p[1] = v.y;
  p[2] = v.z;
}
inline void StoreQuat(float* field, std::size_t i, const glm::quat& q) {
  float* p = field + 4 * i;
  p[0] = q.x;
  p[1] = q.y;
  p[2] = q.z;
  p[3] = q.w;
}

// Batch jobs validate every item first: when item i is invalid, Run()
// returns that item's Status, stores i in *failedItem (when not null) and
// writes no output at all. Then they solve items 0..count-1 in order with the
// single-item job's algorithm (several items at once in SIMD lanes, with the
// same results); should a solve itself fail (a result that overflows float,
// for inputs near 1e38), the same happens for that item, with outputs of
// earlier items already written.
inline Status FailAt(Status status, std::size_t item, std::size_t* failedItem) {
  if (failedItem != nullptr) *failedItem = item;
  return status;
}

}  // namespace ikpd::batch
