// Internal: the working state of one chain solve (SolveChain) and the stages the chain
// solvers share (see docs/ik/chains.md). ccd.cc, fabrik.cc and fabrik_fast.cc
// each drive these stages with their own iteration.
#pragma once

#include <array>
#include <cstddef>
#include <limits>
#include <span>

#include "ikpd/ik/chain.h"

namespace ikpd::chain_detail {

// One solve. The solve runs in normalized coordinates p' = (p − root) / scale,
// so huge and tiny inputs behave like unit-sized ones (no overflow, no
// underflow). Usually the scale is a power of two and the float difference
// p − root is exact up to one rounding, so float arithmetic suffices; the
// double path covers spreads beyond float range.
// Positions are solved in `pose` (the job's output, normalized until Finish());
// rotations in `pose` are world rotations, except where a stage says otherwise.
struct Chain {
  Chain(const ChainSetup& setup, const ChainFrame& frame, std::span<Transform> output);

  const ChainSettings& settings;
  const ChainFrame& frame;
  std::span<Transform> pose;  // the output
  std::size_t n;              // joints
  glm::vec3 forward;          // unit bone axis in joint space (prepared)
  glm::quat parent;           // unit world rotation of the root's parent
  glm::quat tipLocal{1.0f, 0.0f, 0.0f, 0.0f};  // tip rotation relative to the last bone

  glm::dvec3 origin{0.0};
  double scale = 1.0;
  bool floatScale = false;
  float inverseScale = 1.0f;  // 1 / scale when floatScale

  glm::vec3 target{0.0f};  // normalized
  glm::vec3 pole{0.0f};    // unit direction root → pole (only its direction matters); zero when none
  float length = 0.0f;     // sum of the bone lengths, normalized
  float tolerance = 0.0f;  // settings.tolerance × length
  std::array<float, kMaxChainJoints> lengths;  // bone i's length, normalized (i < n − 1)

  glm::vec3 Normalized(const glm::vec3& p) const;
  glm::vec3 Input(std::size_t i) const { return Normalized(frame.joints[i].position); }
  float Length(std::size_t i) const { return lengths[i]; }
  float Distance() const;  // |tip − target|, normalized
  // Joint i's limit, or null when it has none.
  const JointLimit* Limit(std::size_t i) const;
  bool HasLimits() const;
  // World rotation `rotation` of joint i (under parent rotation `parentRotation`) with its limit applied.
  glm::quat Limited(std::size_t i, const glm::quat& parentRotation, const glm::quat& rotation) const;
  // World rotation of joint i's parent (pose rotations are world rotations).
  glm::quat ParentOf(std::size_t i) const { return i == 0 ? parent : pose[i - 1].rotation; }
  // Joint i's input rotation made unit.
  glm::quat UnitInputRotation(std::size_t i) const;
};

// ---- stages (chain.cc) ----

// Sets the frame, the normalized target, pole, bone lengths, chain length and
// tolerance, and writes the normalized input positions into pose[i].position.
void Normalize(Chain& c);
// Pose rotations: the input ones made unit and turned so `forward` points at
// the child; sets tipLocal.
void Align(Chain& c);
// Forward kinematics from the root: pose[i].rotation holds local rotations on
// entry and world rotations on return; positions follow from the bone lengths.
void ForwardKinematics(Chain& c);
// True when the whole chain and the target lie on one line while the target
// is within reach: every joint's turn is then 0 or 180° and no method can
// leave the line.
bool StuckOnALine(const Chain& c);
// Bends the chain into a shallow arc off its line (toward the pole when there
// is one). `rotations`: whether pose rotations are world rotations to turn along.
void Unstick(Chain& c, bool rotations);
// Turns the chain about the root→tip axis so its bend points toward the pole.
void ApplyPole(Chain& c, bool rotations);
// The distance, reached flag and iterations for the caller; positions back in
// world units.
ChainResult Finish(Chain& c, int iterations);

// The iteration CCD and FABRIK with limits share: `step` until the tip is
// within tolerance or `budget` iterations (by default the settings') run out,
// unsticking a chain caught on the target's line. Returns the iterations run.
template <class Step>
int Iterate(Chain& c, Step step, int budget = -1) {
  int iterations = 0;
  float previous = std::numeric_limits<float>::infinity();
  if (budget < 0) budget = c.settings.iterations;
  for (int it = 0; it < budget; ++it) {
    const float distance = c.Distance();
    if (distance <= c.tolerance) break;
    // Only a chain that made no progress can be stuck on the target's line.
    if (previous - distance <= 1e-6f * c.length && StuckOnALine(c)) Unstick(c, true);
    previous = distance;
    step(it);
    iterations = it + 1;
  }
  return iterations;
}

// ---- solvers ----

ChainResult SolveCcd(Chain& c);         // ccd.cc
// ccd.cc: up to `budget` CCD sweeps from the current pose (pose rotations are
// world rotations along the bones, tipLocal set), for FABRIK without limits
// once it stalls short of a reachable target. Returns the sweeps run.
int FinishWithCcd(Chain& c, int budget);
ChainResult SolveFabrik(Chain& c);      // fabrik.cc: FABRIK with limits
ChainResult SolveFreeFabrik(Chain& c);  // fabrik_fast.cc: FABRIK without limits

}  // namespace ikpd::chain_detail
