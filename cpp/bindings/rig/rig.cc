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
// Constraint settings, packed by JS at `offset` for add() and set():
//   [0] joints J, [1] arms A, [2] legs L, then J + A + L joint indices
//   | common[17]: weight enabled settleTime damping blendOutTime
//                 forward(x y z given) bendAxis(x y z given) up(x y z given)
//   | the kind's packed job (its description in cpp/src/ik/fields.h or cpp/src/rig/fields.h:
//     only its options are read)
//   | extras: pseudoThreeBone blend; chain M then M × 11 limit floats
//     (chain_job.h); lookAt hasWeights hasLimits then J each given;
//     bodyLookAt hasWeights hasLimits hasSettleTimes then J each given;
//     both look-ats then E (0..2) and E eye joint indices.
//     grounding: its block is kGroundingFloats (legJoints, then its described
//     options, cpp/src/rig/fields.h; NaN: the derived default), then hasSoleOffsets and
//     one sole offset per leg when given (NaN: from the rest pose).
// grounds() and probes() point into the rig (moved by add()); probe() fills
// probes from in and root.
//
// Allocation: the WebAssembly build has no exceptions, so the buffer is
// allocated with new (std::nothrow) (an error when memory cannot grow) and
// everything the rig allocates is bounded by its size limits (1024 joints,
// 256 constraints, 256 chain joints, 64 look-at joints).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "../../src/ik/fields.h"
#include "../../src/rig/fields.h"
#include "../ik/chain_job.h"
#include "../conventions.h"
#include "ikpd/rig/rig.h"
#include "../packed.h"
#include "../../src/rig/fields.h"

