// Fuzzes rig::RigBatch (docs/rig/rig-batch.md): random skeletons, stacks of
// aim / two-bone / pseudo three-bone / springs constraints (sometimes an
// unsupported kind), counts, per-character inputs with non-finite values and
// ranges. Springs keep per-character state: each character's Rig is stepped
// on every frame the batch steps it (mirrored while its Rig takes every frame).
// Every error names a parameter and changes nothing (output and results stay
// as they were); every successful update writes usable rotations; and without
// smoothing each character equals its own Rig (the template copied, weight =
// common.weight × weights(i)[c]).
#include <vector>

#include "fuzz.h"
#include "ikpd/batch/common.h"
#include "ikpd/rig/rig_batch.h"

using namespace ikpd;
using namespace ikpd::fuzz;
using namespace ikpd::rig;

namespace {

float Angle(const glm::quat& a, const glm::quat& b) {
  if (a == b) return 0.0f;  // a joint left as animated (any length)
  const glm::quat d = NormalizeOr(a, kIdentityRotation) * glm::conjugate(NormalizeOr(b, kIdentityRotation));
  return 2.0f * std::atan2(std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z), std::abs(d.w));
}

// Everything an Update may write, to compare before and after an error.
std::vector<float> State(const RigBatch& b) {
  std::vector<float> s(b.output().begin(), b.output().end());
  for (std::size_t i = 0; i < b.constraintCount(); ++i) {
    s.insert(s.end(), b.reached(i).begin(), b.reached(i).end());
    s.insert(s.end(), b.distance(i).begin(), b.distance(i).end());
  }
  return s;
}

