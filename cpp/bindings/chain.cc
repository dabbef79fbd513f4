// Embind (flat.h): chain module — N-bone chains (CCD/FABRIK), Tentacle2D,
// pseudo three-bone IK and look-at. Flat convention: inputs packed as float32
// at a byte offset, 0 or an error string pointer returned, outputs written
// back in place. Tentacle2D and LookAt are Embind classes owned by JS handles,
// each with its options in the layout of chain_fields.h.
#include <array>
#include <cstdint>
#include <utility>

#include "flat.h"
#include "ikpd/buffer.h"
#include "ikpd/ik/chain.h"
#include "ikpd/rig/look_at.h"
#include "ikpd/ik/pseudo_three_bone.h"
#include "ikpd/ik/tentacle2d.h"
#include "chain_fields.h"
#include "chain_job.h"
#include "job_fields.h"
#include "solvers.h"

namespace ikpd::bindings {
namespace {

// solveChain: the chain layout of chain_job.h, m limits right after the joints.
std::uintptr_t SolveChain(std::uintptr_t offset, std::uint32_t n, std::uint32_t m) {
  // Zero-filled storage, not std::array<Transform, N>: those statics' non-zero
  // default members would be stored in the module's data segment (~1.2 KB
  // gzipped). Every slot is written before it is read (implicit-lifetime types).
  alignas(Transform) static unsigned char jointBytes[sizeof(Transform) * kMaxChainJoints];
  alignas(Transform) static unsigned char outputBytes[sizeof(Transform) * kMaxChainJoints];
  alignas(JointLimit) static unsigned char limitBytes[sizeof(JointLimit) * kMaxChainJoints];
  Transform* joints = reinterpret_cast<Transform*>(jointBytes);
  Transform* output = reinterpret_cast<Transform*>(outputBytes);
  JointLimit* limits = reinterpret_cast<JointLimit*>(limitBytes);
  if (n > kMaxChainJoints) return ToResult(Error("joints: at most 128 joints"));
  if (m > kMaxChainJoints) return ToResult(Error("limits: at most 128 entries"));
  float* f = Floats(offset);
  ChainJob job;
  ReadJob(f, job);
  float* p = f + kChainJobFloats;
  ReadTransforms(p, joints, n);
  p += 7 * n;
  for (std::uint32_t i = 0; i < m; ++i, p += kLimitFloats) ReadLimit(p, limits[i]);
  job.joints = std::span<const Transform>(joints, n);
  job.limits = std::span<const JointLimit>(limits, m);
  job.output = std::span<Transform>(output, n);
  ChainResult result;
  job.result = &result;
  const Status s = job.Run();
  if (s) WriteChainResult(p, output, n, result);
  return ToResult(s);
}

// solvePseudoThreeBone: the packed PseudoThreeBoneJob (job_fields.h) → result at
// kOut (solvers.h).
static_assert(JobFloats<PseudoThreeBoneJob>() <= kOut);
std::uintptr_t SolvePseudoThreeBone(std::uintptr_t offset) {
  float* p = Floats(offset);
  PseudoThreeBoneJob job;
  ReadJob(p, job);
  PseudoThreeBoneResult out;
  job.result = &out;
  const Status s = job.Run();
  if (s) WriteJob(p + kOut, out);
  return ToResult(s);
}

}  // namespace

// Tentacle2D: its scalar options in its own buffer (settings(), chain_fields.h
// layout), the lengths[n] then, when hasLimits, limits[n] packed at offset.
class Tentacle2DHandle {
 public:
  std::uintptr_t Settings() const { return reinterpret_cast<std::uintptr_t>(settings_); }
  std::uintptr_t Reset(std::uintptr_t offset, std::uint32_t n, bool hasLimits) {
    const float* f = Floats(offset);
    Tentacle2DSettings s;
    ReadJob(settings_, s);
    s.lengths = std::span<const float>(f, n);
    if (hasLimits) s.limits = std::span<const float>(f + n, n);
    return ToResult(tentacle_.Reset(s));
  }
  std::uintptr_t SetAngles(std::uintptr_t offset, std::uint32_t n) {
    return ToResult(tentacle_.SetAngles(std::span<const float>(Floats(offset), n)));
  }
  std::uintptr_t Update(float x, float y) { return ToResult(tentacle_.Update({x, y})); }
  std::uint32_t Bones() const { return static_cast<std::uint32_t>(tentacle_.bones()); }
  int Unwinding() const { return tentacle_.unwinding() ? 1 : 0; }
  std::uintptr_t Positions() const { return reinterpret_cast<std::uintptr_t>(tentacle_.positions().data()); }
  std::uintptr_t Angles() const { return reinterpret_cast<std::uintptr_t>(tentacle_.angles().data()); }
  std::uintptr_t Lengths() const { return reinterpret_cast<std::uintptr_t>(tentacle_.lengths().data()); }
  std::uintptr_t Limits() const { return reinterpret_cast<std::uintptr_t>(tentacle_.limits().data()); }

 private:
  Tentacle2D tentacle_;
  alignas(16) double settings_[JobFloats<Tentacle2DSettings>()] = {};
};

// LookAt: its scalar options in its own buffer (settings(), chain_fields.h
// layout); weights[n], then limits[n] (when hasLimits), then settleTimes[n]
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

EMSCRIPTEN_BINDINGS(ikpd_chain) {
  using namespace emscripten;
  using namespace ikpd::bindings;
  function("solveChain", &SolveChain);
  function("solvePseudoThreeBone", &SolvePseudoThreeBone);
  class_<Tentacle2DHandle>("Tentacle2D")
      .class_function("create", &Create<Tentacle2DHandle>, allow_raw_pointers())
      .function("settings", &Tentacle2DHandle::Settings)
      .function("reset", +[](Tentacle2DHandle& t, std::uintptr_t offset, std::uint32_t n, int hasLimits) {
        return t.Reset(offset, n, hasLimits != 0);
      })
      .function("setAngles", &Tentacle2DHandle::SetAngles)
      .function("update", &Tentacle2DHandle::Update)
      .function("bones", &Tentacle2DHandle::Bones)
      .function("unwinding", &Tentacle2DHandle::Unwinding)
      .function("positions", &Tentacle2DHandle::Positions)
      .function("angles", &Tentacle2DHandle::Angles)
      .function("lengths", &Tentacle2DHandle::Lengths)
      .function("limits", &Tentacle2DHandle::Limits);
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
