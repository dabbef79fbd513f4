// CCD (cyclic coordinate descent) for N-bone chains (see docs/chains.md).
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

// One sweep from the last joint to the root: each joint turns so the tip
// points at the target (then its limit applies). Joints nearer the root are
// untouched until their turn, so only the tip is tracked during the sweep and
// forward kinematics rebuilds the pose at the end.
void CcdSweep(Chain& c) {
  glm::vec3 tip = c.pose[c.n - 1].position;
  for (std::size_t i = c.n - 1; i-- > 0;) {
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

ChainResult SolveCcd(Chain& c) {
  Align(c);
  LimitInputPose(c);
  const int iterations = Iterate(c, [&](int) { CcdSweep(c); });
  if (c.job.pole) ApplyPole(c, true);
  return Finish(c, iterations);
}

}  // namespace ikpd::chain_detail