namespace ikpd::bindings {
namespace {

using rig::ConstraintKind;
using rig::ConstraintSettings;
using rig::LocalTransform;

constexpr std::size_t kCommonFloats = 17;
constexpr std::size_t kGroundingFloats = 1 + JobFloats<rig::GroundingSettings>();

std::optional<glm::vec3> ReadOptional(const float* p) {
  if (p[3] == 0.0f) return std::nullopt;
  return ReadVec3(p);
}

// The packed job block's size for a kind.
std::size_t JobBlock(ConstraintKind kind) {
  switch (kind) {
    case ConstraintKind::kAim: return JobFloats<AimJob>();
    case ConstraintKind::kTwoBone: return JobFloats<TwoBoneJob>();
    case ConstraintKind::kPseudoThreeBone: return JobFloats<PseudoThreeBoneJob>();
    case ConstraintKind::kChain: return JobFloats<ChainJob>();
    case ConstraintKind::kLookAt: return JobFloats<LookAtSettings>();
    case ConstraintKind::kBodyLookAt: return JobFloats<BodyLookAtSettings>();
    case ConstraintKind::kGrounding: return kGroundingFloats;
  }
  return 0;
}

// Reads joints, common settings, the kind's options and extras; false when
// the counts do not fit the scratch buffer (JS checks them first).
bool ReadPdSettings(const float* p, ConstraintKind kind, ConstraintSettings& s) {
  s = rig::DefaultSettings(kind);
  const auto count = [](float v) { return v >= 0.0f && v <= 1024.0f ? static_cast<std::size_t>(v) : std::size_t{0}; };
  const std::size_t j = count(p[0]), a = count(p[1]), l = count(p[2]);
  if (j > 256 || a > 6 || l > (kind == ConstraintKind::kGrounding ? 16u : 6u)) return false;
  const float* at = p + 3;
  const auto indices = [&](std::vector<int>& out, std::size_t n) {
    out.resize(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = IsFinite(at[i]) ? static_cast<int>(std::max(-2.0f, std::min(at[i], 65536.0f))) : -2;
    at += n;
  };
  indices(s.joints, j);
  indices(s.arms, a);
  indices(s.legs, l);
  rig::CommonSettings& c = s.common;
  c.weight = at[0];
  c.enabled = at[1] != 0.0f;
  c.settleTime = at[2];
  c.damping = at[3];
  c.blendOutTime = at[4];
  c.forward = ReadOptional(at + 5);
  c.bendAxis = ReadOptional(at + 9);
  c.up = ReadOptional(at + 13);
  at += kCommonFloats;
  const float* job = at;
  at += JobBlock(kind);
  const auto flag = [&]() { return (at++)[0] != 0.0f; };
  const auto array = [&](bool given, std::vector<float>& out) {
    if (!given) return;
    out.assign(at, at + j);
    at += j;
  };
  const auto eyes = [&]() {  // E then E indices (JS checks E <= 2; more reads as 3: an error)
    const std::size_t e = std::min<std::size_t>(count(at[0]), 3);
    ++at;
    indices(s.eyes, e);
  };
  switch (kind) {
    case ConstraintKind::kAim: ReadJob(job, s.aim, FieldSet::kOptions); break;
    case ConstraintKind::kTwoBone: ReadJob(job, s.twoBone, FieldSet::kOptions); break;
    case ConstraintKind::kPseudoThreeBone:
      ReadJob(job, s.pseudoThreeBone, FieldSet::kOptions);
      s.pseudoThreeBone.blend = at[0];
      break;
    case ConstraintKind::kChain: {
      ReadJob(job, s.chain, FieldSet::kOptions);
      const std::size_t m = count(at[0]);
      ++at;
      if (m > 256) return false;
      s.chainLimits.resize(m);
      for (std::size_t i = 0; i < m; ++i, at += kLimitFloats) ReadLimit(at, s.chainLimits[i]);
      break;
    }
    case ConstraintKind::kLookAt: {
      ReadJob(job, s.lookAt, FieldSet::kOptions);
      const bool w = flag(), lim = flag();
      array(w, s.lookAtWeights);
      array(lim, s.lookAtLimits);
      eyes();
      break;
    }
    case ConstraintKind::kBodyLookAt: {
      ReadJob(job, s.bodyLookAt, FieldSet::kOptions);
      const bool w = flag(), lim = flag(), st = flag();
      array(w, s.spineWeights);
      array(lim, s.spineLimits);
      array(st, s.spineSettleTimes);
      eyes();
      break;
    }
    case ConstraintKind::kGrounding: {
      rig::GroundingSettings& g = s.grounding;
      g.legJoints = job[0] == 4.0f ? 4 : job[0] == 3.0f ? 3 : 0;  // else Check names it
      ReadJob(job + 1, g);  // its described options (cpp/src/rig/fields.h)
      if (flag()) {
        const std::size_t legs = g.legJoints == 0 ? 0 : l / g.legJoints;
        s.soleOffsets.assign(at, at + legs);
        at += legs;
      }
      break;
    }
  }
  return true;
}

class RigHandle {
 public:
  // Allocates the buffers for n joints (once). Errors: "parents: ...", "memory: ...".
  std::uintptr_t Allocate(std::uint32_t n) {
    if (n == 0 || n > rig::kMaxJoints) return ToResult(Error("parents: needs 1 to 1024 joints"));
    if (floats_ != nullptr) return ToResult(Error("rig: already allocated"));
    const std::size_t total = 30 * static_cast<std::size_t>(n) + 10 + n;
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
      std::memcpy(floats_.get() + 10 * i, &identity, sizeof(identity));
    }
    return 0;
  }

  std::uintptr_t Buffer() const { return reinterpret_cast<std::uintptr_t>(floats_.get()); }
  std::uintptr_t Changed() const { return reinterpret_cast<std::uintptr_t>(changed_.get()); }
  std::uintptr_t Frames() { return reinterpret_cast<std::uintptr_t>(rig_.frames().data()); }
  std::uintptr_t Results() const { return reinterpret_cast<std::uintptr_t>(rig_.results().data()); }
  std::uintptr_t Grounds() { return reinterpret_cast<std::uintptr_t>(rig_.grounds().data()); }
  std::uintptr_t Probes() const { return reinterpret_cast<std::uintptr_t>(rig_.probes().data()); }

  // The skeleton (parents) and rest pose from the buffer.
  std::uintptr_t Init() {
    if (floats_ == nullptr) return ToResult(Error("rig: not allocated"));
    std::vector<int> parents(n_);
    const float* p = Parents();
    for (std::size_t i = 0; i < n_; ++i) parents[i] = IsFinite(p[i]) ? static_cast<int>(std::max(-2.0f, std::min(p[i], 65536.0f))) : -2;
    rig::Skeleton skeleton;
    if (Status s = skeleton.Init(parents); !s) return Keep(s);
    return Keep(rig_.Init(skeleton, RestSpan()));
  }

  std::uintptr_t SetRest() {
    if (floats_ == nullptr) return ToResult(Error("rig: not allocated"));
    return Keep(rig_.SetRest(RestSpan()));
  }
  std::uintptr_t SetFacing(float x, float y, float z) { return ToResult(rig_.SetFacing({x, y, z})); }
  std::uintptr_t SetUp(float x, float y, float z) { return ToResult(rig_.SetUp({x, y, z})); }

  std::uintptr_t Add(std::uint32_t kind, std::uintptr_t offset) {
    ConstraintSettings s;
    if (kind > static_cast<std::uint32_t>(ConstraintKind::kGrounding)) return ToResult(Error("kind: unknown kind"));
    if (!ReadPdSettings(Floats(offset), static_cast<ConstraintKind>(kind), s)) return ToResult(Error("joints: too many"));
    return Keep(rig_.Add(s));
  }

  std::uintptr_t Set(std::uint32_t index, std::uintptr_t offset) {
    if (index >= rig_.constraintCount()) return ToResult(Error("index: no constraint with that index"));
    ConstraintSettings s;
    if (!ReadPdSettings(Floats(offset), rig_.settings(index).kind, s)) return ToResult(Error("joints: too many"));
    return Keep(rig_.SetSettings(index, s));
  }

  std::uintptr_t Update(float dt) {
    if (floats_ == nullptr) return ToResult(Error("rig: not allocated"));
    const std::span<const LocalTransform> in(Locals(0), n_);
    const std::span<LocalTransform> out(Locals(n_), n_);
    return Keep(rig_.Update(dt, in, *reinterpret_cast<const LocalTransform*>(Root()), out,
                            std::span<std::uint8_t>(changed_.get(), n_)));
  }

  // Fills probes() from the animated locals and root in the buffer.
  std::uintptr_t Probe() {
    if (floats_ == nullptr) return ToResult(Error("rig: not allocated"));
    return Keep(rig_.Probe(std::span<const LocalTransform>(Locals(0), n_), *reinterpret_cast<const LocalTransform*>(Root())));
  }

 private:
  LocalTransform* Locals(std::size_t first) { return reinterpret_cast<LocalTransform*>(floats_.get()) + first; }
  float* Root() { return floats_.get() + 20 * n_; }
  float* Parents() { return floats_.get() + 30 * n_ + 10; }
  std::span<const LocalTransform> RestSpan() {
    return {reinterpret_cast<const LocalTransform*>(floats_.get() + 20 * n_ + 10), n_};
  }
  // Indexed messages live in the rig or skeleton that made them: copy the
  // text into the handle, which outlives the call that reads it.
  std::uintptr_t Keep(Status s) {
    if (s) return 0;
    std::strncpy(message_, s.error, sizeof(message_) - 1);
    return reinterpret_cast<std::uintptr_t>(message_);
  }

  rig::Rig rig_;
  std::unique_ptr<float[]> floats_;
  std::unique_ptr<std::uint8_t[]> changed_;
  std::size_t n_ = 0;
  char message_[192] = {};
};

}  // namespace
}  // namespace ikpd::bindings

IKPD_BINDINGS(rig, rig) {
  using namespace emscripten;
  using namespace ikpd::bindings;
  class_<RigHandle>("Rig")
      .constructor<>()
      .function("allocate", &RigHandle::Allocate)
      .function("buffer", &RigHandle::Buffer)
      .function("changed", &RigHandle::Changed)
      .function("frames", &RigHandle::Frames)
      .function("results", &RigHandle::Results)
      .function("grounds", &RigHandle::Grounds)
      .function("probes", &RigHandle::Probes)
      .function("probe", &RigHandle::Probe)
      .function("init", &RigHandle::Init)
      .function("setRest", &RigHandle::SetRest)
      .function("setFacing", &RigHandle::SetFacing)
      .function("setUp", &RigHandle::SetUp)
      .function("add", &RigHandle::Add)
      .function("set", &RigHandle::Set)
      .function("update", &RigHandle::Update);
}
