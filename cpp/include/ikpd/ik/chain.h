// ikpd — N-bone chains in 3D: CCD and FABRIK with iterations, tolerance,
// per-joint rotation limits and an optional pole. The algorithms, their
// conventions and their convergence are described in docs/ik/chains.md.
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
// tip reaches `target`, all in world space.
//
// Guarantees, for input that passes Validate():
//  - output[0].position == joints[0].position (float rounding aside);
//  - bone lengths |p[i+1] − p[i]| are kept (float rounding aside);
//  - every output rotation is unit, and is the input rotation (made unit)
//    turned by the smallest rotation that points the joint's `forward` axis at
//    its child, so rotations and positions agree; the tip joint keeps its
//    rotation relative to its parent;
//  - the solve stops after `iterations` or as soon as
//    |tip − target| <= tolerance × L (L = the sum of the bone lengths), checked
//    before each iteration; `result` reports the final distance, whether it is
//    within tolerance, and the iterations run;
//  - every output is finite, for any finite input (huge and tiny coordinates
//    are solved in a normalized frame; outputs are clamped to the float range);
//  - Run() never allocates and does not modify its inputs.
// Methods:
//  - kFabrik (the default): FABRIK. Without limits it moves positions only,
//    extrapolating along its linear convergence every other iteration (a valid
//    pose near plain FABRIK's in about half the iterations), and sets each
//    rotation once from the final pose. With limits each bone's turn is
//    limited in the forward pass.
//  - kCcd: sweeps from the tip to the root; at each joint it first bends the
//    joint's child toward the triangle that puts the tip at the target's
//    distance, then turns the joint toward the target. Without limits a sweep
//    never moves the tip away from the target.
// With a `pole`, the solved chain is finally turned about the root→tip axis
// (the tip does not move) so its bend points toward `pole`; that turn is not
// subject to the root's limit.
// Limits make both methods approximate: the tip may stop short of a reachable
// target, and `reached` says so.
// Degenerate input:
//  - target out of reach: the chain straight toward it (FABRIK in one
//    iteration; CCD converges to it);
//  - chain and target on one line, target within reach: the chain is bent off
//    the line (toward the pole if any) when an iteration makes no progress;
//  - target at the root: solved like any reachable target;
//  - zero-length bones: kept at zero length; coincident joints keep their
//    input bone axis;
//  - two joints, or a pole on the root→tip axis, or a straight chain: the
//    pole has no effect;
//  - iterations = 0: the input pose with rotations aligned to the bones (for
//    kCcd, also with the limits applied);
//  - nearly opposite directions in a turn: the shortest arc to float
//    precision; exactly opposite: a half turn about a fixed perpendicular axis.
// Validate() errors (Run() returns them and leaves output and result
// untouched): fewer than 2 or more than kMaxChainJoints joints; output size
// ≠ n; non-finite positions; non-finite or zero rotations; non-finite target;
// unknown method; iterations outside [0, kMaxChainIterations]; negative or
// non-finite tolerance; limits not empty, n − 1 or n entries; cone angle
// outside [0, pi] or non-finite axis; Euler min > max or non-finite; non-finite
// pole; zero or non-finite forward; non-finite or zero parentRotation. Each
// message starts with the parameter's name.
// A ChainJob is its frame (what changes per frame) and its settings (what
// stays fixed), below, plus where it writes. To solve many frames with the
// same settings, Prepare a ChainSetup once and call SolveChain per frame
// (docs/ik/prepared-solvers.md): the same results bit for bit. `limits` is a
// view: the caller keeps the storage alive and unchanged while a setup
// prepared from it is used.
struct ChainSettings {
  ChainMethod method = ChainMethod::kFabrik;  // see Methods above
  int iterations = 20;                 // in [0, kMaxChainIterations]
  float tolerance = 1e-4f;             // >= 0, relative to the chain length
  std::span<const JointLimit> limits;  // empty, n − 1 or n entries for the frames' n joints (the tip's is ignored)
  glm::vec3 forward{1.0f, 0.0f, 0.0f};  // bone axis in joint space (three.js rigs: +Y), non-zero

  // Checks every setting (ChainJob::Validate's errors for these fields, same
  // text; the count of limits against the joints is the frame's check). Pure.
  Status Validate() const;
};

// What changes per frame: the joints, the target, the pole and the root's
// parent rotation.
struct ChainFrame {
  std::span<const Transform> joints;   // 2 <= n <= kMaxChainJoints, world space
  glm::vec3 target{0.0f};
  std::optional<glm::vec3> pole;       // world point the chain bends toward (only its direction from the root counts)
  glm::quat parentRotation{1.0f, 0.0f, 0.0f, 0.0f};  // world rotation of the root's parent
};

struct ChainJob {
  ChainFrame frame;
  ChainSettings settings;
  std::span<Transform> output;         // n entries, must not alias frame.joints
  ChainResult* result = nullptr;       // optional

  // Checks every input (the list above); the message names the parameter.
  // Pure: depends on this job only (no hidden state).
  Status Validate() const;
  // Validates, then writes output and *result; on error neither is touched.
  // Same as Prepare(settings) → SolveChain(frame).
  Status Run() const;
};

// Validated settings and what depends on them alone (the unit bone axis),
// computed once by Prepare. Plain data: copyable, no allocation. A
// default-constructed setup is not prepared (SolveChain rejects it).
class ChainSetup {
 public:
  bool prepared() const { return prepared_; }
  const ChainSettings& settings() const { return settings_; }
  const glm::vec3& unitForward() const { return forward_; }

 private:
  friend struct ChainSetupAccess;  // fills a setup from checked settings (chain.cc)
  ChainSettings settings_;
  glm::vec3 forward_{1.0f, 0.0f, 0.0f};
  bool prepared_ = false;
};

// Validates `settings` and derives *setup from them. On error *setup is left
// untouched. setup must not be null.
Status Prepare(const ChainSettings& settings, ChainSetup* setup);

// Solves one frame with prepared settings: checks the frame only ("setup: not
// prepared", then joints, output, target, the limits' count, pole,
// parentRotation, in ChainJob's words), then solves. Bit for bit ChainJob::Run
// with the same options and inputs. On error output and *result (optional)
// are left untouched. Never allocates; no hidden state.
Status SolveChain(const ChainSetup& setup, const ChainFrame& frame, std::span<Transform> output,
                  ChainResult* result = nullptr);

}  // namespace ikpd
