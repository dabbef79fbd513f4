// ikpd — N-bone chains in 3D: CCD and FABRIK with iterations, tolerance,
// per-joint rotation limits and an optional pole.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "ikpd/common.h"

namespace ikpd {

constexpr int kMaxChainIterations = 10000;
constexpr std::size_t kMaxChainJoints = 256;

enum class ChainMethod : std::uint8_t { kCcd = 0, kFabrik = 1 };

// A limit on joint i's local rotation L = parent⁻¹ · joint (world rotations;
// the root's parent is ChainJob::parentRotation).
//  - kCone: the bone's direction L·forward stays within `angle` radians of
//    `axis` (a direction in the parent's frame; zero means `forward`).
//  - kEuler: L's three.js 'XYZ' Euler angles are clamped to [min, max]
//    per axis (like three.js CCDIKSolver's rotationMin/rotationMax; a hinge
//    is min = max = 0 on two axes).
struct JointLimit {
  enum class Kind : std::uint8_t { kNone = 0, kCone = 1, kEuler = 2 };
  Kind kind = Kind::kNone;
  float angle = kPi;             // kCone, in [0, pi]
  glm::vec3 axis{0.0f};          // kCone
  glm::vec3 min{-kPi};           // kEuler, min <= max per axis
  glm::vec3 max{kPi};            // kEuler
};

struct ChainResult {
  bool reached = false;   // distance <= tolerance × chain length
  float distance = 0.0f;  // |tip − target| after solving
  int iterations = 0;     // iterations run
};

// Solves joints[0] (root, fixed) … joints[n−1] (tip, the end effector) so the
// tip reaches `target`. Bone lengths |p[i+1] − p[i]| are kept exactly (float
// rounding aside). Output rotations are the input ones turned by the smallest
// rotation that points each joint's `forward` axis at its child (so they are
// consistent with the positions); the tip joint keeps its rotation relative to
// its parent. Stops after `iterations` or when |tip − target| <= tolerance ×
// chain length (the sum of the bone lengths).
// With a `pole`, the solved chain is finally turned about the root→tip axis
// (the tip does not move) so its bend points toward `pole`; that turn is not
// subject to the root's limit. Degenerate input (zero-length bones, target at
// the root, pole on the axis) gives finite output. Run() never allocates.
// FABRIK without limits moves positions only and sets each rotation once from
// the final pose; it extrapolates along its linear convergence every other
// iteration (a valid pose near plain FABRIK's, in about half the iterations),
// and an out-of-reach target gives the straight line toward it in one iteration.
struct ChainJob {
  std::span<const Transform> joints;   // 2 <= n <= kMaxChainJoints, world space
  glm::vec3 target{0.0f};
  ChainMethod method = ChainMethod::kFabrik;
  int iterations = 20;                 // in [0, kMaxChainIterations]
  float tolerance = 1e-4f;             // >= 0, relative to the chain length
  std::span<const JointLimit> limits;  // empty, n − 1 or n entries (the tip's is ignored)
  std::optional<glm::vec3> pole;      // world point the chain bends toward
  glm::vec3 forward{1.0f, 0.0f, 0.0f};  // bone axis in joint space (seed: +X; three.js rigs: +Y), non-zero
  glm::quat parentRotation{1.0f, 0.0f, 0.0f, 0.0f};  // world rotation of the root's parent
  std::span<Transform> output;         // n entries, may not alias joints
  ChainResult* result = nullptr;       // optional

  Status Validate() const;
  Status Run() const;
};

}  // namespace ikpd
