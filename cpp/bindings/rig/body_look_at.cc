// Embind (conventions.h): the full-body look-at (docs/rig/body-look-at.md)
// as an Embind class owned by a JS handle (web/src/rig/bodyLookAt.js).
//
// Settings: the scalar options in the handle's own buffer (settings(), the
// layout of its description, cpp/src/rig/fields.h, spineJoints n among them); reset() reads them and,
// at offset, the optional spine arrays weights[n] (when given), limits[n]
// (when given), settleTimes[n] (when given).
// Update layout: spine[n × 7] arms[a × 7] legs[l × 7] eyes[e × 7] target(3),
// then the solved spine, arms, legs and eyes (same counts, 7 floats per
// joint), then the gaze yaw and pitch (2).
#include <cstdint>
#include <utility>

#include "../conventions.h"
#include "ikpd/buffer.h"
#include "ikpd/rig/body_look_at.h"
#include "../../src/rig/fields.h"

namespace ikpd::bindings {
namespace {
constexpr std::size_t kMaxLimbJoints = 3 * BodyLookAt::kMaxLimbs;
constexpr std::size_t kMaxEyes = 2;
}  // namespace

class BodyLookAtHandle {
 public:
  std::uintptr_t Settings() const { return reinterpret_cast<std::uintptr_t>(settings_); }

  std::uintptr_t Reset(std::uintptr_t offset, bool hasWeights, bool hasLimits, bool hasSettleTimes) {
    const float* f = Floats(offset);
    BodyLookAtSettings s;
    ReadJob(settings_, s);
    if (s.spineJoints > kMaxSpineJoints) return ToResult(Error("spineJoints: must be in [2, 64]"));
    const std::size_t n = s.spineJoints;
    PackedArrays arrays{f, n};
    s.spine.weights = arrays.Take(hasWeights);
    s.spine.limits = arrays.Take(hasLimits);
    s.spine.settleTimes = arrays.Take(hasSettleTimes);
    Buffer<Transform> input, output;
    if (!input.Allocate(n + 2 * kMaxLimbJoints + kMaxEyes) || !output.Allocate(n + 2 * kMaxLimbJoints + kMaxEyes)) {
      return ToResult(Error("spineJoints: out of memory for the joints"));
    }
    const Status status = rig_.Reset(s);
    if (status) {
      input_ = std::move(input);
      output_ = std::move(output);
    }
    return ToResult(status);
  }

  std::uintptr_t Update(std::uintptr_t offset, std::uint32_t arms, std::uint32_t legs, std::uint32_t eyes, float dt,
                        bool enabled) {
    if (eyes > kMaxEyes) return ToResult(Error("eyes: needs 0, 1 or 2 joints (left, right)"));
    if (arms > kMaxLimbJoints) return ToResult(Error("arms: needs 0, 3 or 6 joints (upper, lower, hand per arm)"));
    if (legs > kMaxLimbJoints) return ToResult(Error("legs: needs 0, 3 or 6 joints (hip, knee, ankle per leg)"));
    float* f = Floats(offset);
    const std::size_t n = rig_.spineJoints();
    const std::size_t total = n + arms + legs + eyes;
    ReadTransforms(f, input_.data(), total);
    Transform* in = input_.data();
    Transform* out = output_.data();
    BodyLookAtInput input;
    input.spine = std::span<const Transform>(in, n);
    input.arms = std::span<const Transform>(in + n, arms);
    input.legs = std::span<const Transform>(in + n + arms, legs);
    input.target = ReadVec3(f + 7 * total);
    input.enabled = enabled;
    input.eyes = std::span<const Transform>(in + n + arms + legs, eyes);
    const BodyLookAtOutput output{std::span<Transform>(out, n), std::span<Transform>(out + n, arms),
                                  std::span<Transform>(out + n + arms, legs),
                                  std::span<Transform>(out + n + arms + legs, eyes)};
    const Status s = rig_.Update(dt, input, output);
    if (!s) return ToResult(s);
    float* o = f + 7 * total + 3;
    WriteTransforms(o, out, total);
    o[7 * total] = rig_.gazeYaw();
    o[7 * total + 1] = rig_.gazePitch();
    return 0;
  }

  bool Active() const { return rig_.active(); }
  void Clear() { rig_.Clear(); }

 private:
  BodyLookAt rig_;
  alignas(16) float settings_[JobFloats<BodyLookAtSettings>()] = {};
  Buffer<Transform> input_;
  Buffer<Transform> output_;
};

}  // namespace ikpd::bindings

IKPD_BINDINGS(rig, body_look_at) {
  using namespace emscripten;
  using namespace ikpd::bindings;
  class_<BodyLookAtHandle>("BodyLookAt")
      .class_function("create", &Create<BodyLookAtHandle>, allow_raw_pointers())
      .function("settings", &BodyLookAtHandle::Settings)
      .function("reset", +[](BodyLookAtHandle& b, std::uintptr_t offset, int hasWeights, int hasLimits, int hasSettleTimes) {
        return b.Reset(offset, hasWeights != 0, hasLimits != 0, hasSettleTimes != 0);
      })
      .function("update", +[](BodyLookAtHandle& b, std::uintptr_t offset, std::uint32_t arms, std::uint32_t legs,
                              std::uint32_t eyes, float dt, int enabled) {
        return b.Update(offset, arms, legs, eyes, dt, enabled != 0);
      })
      .function("active", +[](BodyLookAtHandle& b) { return b.Active() ? 1 : 0; })
      .function("clear", &BodyLookAtHandle::Clear);
}
