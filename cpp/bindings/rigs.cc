// Embind (flat.h): rigs module — the full-body look-at (docs/body-look-at.md)
// as an Embind class owned by a JS handle (web/src/rigs.js).
//
// Settings layout (floats, kSettingsFloats then the optional spine arrays):
//   forward(3) up(3) offset(3) footLock blendOutTime
//   spine: headSettleTime pelvisSettleTime damping
//   weightShift: amount limit settleTime damping
//   armReaction: amount settleTime damping chest
//   then weights[n] (when given), limits[n] (when given), settleTimes[n] (when given).
// writeDefaults fills the header with BodyLookAtSettings{}'s defaults, so C++
// stays the one source of the defaults.
// Update layout: spine[n × 7] arms[a × 7] legs[l × 7] target(3), then the
// solved spine, arms and legs (same counts, 7 floats per joint).
#include <cstdint>
#include <vector>

#include "flat.h"
#include "ikpd/rigs/body_look_at.h"

namespace ikpd::bindings {
namespace {
constexpr std::size_t kSettingsFloats = 22;
constexpr std::size_t kMaxLimbJoints = 3 * BodyLookAt::kMaxLimbs;
}  // namespace

class BodyLookAtHandle {
 public:
  static void WriteDefaults(std::uintptr_t offset) {
    const BodyLookAtSettings s{};
    float* f = Floats(offset);
    WriteVec3(f, s.forward);
    WriteVec3(f + 3, s.up);
    WriteVec3(f + 6, s.offset);
    f[9] = s.footLock ? 1.0f : 0.0f;
    f[10] = s.blendOutTime;
    f[11] = s.spine.headSettleTime;
    f[12] = s.spine.pelvisSettleTime;
    f[13] = s.spine.damping;
    f[14] = s.weightShift.amount;
    f[15] = s.weightShift.limit;
    f[16] = s.weightShift.settleTime;
    f[17] = s.weightShift.damping;
    f[18] = s.armReaction.amount;
    f[19] = s.armReaction.settleTime;
    f[20] = s.armReaction.damping;
    f[21] = static_cast<float>(s.armReaction.chest);
  }

  std::uintptr_t Reset(std::uintptr_t offset, std::uint32_t n, bool hasWeights, bool hasLimits, bool hasSettleTimes) {
    const float* f = Floats(offset);
    BodyLookAtSettings s;
    s.spineJoints = n;
    s.forward = ReadVec3(f);
    s.up = ReadVec3(f + 3);
    s.offset = ReadVec3(f + 6);
    s.footLock = f[9] != 0.0f;
    s.blendOutTime = f[10];
    s.spine.headSettleTime = f[11];
    s.spine.pelvisSettleTime = f[12];
    s.spine.damping = f[13];
    s.weightShift = {f[14], f[15], f[16], f[17]};
    s.armReaction = {f[18], f[19], f[20], static_cast<int>(f[21])};
    std::size_t at = kSettingsFloats;
    const auto take = [&](bool given) {
      if (!given) return std::span<const float>();
      const std::span<const float> values(f + at, n);
      at += n;
      return values;
    };
    s.spine.weights = take(hasWeights);
    s.spine.limits = take(hasLimits);
    s.spine.settleTimes = take(hasSettleTimes);
    const Status status = rig_.Reset(s);
    if (status) {
      input_.assign(n + 2 * kMaxLimbJoints, Transform{});
      output_.assign(n + 2 * kMaxLimbJoints, Transform{});
    }
    return ToResult(status);
  }

  std::uintptr_t Update(std::uintptr_t offset, std::uint32_t arms, std::uint32_t legs, float dt, bool enabled) {
    if (arms > kMaxLimbJoints) return ToResult(Error("arms: needs 0, 3 or 6 joints (upper, lower, hand per arm)"));
    if (legs > kMaxLimbJoints) return ToResult(Error("legs: needs 0, 3 or 6 joints (hip, knee, ankle per leg)"));
    float* f = Floats(offset);
    const std::size_t n = rig_.spineJoints();
    const std::size_t total = n + arms + legs;
    for (std::size_t i = 0; i < total; ++i) input_[i] = ReadTransform(f + 7 * i);
    Transform* in = input_.data();
    Transform* out = output_.data();
    BodyLookAtInput input;
    input.spine = std::span<const Transform>(in, n);
    input.arms = std::span<const Transform>(in + n, arms);
    input.legs = std::span<const Transform>(in + n + arms, legs);
    input.target = ReadVec3(f + 7 * total);
    input.enabled = enabled;
    const BodyLookAtOutput output{std::span<Transform>(out, n), std::span<Transform>(out + n, arms),
                                  std::span<Transform>(out + n + arms, legs)};
    const Status s = rig_.Update(dt, input, output);
    if (!s) return ToResult(s);
    float* o = f + 7 * total + 3;
    for (std::size_t i = 0; i < total; ++i) WriteTransform(o + 7 * i, out[i]);
    return 0;
  }

  bool Active() const { return rig_.active(); }
  void Clear() { rig_.Clear(); }

 private:
  BodyLookAt rig_;
  std::vector<Transform> input_;
  std::vector<Transform> output_;
};

}  // namespace ikpd::bindings

EMSCRIPTEN_BINDINGS(ikpd_rigs) {
  using namespace emscripten;
  using namespace ikpd::bindings;
  class_<BodyLookAtHandle>("BodyLookAt")
      .constructor<>()
      .class_function("writeDefaults", &BodyLookAtHandle::WriteDefaults)
      .function("reset", +[](BodyLookAtHandle& b, std::uintptr_t offset, std::uint32_t n, int hasWeights, int hasLimits,
                             int hasSettleTimes) {
        return b.Reset(offset, n, hasWeights != 0, hasLimits != 0, hasSettleTimes != 0);
      })
      .function("update", +[](BodyLookAtHandle& b, std::uintptr_t offset, std::uint32_t arms, std::uint32_t legs,
                              float dt, int enabled) { return b.Update(offset, arms, legs, dt, enabled != 0); })
      .function("active", +[](BodyLookAtHandle& b) { return b.Active() ? 1 : 0; })
      .function("clear", &BodyLookAtHandle::Clear);
}
