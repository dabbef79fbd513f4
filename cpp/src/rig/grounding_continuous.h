// Grounding: events between two frames taken where they happen, not at a
// frame's time (docs/rig/grounding.md, "Smoothing" and "Plant lock"): the
// pelvis's smoothing over a step in which feet crossed ground edges at known
// points (GroundHit::edge), and how far a lock the leg cannot reach is drawn.
// Included by grounding_solve.cc only.
#pragma once

#include <array>
#include <cstddef>

#include "ikpd/pd/controllers.h"

namespace ikpd::rig::grounding_detail {

// Whether any of the first `legs` feet of `d` (Grounding's per-update targets)
// jumps at an edge this step.
template <class Desired>
bool HasJumps(const Desired& d, std::size_t legs) {
  for (std::size_t i = 0; i < legs; ++i) {
    if (d.feet[i].jump != 0.0f) return true;
  }
  return false;
}

// The pelvis PD over one step (dt > 0): its target moves linearly from the
// previous one toward goal(−1) (every foot before its jump) and jumps by
// goal(e) − goal(e⁻) at each foot's edge e, ending at goal(1) (every jump taken);
// `goal(at)` is the pelvis's target with the jumps of the feet whose edge lies
// after `at` left out. The exact integrator is exact on each piece, so the
// result does not depend on where the frames fall. Returns the smoothed value.
template <class Desired, class Goal>
float SmoothAcrossEdges(pd::ScalarPD& pd, const Desired& d, std::size_t legs, float dt, const Goal& goal) {
  std::array<float, 4> edges{};  // the feet's edges, in order (at most four legs)
  std::size_t n = 0;
  for (std::size_t i = 0; i < legs && i < edges.size(); ++i) {
    if (d.feet[i].jump == 0.0f) continue;
    std::size_t k = n++;
    for (; k > 0 && edges[k - 1] > d.feet[i].edge; --k) edges[k] = edges[k - 1];
    edges[k] = d.feet[i].edge;
  }
  const double step = static_cast<double>(dt), start = pd.target(), base = goal(-1.0f);
  const double slope = (base - start) / step;
  double at = 0.0, carried = 0.0;  // where the last piece ended (s) and the jumps taken so far
  for (std::size_t k = 0; k < n; ++k) {
    const double end = static_cast<double>(edges[k]) * step;
    (void)pd.Update(end - at, start + slope * end + carried, slope);  // checked input: cannot fail
    carried = static_cast<double>(goal(edges[k])) - base;
    at = end;
  }
  (void)pd.Update(step - at, base + carried, slope);
  return static_cast<float>(pd.value());
}

// The share of a lock's slide kept when the leg cannot reach all of it: the
// largest k in [0, 1] with reachable(k) >= k, where reachable(k) is the share
// the leg reaches with the lock (and the ground it stands on, and so the pelvis
// it is reached from) at share k. Bisection, to 1/4096: a lock drawn at once
// at 30 Hz ends where one drawn a little each frame at 240 Hz does.
template <class Reachable>
float SharedKept(const Reachable& reachable) {
  float low = 0.0f, high = 1.0f;
  for (int k = 0; k < 12; ++k) {
    const float mid = 0.5f * (low + high);
    if (reachable(mid) >= mid) low = mid;
    else high = mid;
  }
  return low;
}

}  // namespace ikpd::rig::grounding_detail
