// Embind (conventions.h): the character rig (docs/rig/rig.md) as one Embind class owned
// by a JS handle (web/src/rig/rig.js). Coarse: one binding per operation, and the
// per-frame call takes dt only (the locals, root and frames already sit in
// WASM memory, in views JS holds).
//
// The handle's buffer (floats, allocated once by allocate(n)):
//   in[10n] | out[10n] | root[10] | rest[10n] | parents[n]
// (LocalTransform: tx ty tz qx qy qz qw sx sy sz), then changed[n] bytes
// apart. frames() and results() point into the rig (moved by add()).
//
// Constraint settings: the format of constraint_settings.h, packed by JS at `offset`.
// grounds() and probes() point into the rig (moved by add()); probe() fills
// probes from in and root.
//
// Allocation: the WebAssembly build has no exceptions, so the handle is made
// by a factory (conventions.h Create: null when memory cannot grow), the buffer
// is allocated with new (std::nothrow), the lists read here are preceded by a
// nothrow probe, and the rig's own allocations fail as "memory: out of memory"
// (cpp/src/rig/allocating.h): JS turns each into a RangeError naming the call
// (web/src/rig/rig.js, docs/rig/rig.md "Out of memory").
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "constraint_settings.h"
#include "../conventions.h"
#include "ikpd/rig/rig.h"
#include "../packed.h"

namespace ikpd::bindings {
namespace {

using rig::ConstraintKind;
using rig::ConstraintSettings;
using rig::LocalTransform;
constexpr std::size_t kLocalFloats = sizeof(LocalTransform) / sizeof(float);

class RigHandle {
 public:
  // Allocates the buffers for n joints (once). Errors: "parents: ...", "memory: ...".
  std::uintptr_t Allocate(std::uint32_t n) {
    if (n == 0 || n > rig::kMaxJoints) return ToResult(Error("parents: needs 1 to 1024 joints"));
    if (floats_ != nullptr) return ToResult(Error("rig: already allocated"));
    const std::size_t total = 3 * kLocalFloats * static_cast<std::size_t>(n) + kLocalFloats + n;
    floats_.reset(new (std::nothrow) float[total]);
    changed_.reset(new (std::nothrow) std::uint8_t[n]);
    if (floats_ == nullptr || changed_ == nullptr) {
      floats_.reset();
      changed_.reset();
      return ToResult(Error("memory: out of WebAssembly memory"));
    }
    n_ = n;
    std::memset(floats_.get(), 0, sizeof(float) * total);
    std::memset(changed_.get(), 0, n);
    const LocalTransform identity{};  // in, out, root and rest all start as identity locals
    for (std::size_t i = 0; i < 3 * static_cast<std::size_t>(n) + 1; ++i) {
      std::memcpy(floats_.get() + kLocalFloats * i, &identity, sizeof(identity));
    }
    return 0;
  }

  // The rig itself, for RigBatch.create (rig_batch.cc): valid while this handle lives.
  std::uintptr_t Address() const { return reinterpret_cast<std::uintptr_t>(&rig_); }
  std::uintptr_t Buffer() const { return reinterpret_cast<std::uintptr_t>(floats_.get()); }
  std::uintptr_t Changed() const { return reinterpret_cast<std::uintptr_t>(changed_.get()); }
  std::uintptr_t Frames() { return reinterpret_cast<std::uintptr_t>(rig_.frames().data()); }
  std::uintptr_t Results() const { return reinterpret_cast<std::uintptr_t>(rig_.results().data()); }
  std::uintptr_t Grounds() { return reinterpret_cast<std::uintptr_t>(rig_.grounds().data()); }
  std::uintptr_t Probes() const { return reinterpret_cast<std::uintptr_t>(rig_.probes().data()); }
  std::uintptr_t Targets() { return reinterpret_cast<std::uintptr_t>(rig_.targets().data()); }
  // How many targets the rig's constraints take (each kind's count is the C++ table's: rig.js reads it after add).
  int TargetCount() { return static_cast<int>(rig_.targets().size()); }

  // The skeleton (parents) and rest pose from the buffer.
  std::uintptr_t Init() {
    if (floats_ == nullptr) return ToResult(Error("rig: not allocated"));
    if (!Headroom(n_ * 2 * (sizeof(int) + sizeof(rig::Skeleton)))) return ToResult(Error("memory: out of WebAssembly memory"));
    std::vector<int> parents(n_);
    const float* p = Parents();
    for (std::size_t i = 0; i < n_; ++i) parents[i] = IsFinite(p[i]) ? static_cast<int>(std::max(-2.0f, std::min(p[i], 65536.0f))) : -2;
    rig::Skeleton skeleton;
    if (Status s = skeleton.Init(parents); !s) return kept_.Keep(s);
    return kept_.Keep(rig_.Init(skeleton, RestSpan()));
  }

  std::uintptr_t SetRest() {
    if (floats_ == nullptr) return ToResult(Error("rig: not allocated"));
    return kept_.Keep(rig_.SetRest(RestSpan()));
  }
  std::uintptr_t SetFacing(float x, float y, float z) { return ToResult(rig_.SetFacing({x, y, z})); }
  std::uintptr_t SetUp(float x, float y, float z) { return ToResult(rig_.SetUp({x, y, z})); }

