// Embind (conventions.h): a rig constraint's settings as JS packs them
// (web/src/rig/rigSettings.js), read by the rig and the rig batch bindings.
#include "constraint_settings.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <vector>

#include "../../src/ik/fields.h"
#include "../../src/rig/fields.h"
#include "../ik/chain_job.h"
#include "../conventions.h"
#include "../packed.h"

namespace ikpd::bindings {

using rig::ConstraintKind;
using rig::ConstraintSettings;

namespace {

// The packed record after the common settings: the kind's job block at `job`,
// then its extras from `at` (constraint_settings.h).
struct Reader {
  const float* job;
  const float* at;
  std::size_t joints, legs;

  static std::size_t Count(float v) { return v >= 0.0f && v <= 1024.0f ? static_cast<std::size_t>(v) : std::size_t{0}; }
  void Indices(std::vector<int>& out, std::size_t n) {
    out.resize(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = IsFinite(at[i]) ? static_cast<int>(std::max(-2.0f, std::min(at[i], 65536.0f))) : -2;
    at += n;
  }
  bool Flag() { return (at++)[0] != 0.0f; }
  void Array(bool given, std::vector<float>& out) {  // one per joint, when given
    if (!given) return;
    out.assign(at, at + joints);
    at += joints;
  }
  void Eyes(ConstraintSettings& s) {  // E then E indices (JS checks E <= 2; more reads as 3: an error)
    const std::size_t e = std::min<std::size_t>(Count(at[0]), 3);
    ++at;
    Indices(s.eyes, e);
  }
};

// One line per kind, in ConstraintKind's order (as cpp/src/rig/kinds/registry.cc):
// its job block's size, the most leg joints it takes, and its reader.
struct KindReader {
  std::size_t block;
  std::size_t maxLegs;
  bool (*read)(Reader& r, ConstraintSettings& s);
};

bool ReadAim(Reader& r, ConstraintSettings& s) { return ReadJob<FieldSet::kOptions>(r.job, s.aim), true; }
bool ReadTwoBone(Reader& r, ConstraintSettings& s) { return ReadJob<FieldSet::kOptions>(r.job, s.twoBone), true; }
bool ReadPseudoThreeBone(Reader& r, ConstraintSettings& s) {
  ReadJob<FieldSet::kOptions>(r.job, s.pseudoThreeBone);
  s.pseudoThreeBone.frame.blend = r.at[0];
  return true;
}
bool ReadChain(Reader& r, ConstraintSettings& s) {
  ReadJob<FieldSet::kOptions>(r.job, s.chain);
  s.chainLimitsLocal = r.Flag();
  const std::size_t m = Reader::Count(r.at[0]);
  ++r.at;
  if (m > 256) return false;
  s.chainLimits.resize(m);
  for (std::size_t i = 0; i < m; ++i, r.at += kLimitFloats) ReadLimit(r.at, s.chainLimits[i]);
  return true;
}
bool ReadLookAt(Reader& r, ConstraintSettings& s) {
  ReadJob<FieldSet::kOptions>(r.job, s.lookAt);
  const bool w = r.Flag(), lim = r.Flag(), st = r.Flag();
  r.Array(w, s.lookAtWeights);
  r.Array(lim, s.lookAtLimits);
  r.Array(st, s.lookAtSettleTimes);
  r.Eyes(s);
  return true;
}
bool ReadBodyLookAt(Reader& r, ConstraintSettings& s) {
  ReadJob<FieldSet::kOptions>(r.job, s.bodyLookAt);
  const bool w = r.Flag(), lim = r.Flag(), st = r.Flag();
  r.Array(w, s.spineWeights);
  r.Array(lim, s.spineLimits);
  r.Array(st, s.spineSettleTimes);
  r.Eyes(s);
  return true;
}
bool ReadGrounding(Reader& r, ConstraintSettings& s) {
  rig::GroundingSettings& g = s.grounding;
  g.legJoints = r.job[0] == 4.0f ? 4 : r.job[0] == 3.0f ? 3 : 0;  // else Check names it
  ReadJob(r.job + 1, g);  // its described options (cpp/src/rig/fields.h)
  if (r.Flag()) {
    const std::size_t legs = g.legJoints == 0 ? 0 : r.legs / g.legJoints;
    s.soleOffsets.assign(r.at, r.at + legs);
    r.at += legs;
  }
  return true;
}

bool ReadTwist(Reader& r, ConstraintSettings& s) {
  ReadJob(r.job, s.twist);  // its described options (cpp/src/rig/fields.h)
  if (r.Flag() && r.joints > 0) {  // the amounts: one per joint but the last
    s.twistAmounts.assign(r.at, r.at + (r.joints - 1));
    r.at += r.joints - 1;
  }
  return true;
}

bool ReadAvatar(Reader& r, ConstraintSettings& s) { return ReadJob(r.job, s.avatar), true; }  // cpp/src/rig/fields.h

// springs: C, C chain joint counts; K, K colliders of 1 + JobFloats<SpringCollider>
// floats (the joint, then its described shape: cpp/src/rig/fields.h); a flag,
// then 7 floats per chain joint (stiffness, dragForce, gravityPower,
// gravityDir, hitRadius); a flag, then per chain n and its n collider indices.
bool ReadSprings(Reader& r, ConstraintSettings& s) {
  ReadJob(r.job, s.springs);  // its described options (cpp/src/rig/fields.h)
  const std::size_t chains = Reader::Count(r.at[0]);
  ++r.at;
  if (chains > 256) return false;
  r.Indices(s.springChains, chains);
  const std::size_t colliders = Reader::Count(r.at[0]);
  ++r.at;
  if (colliders > 256) return false;
  s.springColliders.resize(colliders);
  for (rig::SpringCollider& c : s.springColliders) {
    c.joint = IsFinite(r.at[0]) ? static_cast<int>(std::max(-2.0f, std::min(r.at[0], 65536.0f))) : -2;
    // The shape read from a float: out of range (NaN included) reads as a value its check names.
    float block[JobFloats<rig::SpringCollider>()];
    std::copy(r.at + 1, r.at + 1 + std::size(block), block);
    if (!(block[0] >= 0.0f && block[0] <= 255.0f)) block[0] = 255.0f;
    ReadJob(block, c);
    r.at += 1 + std::size(block);
  }
  if (r.Flag()) {
    std::size_t joints = 0;
    for (const int n : s.springChains) joints += n > 0 ? static_cast<std::size_t>(n) : 0;
    if (joints > r.legs) return false;
    s.springJoints.resize(joints);
    for (rig::SpringJoint& j : s.springJoints) {
      j = {r.at[0], r.at[1], r.at[2], {r.at[3], r.at[4], r.at[5]}, r.at[6]};
      r.at += 7;
    }
  }
  if (r.Flag()) {  // chainColliders: per chain, n then n collider indices (one out of [0, 64) reads as bit 63)
    s.springChainColliders.assign(s.springChains.size(), 0);
    for (std::uint64_t& mask : s.springChainColliders) {
      const std::size_t n = std::min<std::size_t>(Reader::Count(r.at[0]), 64);
      ++r.at;
      for (std::size_t k = 0; k < n; ++k, ++r.at) {
        const float i = r.at[0];
        mask |= std::uint64_t{1} << (i >= 0.0f && i < 64.0f ? static_cast<int>(i) : 63);
      }
    }
  }
  return true;
}

constexpr KindReader kReaders[] = {
    {JobFloats<AimJob>(), 6, ReadAim},
    {JobFloats<TwoBoneJob>(), 6, ReadTwoBone},
    {JobFloats<PseudoThreeBoneJob>(), 6, ReadPseudoThreeBone},
    {JobFloats<ChainJob>(), 6, ReadChain},
    {JobFloats<LookAtSettings>(), 6, ReadLookAt},
    {JobFloats<BodyLookAtSettings>(), 6, ReadBodyLookAt},
    {1 + JobFloats<rig::GroundingSettings>(), 16, ReadGrounding},
    {JobFloats<rig::TwistSettings>(), 0, ReadTwist},
    {JobFloats<rig::AvatarSettings>(), 6, ReadAvatar},
    {JobFloats<rig::SpringsSettings>(), 256, ReadSprings},
};

}  // namespace

bool KnownKind(std::uint32_t kind) { return kind < std::size(kReaders); }

bool ReadConstraintSettings(const float* p, ConstraintKind kind, ConstraintSettings& s) {
  if (!KnownKind(static_cast<std::uint32_t>(kind))) return false;
  const KindReader& reader = kReaders[static_cast<std::size_t>(kind)];
  s = rig::DefaultSettings(kind);
  const std::size_t j = Reader::Count(p[0]), a = Reader::Count(p[1]), l = Reader::Count(p[2]);
  if (j > 256 || a > 8 || l > reader.maxLegs) return false;
  Reader r{nullptr, p + 3, j, l};
  r.Indices(s.joints, j);
  r.Indices(s.arms, a);
  r.Indices(s.legs, l);
  ReadJob(r.at, s.common);  // its description (cpp/src/rig/fields.h)
  r.job = r.at + JobFloats<rig::CommonSettings>();
  r.at = r.job + reader.block;
  return reader.read(r, s);
}

}  // namespace ikpd::bindings