// The batch's character c through its own Rig; false when the Rig refuses the frame.
bool Mirror(RigBatch& b, Rig& r, std::size_t c, float dt, std::vector<LocalTransform>& out) {
  const std::size_t n = b.count();
  for (std::size_t i = 0; i < b.constraintCount(); ++i) {
    ConstraintSettings s = b.rig().settings(i);
    s.common.weight *= b.weights(i)[c];
    if (!r.SetSettings(i, s)) return false;
    ConstraintFrame& f = r.frames()[i];
    f.target = batch::LoadVec3(b.targets(i).data(), c);
    f.pole = b.poleSet()[i] != 0 ? batch::LoadVec3(b.poles(i).data(), c) : glm::vec3(0.0f);
    f.poleSet = b.poleSet()[i] != 0 ? 1.0f : 0.0f;
  }
  std::vector<LocalTransform> in(b.jointCount());
  for (std::size_t j = 0; j < in.size(); ++j) {
    in[j] = {batch::LoadVec3(b.translations().data(), j * n + c), batch::LoadQuat(b.rotations().data(), j * n + c),
             batch::LoadVec3(b.scales().data(), j * n + c)};
  }
  const LocalTransform root{batch::LoadVec3(b.rootPositions().data(), c), batch::LoadQuat(b.rootRotations().data(), c),
                            glm::vec3(b.rootScales()[c])};
  out.resize(in.size());
  return static_cast<bool>(r.Update(dt, in, root, out));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  const int n = in.Int(1, 12);
  std::vector<int> parents(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) parents[static_cast<std::size_t>(i)] = in.Int(0, 5) == 0 ? in.Int(-1, i - 1) : i - 1;
  Skeleton skeleton;
  if (!skeleton.Init(parents)) return 0;
  std::vector<LocalTransform> rest(static_cast<std::size_t>(n));
  for (LocalTransform& t : rest) {
    t.translation = in.Int(0, 7) == 0 ? glm::vec3(0.0f) : in.Vec3();  // zero-length bones too
    t.rotation = in.Quat();
    if (in.Int(0, 3) == 0) t.scale = glm::vec3(in.Range(0.1f, 3.0f));
  }
  Rig rig;
  if (!rig.Init(skeleton, rest)) return 0;
  const int constraints = in.Int(0, 4);
  bool smoothing = false;
  for (int c = 0; c < constraints; ++c) {
    const int pick = in.Int(0, 15);
    const auto kind = pick == 0 ? static_cast<ConstraintKind>(in.Int(3, 4)) : pick <= 4 ? ConstraintKind::kSprings
                                                                                       : static_cast<ConstraintKind>(in.Int(0, 2));
    ConstraintSettings s = DefaultSettings(kind);
    const int count = kind == ConstraintKind::kAim ? 1 : kind == ConstraintKind::kPseudoThreeBone ? 4 : 3;
    int at = in.Int(0, n - 1);
    if (kind == ConstraintKind::kSprings) {  // one or two chains, a center, colliders, per-joint parameters
      for (int chain = in.Int(1, 2); chain > 0; --chain) {
        const int length = in.Int(1, 5);
        for (int k = 0; k < length; ++k, at = in.Int(0, 7) == 0 ? in.Int(0, n - 1) : at + 1) s.legs.push_back(at);
        s.springChains.push_back(length);
        at = in.Int(0, n - 1);
      }
      if (in.Bool()) s.joints = {in.Int(0, n - 1)};
      if (in.Bool()) s.springs.tipLength = in.Range(0.0f, 0.3f);
      if (in.Int(0, 3) == 0) s.springs.wind = in.Vec3();
      s.springs.joint = {in.Range(0.0f, 4.0f), in.Range(0.0f, 1.0f), in.Range(0.0f, 2.0f), in.Axis(), in.Range(0.0f, 0.1f)};
      for (int k = in.Int(0, 2); k > 0; --k) {
        SpringCollider col;
        col.joint = in.Int(0, n - 1);
        s.legs.push_back(col.joint);
        col.shape = static_cast<SpringColliderShape>(in.Int(0, 4));
        col.offset = in.Vec3() * 0.1f, col.tail = in.Vec3() * 0.1f, col.radius = in.Range(0.0f, 0.5f), col.normal = in.Axis();
        s.springColliders.push_back(col);
      }
    } else {
      for (int k = 0; k < count; ++k, at = in.Int(0, 5) == 0 ? in.Int(0, n - 1) : at + 1) s.joints.push_back(at);
    }
    if (in.Int(0, 3) == 0) s.common.weight = in.Range(0.0f, 1.0f);
    if (in.Int(0, 3) == 0) s.common.settleTime = in.Range(0.0f, 0.5f);
    if (in.Int(0, 3) == 0) s.common.enabled = false;
    if (in.Int(0, 5) == 0) s.common.forward = in.Axis();
    if (kind == ConstraintKind::kAim) s.aim.settings.method = static_cast<AimMethod>(in.Int(0, 2));
    if (kind == ConstraintKind::kTwoBone && in.Int(0, 3) == 0) s.twoBone.settings.pole = ikpd::TwoBonePole::kDirection, s.twoBone.frame.pole = in.Axis();
    const bool added = static_cast<bool>(rig.Add(s));
    FUZZ_TRACE("constraint kind %d joints %d.. settleTime %g: %s\n", static_cast<int>(kind), s.joints.empty() ? -1 : s.joints[0],
               static_cast<double>(s.common.settleTime), added ? "added" : "refused");
    if (added) smoothing = smoothing || s.common.settleTime > 0.0f;
  }

  RigBatch batch;
  const std::size_t count = static_cast<std::size_t>(in.Int(0, 20));
  const std::vector<float> empty = State(batch);
  const Status init = batch.Init(rig, count);
  FUZZ_CHECK(NamesParameter(init), "init error without a parameter: %s", init.error);
  if (!init) {
    FUZZ_CHECK(batch.count() == 0 && State(batch) == empty, "a failed Init changed the batch");
    return 0;
  }
  std::vector<Rig> rigs(count, rig);
  std::vector<std::uint8_t> mirrored(count, 1);  // its Rig took every frame the batch stepped it
  std::vector<LocalTransform> out;
  const int frames = in.Int(1, 4);
  for (int f = 0; f < frames; ++f) {
    // Fill some inputs (mostly finite; sometimes NaN, Inf, zero rotations, bad weights).
    for (int k = in.Int(0, 24); k > 0; --k) {
      const std::size_t c = static_cast<std::size_t>(in.Int(0, static_cast<int>(count) - 1));
      const std::size_t j = static_cast<std::size_t>(in.Int(0, n - 1));
      const std::size_t at = j * count + c;
      switch (in.Int(0, 7)) {
        case 0: batch::StoreQuat(batch.rotations().data(), at, in.Int(0, 15) == 0 ? glm::quat(0.0f, 0.0f, 0.0f, 0.0f) : in.Quat()); break;
        case 1: batch::StoreVec3(batch.translations().data(), at, in.MaybeNonFiniteVec3()); break;
        case 2: batch::StoreVec3(batch.rootPositions().data(), c, in.MaybeNonFiniteVec3()); break;
        case 3: batch::StoreQuat(batch.rootRotations().data(), c, in.Quat()); break;
        case 4: batch.rootScales()[c] = in.Int(0, 7) == 0 ? in.MaybeNonFinite() : in.Range(0.1f, 4.0f); break;
        default:
          if (batch.constraintCount() == 0) break;
          const std::size_t i = static_cast<std::size_t>(in.Int(0, static_cast<int>(batch.constraintCount()) - 1));
          batch::StoreVec3(batch.targets(i).data(), c, in.Bool() ? in.Vec3() : in.MaybeNonFiniteVec3());
          batch::StoreVec3(batch.poles(i).data(), c, in.Bool() ? in.Vec3() : in.MaybeNonFiniteVec3());
          batch.poleSet()[i] = in.Bool() ? 1 : 0;
          batch.weights(i)[c] = in.Int(0, 7) == 0 ? in.MaybeNonFinite() : in.Range(0.0f, 1.0f);
      }
    }
    const float dt = in.Int(0, 7) == 0 ? in.MaybeNonFinite() : in.Range(0.0f, 0.1f);
    const bool whole = in.Bool();
    const std::size_t first = whole ? 0 : static_cast<std::size_t>(in.Int(0, static_cast<int>(count) + 1));
    const std::size_t length = whole ? count : static_cast<std::size_t>(in.Int(0, static_cast<int>(count) + 1));
    const std::vector<float> before = State(batch);
    const Status s = whole ? batch.Update(dt) : batch.Update(dt, first, length);
    FUZZ_TRACE("frame %d dt %g [%zu, +%zu): %s\n", f, static_cast<double>(dt), first, length, s.error ? s.error : "ok");
    if (!s) {
      FUZZ_CHECK(NamesParameter(s), "update error without a parameter: %s", s.error);
      const std::vector<float> after = State(batch);
      FUZZ_CHECK(std::memcmp(after.data(), before.data(), after.size() * sizeof(float)) == 0, "state changed on error: %s", s.error);
      continue;
    }
    for (const float v : batch.output()) FUZZ_CHECK(std::isfinite(v), "non-finite output");
    for (std::size_t i = 0; i < batch.constraintCount(); ++i) {
      for (std::size_t c = first; c < first + length; ++c) {
        // Never NaN (a distance that overflows float, a target ~1e38 away, is +Inf as in Rig).
        FUZZ_CHECK(!std::isnan(batch.distance(i)[c]), "constraint %zu character %zu: distance %g", i, c,
                   static_cast<double>(batch.distance(i)[c]));
      }
    }
    for (std::size_t c = first; c < first + length; ++c) {
      for (std::size_t j = 0; j < batch.jointCount(); ++j) {
        FUZZ_CHECK(IsUsableRotation(batch::LoadQuat(batch.output().data(), j * count + c)), "character %zu joint %zu: unusable", c, j);
      }
      // Each character its own Rig (smoothing state would need every earlier frame mirrored: settleTime 0 only).
      if (smoothing || !mirrored[c]) continue;
      if (!Mirror(batch, rigs[c], c, dt, out)) {
        mirrored[c] = 0;
        continue;
      }
      for (std::size_t j = 0; j < batch.jointCount(); ++j) {
        const float gap = Angle(batch::LoadQuat(batch.output().data(), j * count + c), out[j].rotation);
        FUZZ_CHECK(gap <= 1e-3f, "character %zu joint %zu: %g rad from its Rig", c, j, static_cast<double>(gap));
      }
    }
  }
  return 0;
}
