// CCD (cyclic coordinate descent) for N-bone chains, with a two-joint block
// step (see docs/ik/chains.md).
#include <algorithm>
#include <cmath>

#include "rotation.h"
#include "solver.h"

namespace ikpd::chain_detail {
namespace {

// Enforces the limits on the input pose: local rotations, limited from the
// tip toward the root, then forward kinematics.
void LimitInputPose(Chain& c) {
  for (std::size_t i = c.n - 1; i-- > 0;) {
    const glm::quat pr = c.ParentOf(i);
    c.pose[i].rotation = glm::conjugate(pr) * c.Limited(i, pr, c.pose[i].rotation);
  }
  ForwardKinematics(c);
}

// Share of the way from |tip − p_i| to |target − p_i| that one Bend() takes:
// 1 would put the tip on the target in the first block that can reach it
// (the last two bones doing all the work); a half spreads the motion over
// more joints and still converges in a few sweeps.
constexpr float kBendShare = 0.5f;

// Bends joint i + 1 (i + 1 < n − 1) so that |tip − p_i| moves kBendShare of
// the way toward |target − p_i| (clamped to what the two sides can span): in
// the triangle p_i, p_{i+1}, tip, whose sides from p_{i+1} are fixed, the law
// of cosines gives the angle at p_{i+1} for the new third side. Plain CCD
// cannot change that distance at joint i, which is why it creeps; together
// with the turn at joint i this is a two-joint block step. The distance moves
// monotonically, so the turn at joint i that follows never ends farther from
// the target than without the bend (without limits).
// Only IEEE arithmetic and square roots (no libm trigonometry), so native and
// WebAssembly builds give the same result.
// `tip` is updated; pose[i + 1].rotation is local (to pose[i].rotation) on
// entry and exit. A straight or folded pair (no bend plane) is left alone.
void Bend(Chain& c, std::size_t i, glm::vec3* tip) {
  const glm::vec3 p = c.pose[i].position;
  const glm::vec3 a = c.pose[i + 1].position - p;
  const glm::vec3 b = *tip - c.pose[i + 1].position;
  const float la = c.Length(i);
  const float lb = glm::length(b);
  if (!(la > 1e-6f * c.length) || !(lb > 1e-6f * c.length)) return;
  const glm::vec3 ua = a / la;
  const glm::vec3 e = b - ua * glm::dot(ua, b);  // b's part across bone i: the bend plane
  const float le = glm::length(e);
  if (!(le > 1e-6f * lb)) return;
  const float now = glm::distance(*tip, p);
  const float want = glm::clamp(glm::distance(c.target, p), std::abs(la - lb), la + lb);
  const float next = now + kBendShare * (want - now);
  // |tip − p_i|² = la² + lb² + 2·la·lb·cos φ, φ the angle between bone i and b.
  const float cosine = glm::clamp((next * next - la * la - lb * lb) / (2.0f * la * lb), -1.0f, 1.0f);
  const float sine = std::sqrt(1.0f - cosine * cosine);
  const glm::vec3 bent = ua * (lb * cosine) + e * (lb * sine / le);
  const glm::quat pr = c.pose[i].rotation;  // world (joint i is untouched so far this sweep)
  const glm::quat r = glm::normalize(pr * c.pose[i + 1].rotation);
  const glm::quat turned = c.Limited(i + 1, pr, glm::normalize(Arc(b, bent) * r));
  *tip = c.pose[i + 1].position + (turned * glm::conjugate(r)) * b;
  c.pose[i + 1].rotation = glm::conjugate(pr) * turned;
}

// One sweep from the last joint to the root: each joint i turns so the tip
// points at the target (then its limit applies), after Bend() at its child.
// Joints nearer the root are untouched until their turn, so only the tip is
// tracked during the sweep and forward kinematics rebuilds the pose at the end.
void CcdSweep(Chain& c) {
  glm::vec3 tip = c.pose[c.n - 1].position;
  for (std::size_t i = c.n - 1; i-- > 0;) {
    if (i + 2 < c.n) Bend(c, i, &tip);
    const glm::vec3 p = c.pose[i].position;
    const glm::quat r = c.pose[i].rotation;
    const glm::quat pr = c.ParentOf(i);  // world rotation (ancestors are untouched this sweep)
    const glm::vec3 a = tip - p;
    glm::quat turned = glm::normalize(Arc(a, c.target - p) * r);
    turned = c.Limited(i, pr, turned);
    tip = p + (turned * glm::conjugate(r)) * a;
    c.pose[i].rotation = glm::conjugate(pr) * turned;  // local, for ForwardKinematics
  }
  ForwardKinematics(c);
}

}  // namespace

int FinishWithCcd(Chain& c, int budget) { return Iterate(c, [&](int) { CcdSweep(c); }, budget); }

ChainResult SolveCcd(Chain& c) {
  Align(c);
  LimitInputPose(c);
  const int iterations = Iterate(c, [&](int) { CcdSweep(c); });
  if (c.frame.pole) ApplyPole(c, true);
  return Finish(c, iterations);
}

}  // namespace ikpd::chain_detail
