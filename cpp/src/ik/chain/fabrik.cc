// FABRIK with joint limits for N-bone chains: positions and rotations are
// solved together, each bone's turn limited (see docs/ik/chains.md). Chains
// without limits take the positions-only path in fabrik_fast.cc.
#include "rotation.h"
#include "solver.h"

namespace ikpd::chain_detail {
namespace {

void FabrikIteration(Chain& c) {
  const std::size_t n = c.n;
  // Backward: tip on the target, each joint pulled toward its child.
  c.pose[n - 1].position = c.target;
  for (std::size_t i = n - 1; i-- > 0;) {
    glm::vec3 d = c.pose[i].position - c.pose[i + 1].position;
    const float l = glm::length(d);
    d = l > 1e-12f ? d / l : -(c.pose[i].rotation * c.forward);
    c.pose[i].position = c.pose[i + 1].position + d * c.Length(i);
  }
  // Forward: root back in place, each bone turned toward its child's new place, limited.
  c.pose[0].position = glm::vec3(0.0f);
  glm::quat pr = c.parent;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const glm::quat r = c.pose[i].rotation;
    const glm::vec3 d = c.pose[i + 1].position - c.pose[i].position;
    glm::quat turned = glm::dot(d, d) > 1e-24f ? glm::normalize(Arc(r * c.forward, d) * r) : r;
    turned = c.Limited(i, pr, turned);
    c.pose[i].rotation = turned;
    c.pose[i + 1].position = c.pose[i].position + turned * (c.forward * c.Length(i));
    pr = turned;
  }
  c.pose[n - 1].rotation = glm::normalize(pr * c.tipLocal);
}

}  // namespace

ChainResult SolveFabrik(Chain& c) {
  Align(c);
  const int iterations = Iterate(c, [&](int) { FabrikIteration(c); });
  if (c.frame.pole) ApplyPole(c, true);
  return Finish(c, iterations);
}

}  // namespace ikpd::chain_detail
