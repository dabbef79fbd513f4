// The twist kind (twist.h): its amounts checked, the shares and rest
// rotations prepared, the solve: the last joint's twist measured against the
// first joint, each joint before the last turned about its line to the last
// joint to carry its share, the last joint's model rotation kept
// (docs/rig/twist.md).
#include "twist.h"

#include <algorithm>
#include <cmath>

#include "../fields.h"
#include "registry.h"

namespace ikpd::rig {

Status TwistSettings::Validate() const { return describe::CheckFields(*this); }

namespace detail {

namespace {

constexpr double kHalfTurn = 3.141592653589793, kTwoPi = 2.0 * kHalfTurn;

// The angle of q's twist about unit axis a (q = twist · swing), in (−π, π].
double TwistAngle(const glm::quat& q, const glm::vec3& a) {
  double angle = 2.0 * std::atan2(static_cast<double>(glm::dot(glm::vec3(q.x, q.y, q.z), a)), static_cast<double>(q.w));
  if (angle > kHalfTurn) angle -= kTwoPi;
  if (angle <= -kHalfTurn) angle += kTwoPi;
  return angle;
}

Status CheckOptions(const Setup&, const ConstraintSettings& s) {
  if (Status st = s.twist.Validate(); !st) return st;
  if (s.twistAmounts.empty()) return Ok();
  if (s.twistAmounts.size() != s.joints.size() - 1) return Error("amounts: needs one amount per joint but the last");
  for (const float a : s.twistAmounts) {
    if (!(a >= -1.0f && a <= 1.0f)) return Error("amounts: each must be in [-1, 1]");
  }
  return Ok();
}

void DetectAxes(const Setup&, Constraint&) {}  // the rig's joints in their own frames

// Shares: the amounts, else by spread; rest rotations from the rest pose.
Status Configure(const Setup& setup, Constraint& c, bool keepState) {
  TwistState& t = std::get<TwistState>(c.state);
  const ConstraintSettings& s = c.settings;
  const std::size_t n = s.joints.size() - 1;  // the joints before the last
  const ModelTransform& first = setup.Rest(s.joints[0]);
  const ModelTransform& last = setup.Rest(s.joints[n]);
  const glm::vec3 line = last.position - first.position;
  const float length2 = glm::dot(line, line);
  for (std::size_t k = 0; k < n; ++k) {
    float share = static_cast<float>(k + 1) / static_cast<float>(n);
    if (!s.twistAmounts.empty()) {
      share = s.twistAmounts[k];
    } else if (s.twist.spread == TwistSpread::kLength && length2 > 0.0f) {
      share = std::clamp(glm::dot(setup.Rest(s.joints[k + 1]).position - first.position, line) / length2, -1.0f, 1.0f);
    }
    t.shares[k] = share;
  }
  t.rest[0] = Unit(glm::conjugate(first.rotation) * last.rotation);
  for (std::size_t k = 1; k <= n; ++k) {
    t.rest[k] = Unit(glm::conjugate(setup.Rest(s.joints[k - 1]).rotation) * setup.Rest(s.joints[k]).rotation);
  }
  if (!keepState) t.seen = false;
  return ConfigureSmoothing(t.smooth, s.common, keepState);
}

void Clear(Constraint& c) {
  TwistState& t = std::get<TwistState>(c.state);
  ClearSmoothing(t.smooth);
  t.seen = false;
}

// The last joint's twist against the first, unwrapped against the last frame's.
double MeasureTwist(TwistState& t, const Transform* joints, std::size_t n, const glm::vec3& axis) {
  const glm::quat relative = Unit(glm::conjugate(joints[0].rotation) * joints[n].rotation * glm::conjugate(t.rest[0]));
  double twist = TwistAngle(relative, glm::conjugate(joints[0].rotation) * axis);
  if (t.seen) twist += kTwoPi * std::round((t.twist - twist) / kTwoPi);
  t.twist = twist;
  t.seen = true;
  return twist;
}

Outcome Solve(const Stage& stage, Constraint& c, float dt, const ConstraintFrame& raw, ConstraintResult& r) {
  TwistState& t = *std::get_if<TwistState>(&c.state);
  (void)SmoothInputs(t.smooth, c.settings.common, dt, raw);  // the weight (no target)
  const std::size_t n = c.settings.joints.size() - 1;
  Transform* joints = stage.jobOut;  // turned in place: positions and rotations of the joints
  std::copy(stage.jobIn, stage.jobIn + n + 1, joints);
  const glm::vec3 end = joints[n].position;
  const glm::vec3 line = end - joints[0].position;
  const float span = glm::length(line);
  r.reached = 1.0f;
  if (!(span > 1e-12f) || !std::isfinite(span)) {  // the last joint on the first: no line to twist about
    t.seen = false;
    r.distance = 0.0f;
    return {};  // nothing turns: the pose stands
  }
  const glm::vec3 axis0 = line / span;
  const double twist = MeasureTwist(t, joints, n, axis0);
  r.distance = static_cast<float>(twist);
  double before = 0.0;  // the share of the joint before
  for (std::size_t i = 0; i < n; ++i) {
    const glm::vec3 to = end - joints[i].position;
    const float d = glm::length(to);
    const glm::vec3 axis = d > 1e-6f * span ? to / d : axis0;
    // Joint i's twist against joint i − 1 (the first: none), set to its share's step.
    double own = 0.0;
    if (i > 0) {
      const glm::quat parent = joints[i - 1].rotation;
      own = TwistAngle(Unit(glm::conjugate(parent) * joints[i].rotation * glm::conjugate(t.rest[i])), glm::conjugate(parent) * axis);
    }
    const double share = static_cast<double>(t.shares[i]);
    const double turn = (share - before) * twist - own;
    before = share;
    const glm::quat q = glm::angleAxis(static_cast<float>(turn), axis);
    const glm::vec3 pivot = joints[i].position;
    for (std::size_t k = i; k <= n; ++k) {
      joints[k].rotation = Unit(q * joints[k].rotation);
      if (k > i && k < n) joints[k].position = pivot + q * (joints[k].position - pivot);
    }
  }
  for (std::size_t k = 0; k < n; ++k) stage.desired[k] = joints[k].rotation;
  stage.desired[n] = stage.jobIn[n].rotation;  // the last joint keeps its model rotation
  return {true, t.smooth.weightNow};
}

}  // namespace

const KindOps kTwistKind = {
    ConstraintKind::kTwist, "twist", 2, kMaxTwistJoints, /*eyes=*/false, /*positiveSettleTime=*/false, /*batch=*/false,
    /*movesPelvis=*/false, NoDefaults, NoArmsOrLegs, CheckOptions, DetectAxes, WritesAll, Configure, Clear, Solve, NoGroundLegs, NoProbe,
};

}  // namespace detail
}  // namespace ikpd::rig
