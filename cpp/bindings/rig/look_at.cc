// Embind (conventions.h): the look-at over a spine (docs/rig/look-at.md) as an
// Embind class owned by a JS handle. Its scalar options live in its own
// buffer (settings(), packed by the description in cpp/src/rig/fields.h).
#include <cstdint>
#include <span>
#include <utility>

#include "../conventions.h"
#include "../../src/rig/fields.h"
#include "ikpd/buffer.h"
#include "ikpd/rig/look_at.h"

namespace ikpd::bindings {

// LookAt: its scalar options in its own buffer (settings(), the
// layout of its description); weights[n], then limits[n] (when hasLimits), then settleTimes[n]
// (when hasSettleTimes) packed at offset. Update: joints[n × 7], target(3),
// eyes[e × 7] → output[n × 7], eyes[e × 7], gaze yaw and pitch (2).
class LookAtHandle {
 public:
  std::uintptr_t Settings() const { return reinterpret_cast<std::uintptr_t>(settings_); }
  std::uintptr_t Reset(std::uintptr_t offset, std::uint32_t n, bool hasLimits, bool hasSettleTimes) {
    const float* f = Floats(offset);
    LookAtSettings s;
    ReadJob(settings_, s);
    PackedArrays arrays{f, n};
    s.weights = arrays.Take(true);
    s.limits = arrays.Take(hasLimits);
    s.settleTimes = arrays.Take(hasSettleTimes);
    Buffer<Transform> joints, output;
    if (!joints.Allocate(n + 2) || !output.Allocate(n + 2)) {  // the joints, then up to 2 eyes
      return ToResult(Error("weights: out of memory for the joints"));
    }
    const Status status = look_.Reset(s);
    if (status) {
      joints_ = std::move(joints);
      output_ = std::move(output);
    }
    return ToResult(status);
  }
  std::uintptr_t Update(std::uintptr_t offset, float dt, bool enabled, std::uint32_t eyes) {
    if (eyes > 2) return ToResult(Error("eyes: needs 0, 1 or 2 joints (left, right)"));
    float* f = Floats(offset);
    const std::size_t n = look_.size();
    ReadTransforms(f, joints_.data(), n);
    ReadTransforms(f + 7 * n + 3, joints_.data() + n, eyes);
    const std::span<const Transform> in(joints_);
    const std::span<Transform> out(output_);
    const Status s = look_.Update(dt, in.first(n), ReadVec3(f + 7 * n), enabled, out.first(n), in.subspan(n, eyes),
                                  out.subspan(n, eyes));
    if (!s) return ToResult(s);
    float* o = f + 7 * (n + eyes) + 3;
    WriteTransforms(o, output_.data(), n + eyes);
    o[7 * (n + eyes)] = look_.gazeYaw();
    o[7 * (n + eyes) + 1] = look_.gazePitch();
    return 0;
  }
  // Writes the smoothed offsets [x, y, z, w] × n at offset.
  void ReadOffsets(std::uintptr_t offset) const {
    float* f = Floats(offset);
    for (std::size_t i = 0; i < look_.size(); ++i) WriteQuat(f + 4 * i, look_.offsets()[i]);
  }
  std::uint32_t Size() const { return static_cast<std::uint32_t>(look_.size()); }
  bool Active() const { return look_.active(); }
  void Clear() { look_.Clear(); }

 private:
  LookAt look_;
  alignas(16) float settings_[JobFloats<LookAtSettings>()] = {};
  Buffer<Transform> joints_;
  Buffer<Transform> output_;
};

}  // namespace ikpd::bindings

IKPD_BINDINGS(rig, look_at) {
  using namespace emscripten;
  using namespace ikpd::bindings;
  class_<LookAtHandle>("LookAt")
      .class_function("create", &Create<LookAtHandle>, allow_raw_pointers())
      .function("settings", &LookAtHandle::Settings)
      .function("reset", +[](LookAtHandle& l, std::uintptr_t offset, std::uint32_t n, int hasLimits, int hasSettleTimes) {
        return l.Reset(offset, n, hasLimits != 0, hasSettleTimes != 0);
      })
      .function("update", +[](LookAtHandle& l, std::uintptr_t offset, float dt, int enabled, std::uint32_t eyes) {
        return l.Update(offset, dt, enabled != 0, eyes);
      })
      .function("readOffsets", &LookAtHandle::ReadOffsets)
      .function("active", +[](LookAtHandle& l) { return l.Active() ? 1 : 0; })
      .function("clear", &LookAtHandle::Clear);
}
