// Fuzzes rig::Skeleton and rig::Rig (docs/rig/rig.md): random hierarchies, rest
// poses, constraint stacks (valid or not; look-ats with eye joints and per-joint
// settle times, chains with limits on either frames) and frames.
// Every error names a parameter and changes nothing (the output span stays as it was); every
// successful update writes finite locals whose rotations are usable, and
// `changed` flags exactly the joints that differ from the input.
#include <algorithm>
#include <vector>

#include "fuzz.h"
#include "ikpd/rig/rig.h"

using namespace ikpd;
using namespace ikpd::fuzz;
using namespace ikpd::rig;

namespace {
LocalTransform Local(Input& in, bool finite) {
  LocalTransform t;
  t.translation = finite ? in.Vec3() : in.MaybeNonFiniteVec3();
  t.rotation = in.Quat();
  if (in.Int(0, 3) == 0) t.scale = glm::vec3(in.Range(0.1f, 3.0f));
  return t;
}

std::vector<int> Joints(Input& in, int n, int count) {
  std::vector<int> joints;
  int at = in.Int(-1, n - 1);
  for (int k = 0; k < count; ++k) {
    joints.push_back(at);
    at = in.Int(0, 3) == 0 ? in.Int(-1, n) : at + 1;  // mostly a straight run
  }
  return joints;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  const int n = in.Int(1, 12);
  std::vector<int> parents(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) parents[static_cast<std::size_t>(i)] = in.Int(0, 7) == 0 ? in.Int(-2, n) : i - 1 - in.Int(0, 1);
  for (int i = 0; i < n; ++i) parents[static_cast<std::size_t>(i)] = std::max(parents[static_cast<std::size_t>(i)], -2);
  Skeleton skeleton;
  const Status built = skeleton.Init(parents);
  FUZZ_CHECK(NamesParameter(built), "skeleton error without a parameter: %s", built.error);
  if (!built) return 0;

  std::vector<LocalTransform> rest(static_cast<std::size_t>(n));
  for (LocalTransform& t : rest) t = Local(in, in.Int(0, 15) != 0);
  Rig rig;
  const Status init = rig.Init(skeleton, rest);
  FUZZ_CHECK(NamesParameter(init), "init error without a parameter: %s", init.error);
  if (!init) return 0;

  const int constraints = in.Int(0, 4);
  for (int c = 0; c < constraints; ++c) {
    // Every kind but grounding (grounding_fuzz): aim, twoBone, pseudoThreeBone, chain, lookAt, bodyLookAt, twist, avatar, springs.
    const int pick = in.Int(0, 8);
    const auto kind = pick == 8   ? ConstraintKind::kSprings
                      : pick == 7 ? ConstraintKind::kAvatar
                      : pick == 6 ? ConstraintKind::kTwist
                                  : static_cast<ConstraintKind>(pick);
    ConstraintSettings s = DefaultSettings(kind);
    const int counts[] = {1, 3, 4, in.Int(2, 5), in.Int(2, 4), in.Int(2, 4), in.Int(1, 5), in.Int(2, 7), in.Int(0, 1)};
    s.joints = Joints(in, n, counts[pick]);
    if (in.Int(0, 3) == 0) s.common.weight = in.MaybeNonFinite();
    if (in.Bool()) s.common.settleTime = in.Range(0.0f, 1.0f);
    if (in.Int(0, 3) == 0) s.common.enabled = false;
    if (in.Int(0, 5) == 0) s.common.forward = in.Axis();
    if ((kind == ConstraintKind::kLookAt || kind == ConstraintKind::kBodyLookAt) && in.Bool()) {
      // Eyes: mostly the joints after the head (valid), sometimes anything.
      const int head = s.joints.back(), count = in.Int(0, in.Int(0, 7) == 0 ? 3 : 2);
      for (int k = 0; k < count; ++k) s.eyes.push_back(in.Int(0, 3) == 0 ? in.Int(-1, n) : head + 1 + k);
      if (in.Int(0, 3) == 0) s.lookAt.eyeYaw = s.bodyLookAt.eyeYaw = in.MaybeNonFinite();
      if (in.Int(0, 3) == 0) s.lookAt.eyeSettleTime = s.bodyLookAt.eyeSettleTime = in.Range(0.0f, 0.5f);
    }
    if (kind == ConstraintKind::kChain && in.Int(0, 2) == 0) {
      // Limits on the canonical frames or the joints' own (docs/rig/rig.md, "Chain limits"): cones, Euler, none.
      s.chainLimitsLocal = in.Bool();
      s.chainLimits.resize(in.Bool() ? s.joints.size() : std::max<std::size_t>(s.joints.size(), 1) - 1);
      for (ikpd::JointLimit& l : s.chainLimits) {
        l.kind = static_cast<ikpd::JointLimit::Kind>(in.Int(0, 2));
        l.angle = in.Range(0.0f, 3.2f);
        l.axis = in.Vec3();
        l.min = glm::vec3(-in.Range(0.0f, 3.2f));
        l.max = glm::vec3(in.Range(0.0f, 3.2f));
      }
    }
    if (kind == ConstraintKind::kLookAt && in.Int(0, 2) == 0) {  // one settle time per joint, sometimes a wrong count or value
      s.lookAtSettleTimes.resize(s.joints.size() + (in.Int(0, 7) == 0 ? 1 : 0));
      for (float& t : s.lookAtSettleTimes) t = in.Int(0, 7) == 0 ? in.MaybeNonFinite() : in.Range(0.01f, 1.0f);
    }
    if (kind == ConstraintKind::kTwist) {  // a spread (sometimes not one), amounts (sometimes a wrong count or value)
      s.twist.spread = static_cast<ikpd::rig::TwistSpread>(in.Int(0, 7) == 0 ? in.Int(0, 255) : in.Int(0, 1));
      if (in.Bool()) {
        s.twistAmounts.resize(std::max<std::size_t>(s.joints.size(), 1) - 1 + (in.Int(0, 7) == 0 ? 1 : 0));
        for (float& a : s.twistAmounts) a = in.Int(0, 7) == 0 ? in.MaybeNonFinite() : in.Range(-1.0f, 1.0f);
      }
    }
    if (kind == ConstraintKind::kAvatar) {  // arms and legs (sometimes wrong counts), options (sometimes out of range)
      const int arms[] = {0, 6, 8, in.Int(1, 9)}, legs[] = {0, 6, in.Int(1, 7)};
      s.arms = Joints(in, n, arms[in.Int(0, 3)]);
      s.legs = Joints(in, n, legs[in.Int(0, 2)]);
      s.avatar.neck = in.Bool();
      if (in.Bool()) s.avatar.pelvisFollow = in.Int(0, 7) == 0 ? in.MaybeNonFinite() : in.Range(0.0f, 1.0f);
      if (in.Bool()) s.avatar.shoulderWeight = in.Range(0.0f, 1.0f);
      if (in.Bool()) s.avatar.crouchBack = in.Range(0.0f, 2.0f);
      if (in.Bool()) s.avatar.chestTurn = in.Int(0, 7) == 0 ? in.MaybeNonFinite() : in.Range(0.0f, 1.0f);
      if (in.Bool()) s.avatar.chestTurnLimit = in.Range(0.0f, 1.6f);
      if (in.Bool()) s.avatar.maxRootAngle = in.Int(0, 7) == 0 ? in.MaybeNonFinite() : in.Range(0.0f, 3.2f);
      if (in.Bool()) s.avatar.scale = in.Int(0, 7) == 0 ? in.MaybeNonFinite() : in.Range(0.0f, 10.5f);
      if (in.Bool()) s.avatar.armScale = in.Range(0.0f, 10.5f);
      if (in.Bool()) {  // the steps (docs/rig/avatar.md, "Steps")
        s.avatar.stepThreshold = in.Int(0, 7) == 0 ? in.MaybeNonFinite() : in.Range(0.0f, 2.0f);
        s.avatar.angleThreshold = in.Range(0.0f, 3.2f);
        s.avatar.stepPrediction = in.Range(0.0f, 1.0f);
        s.avatar.stepTime = in.Range(0.0f, 2.0f);
        s.avatar.stepHeight = in.Range(0.0f, 1.0f);
      }
      if (in.Bool()) {  // the arm stretch (docs/rig/avatar.md, "Arm stretch"), sometimes out of range
        s.avatar.armStretch = in.Int(0, 7) == 0 ? in.MaybeNonFinite() : in.Range(0.9f, 3.2f);
        s.avatar.armSoften = in.Range(-0.1f, 1.1f);
      }
    }
    if (kind == ConstraintKind::kSprings) {  // chains, colliders and per-joint parameters (sometimes wrong)
      const int chains = in.Int(1, 3);
      for (int k = 0; k < chains; ++k) {
        const int count = in.Int(in.Int(0, 7) == 0 ? 0 : 1, 5);
        const std::vector<int> chain = Joints(in, n, std::max(count, 1));
        s.legs.insert(s.legs.end(), chain.begin(), chain.end());
        s.springChains.push_back(count);
      }
      const int attached = in.Int(0, 2);
      for (int k = 0; k < attached; ++k) s.legs.push_back(in.Int(-1, n));
      if (in.Bool()) s.springs.tipLength = in.Int(0, 7) == 0 ? in.MaybeNonFinite() : in.Range(0.0f, 0.3f);
      if (in.Bool()) s.springs.joint.stiffness = in.Int(0, 7) == 0 ? in.MaybeNonFinite() : in.Range(0.0f, 4.0f);
      if (in.Bool()) s.springs.joint.dragForce = in.Range(0.0f, 1.0f);
      if (in.Bool()) s.springs.joint.gravityPower = in.Range(0.0f, 2.0f), s.springs.joint.gravityDir = in.Vec3();
      if (in.Bool()) s.springs.joint.hitRadius = in.Range(0.0f, 0.2f);
      if (in.Bool()) s.springs.wind = in.Bool() ? in.Vec3() : in.MaybeNonFiniteVec3();
      const int colliders = in.Int(0, 3);
      for (int k = 0; k < colliders; ++k) {
        ikpd::rig::SpringCollider c;
        c.joint = s.legs.empty() || in.Int(0, 7) == 0 ? in.Int(-1, n) : s.legs[static_cast<std::size_t>(in.Int(0, static_cast<int>(s.legs.size()) - 1))];
        // sphere, capsule, plane, insideSphere, insideCapsule; sometimes one past them (an error)
        c.shape = static_cast<ikpd::rig::SpringColliderShape>(in.Int(0, 15) == 0 ? 5 : in.Int(0, 4));
        c.offset = in.Vec3(), c.tail = in.Vec3();
        c.normal = in.Int(0, 7) == 0 ? (in.Bool() ? glm::vec3(0.0f) : in.MaybeNonFiniteVec3()) : in.Vec3();
        c.radius = in.Int(0, 7) == 0 ? in.MaybeNonFinite() : in.Range(0.0f, 0.5f);
        s.springColliders.push_back(c);
      }
      if (in.Int(0, 3) == 0) {
        s.springJoints.resize(s.legs.size());
        for (ikpd::rig::SpringJoint& j : s.springJoints) j.stiffness = in.Int(0, 7) == 0 ? in.MaybeNonFinite() : in.Range(0.0f, 4.0f);
      }
      if (in.Int(0, 2) == 0) {  // the colliders each chain meets (sometimes a count or a bit past them: an error)
        s.springChainColliders.resize(static_cast<std::size_t>(in.Int(0, 7) == 0 ? chains + 1 : chains));
        for (std::uint64_t& mask : s.springChainColliders) mask = static_cast<std::uint64_t>(in.Int(0, (1 << (colliders + 1)) - 1));
      }
    }
    const std::size_t before = rig.constraintCount();
    const Status added = rig.Add(s);
    FUZZ_CHECK(NamesParameter(added), "add error without a parameter: %s", added.error);
    FUZZ_CHECK(rig.constraintCount() == before + (added ? 1u : 0u), "a failed Add changed the rig");
  }
  for (ConstraintFrame& f : rig.frames()) {
    f.target = in.Bool() ? in.Vec3() : in.MaybeNonFiniteVec3();
    f.pole = in.Vec3();
    f.poleSet = in.Bool() ? 1.0f : 0.0f;
  }

  // An avatar's calibration from a sample (sometimes not finite): a named error or ratios in range, nothing changed.
  for (std::size_t c = 0; c < rig.constraintCount() + 1; ++c) {
    AvatarScales scales{2.0f, 3.0f};
    const glm::vec3 head = in.MaybeNonFiniteVec3(), left = in.Vec3(), right = in.MaybeNonFiniteVec3();
    const Status st = rig.CalibrateAvatar(c, in.Bool() ? Local(in, true) : LocalTransform{}, head, left, right, &scales);
    FUZZ_CHECK(NamesParameter(st), "calibration error without a parameter: %s", st.error);
    FUZZ_CHECK(st ? scales.scale > 0.0f && scales.scale <= 10.0f && scales.armScale > 0.0f && scales.armScale <= 10.0f
                  : scales.scale == 2.0f && scales.armScale == 3.0f, "calibration: scales %g %g", static_cast<double>(scales.scale),
               static_cast<double>(scales.armScale));
  }

  // An avatar's six targets: head, hands, then the full-body trackers (pelvis,
  // feet; often untracked, weight 0); sometimes not finite, a zero rotation, a bad weight.
  for (std::size_t k = 0; k < rig.targets().size(); ++k) {
    TargetPose& t = rig.targets()[k];
    t.position = in.Bool() ? in.Vec3() : in.MaybeNonFiniteVec3();
    t.rotation = in.Int(0, 15) == 0 ? glm::quat(0.0f, 0.0f, 0.0f, 0.0f) : in.Quat();
    t.weight = in.Int(0, 7) == 0 ? in.MaybeNonFinite() : in.Range(0.0f, 1.0f);
    if (k % ikpd::rig::kAvatarTargets >= ikpd::rig::kAvatarPelvis && in.Bool()) t.weight = 0.0f;
  }

  std::vector<LocalTransform> pose(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n));
  std::vector<std::uint8_t> changed(static_cast<std::size_t>(n));
  for (LocalTransform& t : pose) t = Local(in, in.Int(0, 15) != 0);
  LocalTransform root;
  if (in.Bool()) root = Local(in, true);
  const int frames = in.Int(1, 6);  // several: a moved root comes still (an avatar's settling steps)
  for (int f = 0; f < frames; ++f) {
    if (f > 0 && in.Int(0, 3) == 0) root = Local(in, true);  // the root moves (an avatar's planted feet step)
    const float dt = in.Int(0, 7) == 0 ? in.MaybeNonFinite() : in.Range(0.0f, 0.1f);
    if (!rig.grounds().empty() && in.Bool()) {  // an avatar's feet on ground (docs/rig/avatar.md, "Uneven ground")
      const Status probed = rig.Probe(pose, root);
      FUZZ_CHECK(probed || NamesParameter(probed), "probe error without a parameter: %s", probed.error);
      for (std::size_t i = 0; probed && i < rig.probes().size(); ++i) {
        FUZZ_CHECK(IsFinite(rig.probes()[i].sole) && IsFinite(rig.probes()[i].hip), "probe %zu: not finite", i);
      }
      for (GroundHit& g : rig.grounds()) {  // sometimes not finite (a named error), a wall, a zero normal
        g.hit = in.Bool() ? 1.0f : 0.0f;
        g.point = in.Int(0, 15) == 0 ? in.MaybeNonFiniteVec3() : in.Vec3();
        g.normal = in.Bool() ? glm::vec3(0.0f, 1.0f, 0.0f) : in.Vec3();
      }
    }
    const std::vector<LocalTransform> previous = out;
    const Status s = rig.Update(dt, pose, root, out, changed);
    FUZZ_TRACE("frame %d dt %g: %s\n", f, static_cast<double>(dt), s.error ? s.error : "ok");
    if (!s) {
      FUZZ_CHECK(NamesParameter(s), "update error without a parameter: %s", s.error);
      FUZZ_CHECK(std::memcmp(previous.data(), out.data(), sizeof(LocalTransform) * out.size()) == 0,
                 "output written on error: %s", s.error);
      continue;
    }
    for (std::size_t j = 0; j < out.size(); ++j) {
      FUZZ_CHECK(IsFinite(out[j].translation) && IsFinite(out[j].scale) && IsUsableRotation(out[j].rotation),
                 "joint %zu: unusable output", j);
      const bool differs = std::memcmp(&out[j], &pose[j], sizeof(LocalTransform)) != 0;
      FUZZ_CHECK(differs == (changed[j] != 0), "joint %zu: changed flag %d but differs %d", j, changed[j], differs);
    }
  }
  return 0;
}