  std::uintptr_t Add(std::uint32_t kind, std::uintptr_t offset) {
    ConstraintSettings s;
    if (!KnownKind(kind)) return ToResult(Error("kind: unknown kind"));
    if (!Headroom(kSettingsBytes)) return ToResult(Error("memory: out of WebAssembly memory"));
    if (!ReadConstraintSettings(Floats(offset), static_cast<ConstraintKind>(kind), s)) return ToResult(Error("joints: too many"));
    return kept_.Keep(rig_.Add(s));
  }

  std::uintptr_t Set(std::uint32_t index, std::uintptr_t offset) {
    if (!Headroom(kSettingsBytes)) return ToResult(Error("memory: out of WebAssembly memory"));
    return kept_.Keep(SetPacked(rig_, rig_, index, offset));
  }

  // A grounding constraint's derived defaults in force, written at `offset`:
  // maxPelvisDrop, maxPelvisRise, plantHeight, unplantRadius, then one sole offset per leg.
  std::uintptr_t Derived(std::uint32_t index, std::uintptr_t offset) {
    if (index >= rig_.constraintCount() || rig_.groundLegs(index) == 0) return ToResult(Error("index: not a grounding constraint"));
    const rig::GroundingSettings& g = rig_.groundingSettings(index);
    float* out = Floats(offset);
    out[0] = g.maxPelvisDrop, out[1] = g.maxPelvisRise, out[2] = g.plantHeight, out[3] = g.unplantRadius;
    for (std::size_t i = 0; i < g.legs; ++i) out[4 + i] = g.soleOffsets[i];
    return 0;
  }

  // An avatar constraint's scales from a T-pose sample (Rig::CalibrateAvatar):
  // head, left hand, right hand (world xyz each) at `offset`, under the rig's
  // root; scale and armScale written there. Changes no setting.
  std::uintptr_t CalibrateAvatar(std::uint32_t index, std::uintptr_t offset) {
    if (floats_ == nullptr) return ToResult(Error("rig: not allocated"));
    float* at = Floats(offset);
    rig::AvatarScales scales;
    const Status s = rig_.CalibrateAvatar(index, *reinterpret_cast<const LocalTransform*>(Root()), {at[0], at[1], at[2]},
                                          {at[3], at[4], at[5]}, {at[6], at[7], at[8]}, &scales);
    if (!s) return kept_.Keep(s);
    at[0] = scales.scale, at[1] = scales.armScale;
    return 0;
  }

  // Every constraint back to its first frame (Rig::ClearSmoothing).
  void ClearSmoothing() { rig_.ClearSmoothing(); }

  std::uintptr_t Update(float dt) {
    if (floats_ == nullptr) return ToResult(Error("rig: not allocated"));
    const std::span<const LocalTransform> in(Locals(0), n_);
    const std::span<LocalTransform> out(Locals(n_), n_);
    return kept_.Keep(rig_.Update(dt, in, *reinterpret_cast<const LocalTransform*>(Root()), out,
                            std::span<std::uint8_t>(changed_.get(), n_)));
  }

  // Fills probes() from the animated locals and root in the buffer.
  std::uintptr_t Probe() {
    if (floats_ == nullptr) return ToResult(Error("rig: not allocated"));
    return kept_.Keep(rig_.Probe(std::span<const LocalTransform>(Locals(0), n_), *reinterpret_cast<const LocalTransform*>(Root())));
  }

 private:
  LocalTransform* Locals(std::size_t first) { return reinterpret_cast<LocalTransform*>(floats_.get()) + first; }
  float* Root() { return floats_.get() + 2 * kLocalFloats * n_; }
  float* Parents() { return floats_.get() + 3 * kLocalFloats * n_ + kLocalFloats; }
  std::span<const LocalTransform> RestSpan() {
    return {reinterpret_cast<const LocalTransform*>(floats_.get() + 2 * kLocalFloats * n_ + kLocalFloats), n_};
  }

  // The lists ReadConstraintSettings fills (each bounded: 256 chain joints, 64 look-at joints, …).
  static constexpr std::size_t kSettingsBytes = 64 * 1024;

  rig::Rig rig_;
  std::unique_ptr<float[]> floats_;
  std::unique_ptr<std::uint8_t[]> changed_;
  std::size_t n_ = 0;
  KeptMessage kept_;  // the text of the last error
};

}  // namespace
}  // namespace ikpd::bindings

IKPD_BINDINGS(rig, rig) {
  using namespace emscripten;
  using namespace ikpd::bindings;
  class_<RigHandle>("Rig")
      .class_function("create", &Create<RigHandle>, allow_raw_pointers())
      .function("allocate", &RigHandle::Allocate)
      .function("address", &RigHandle::Address)
      .function("buffer", &RigHandle::Buffer)
      .function("changed", &RigHandle::Changed)
      .function("frames", &RigHandle::Frames)
      .function("results", &RigHandle::Results)
      .function("grounds", &RigHandle::Grounds)
      .function("probes", &RigHandle::Probes)
      .function("targets", &RigHandle::Targets)
      .function("targetCount", &RigHandle::TargetCount)
      .function("probe", &RigHandle::Probe)
      .function("calibrateAvatar", &RigHandle::CalibrateAvatar)
      .function("init", &RigHandle::Init)
      .function("setRest", &RigHandle::SetRest)
      .function("setFacing", &RigHandle::SetFacing)
      .function("setUp", &RigHandle::SetUp)
      .function("add", &RigHandle::Add)
      .function("derived", &RigHandle::Derived)
      .function("set", &RigHandle::Set)
      .function("clearSmoothing", &RigHandle::ClearSmoothing)
      .function("update", &RigHandle::Update);
}
