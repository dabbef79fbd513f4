// ikpd — grounding (docs/rig/grounding.md): feet that stand on uneven ground, for
// two or four legs. Each update takes the animated pose (world space) and one
// ground hit (point and normal) under each foot, and
//   1. raises or lowers each foot by the ground height under it relative to
//      the authored ground (the animated lift of a swinging foot kept),
//      turns its sole toward the ground normal within pitch/roll limits;
//   2. (four legs) pitches the pelvis to the slope between the hind pair
//      (legs 0–1) and the front pair (legs 2–3); the chest is carried;
//   3. lowers (or raises) the pelvis by what the lowest foot needs, within
//      [−maxPelvisDrop, maxPelvisRise], and further (within maxPelvisDrop)
//      until every leg reaches its foot;
//   4. keeps a stance foot exactly where it was planted (no sliding), its
//      sole on the ground itself, and blends it back to the animated foot
//      when it lifts;
//   5. solves each leg by two-bone IK (hip fixed, knee in its animated bend
//      plane, softened near full reach): the ankle (or, with a toe joint,
//      the toe) lands so the sole touches the ground.
// Every offset (each foot's height, rotation and plant slide, the pelvis
// height and pitch) goes through the exact-integrator PD (docs/pd/pd.md), so the
// result does not depend on the update rate; disabled, every offset blends
// out exactly and the output is then the input bit for bit.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "ikpd/common.h"
#include "ikpd/ik/two_bone.h"
#include "ikpd/pd/controllers.h"

namespace ikpd::rig {

// A ground hit under one foot (world space, 9 floats; JS rig.grounds).
//   hit: 0 = no ground (the foot keeps its animated pose), else a hit;
//   plant: < 0 auto (detected from the animated foot's speed and height),
//     >= 0.5 planted, else free (a per-foot flag or curve);
//   edge: where, as a fraction of this update's step in [0, 1], the ground
//     under the sole changed from the previous update's hit plane to this one
//     (an edge crossed: a step, a kerb), found by extra queries between the
//     previous probe and this one (ikpd/three does them); < 0: not known, a
//     change the plane's motion does not explain is taken at mid-step
//     (docs/rig/grounding.md, "Smoothing"). Must be finite and <= 1.
// A zero normal is taken as the character's up.
struct GroundHit {
  glm::vec3 point{0.0f};
  glm::vec3 normal{0.0f, 1.0f, 0.0f};
  float hit = 0.0f;
  float plant = -1.0f;
  float edge = -1.0f;
};
static_assert(sizeof(GroundHit) == 9 * sizeof(float));

// Per leg, what the ground query needs (world space, 6 floats; JS rig.probes):
// the animated sole point (ankle or toe minus its sole offset along up, moved
// horizontally to where the update will stand the foot: Grounding::standing) and
// the hip. Cast from hip + legLength·up down to sole − legLength·up.
struct GroundProbe {
  glm::vec3 sole{0.0f};
  glm::vec3 hip{0.0f};
};
static_assert(sizeof(GroundProbe) == 6 * sizeof(float));

constexpr std::size_t kMaxGroundLegs = 4;

// Settings (lengths in the character's model units; the job scales them by
// GroundingInput::scale). A NaN for a derived default takes it from the
// shortest leg L (hip→knee→ankle at rest): maxPelvisDrop 0.35·L,
// maxPelvisRise 0.1·L, plantHeight 0.03·L, unplantRadius 0.15·L (the factors below).
inline constexpr float kDerivedPelvisDrop = 0.35f;
inline constexpr float kDerivedPelvisRise = 0.1f;
inline constexpr float kDerivedPlantHeight = 0.03f;
inline constexpr float kDerivedUnplantRadius = 0.15f;
struct GroundingSettings {
  std::size_t legs = 2;        // 2 or 4 (four: 0–1 hind, 2–3 front)
  std::size_t legJoints = 3;   // 3: [hip, knee, ankle]; 4: [hip, knee, ankle, toe]
  std::array<float, kMaxGroundLegs> soleOffsets{};  // > 0 each: effector height above its sole
  float groundHeight = 0.0f;   // the authored ground: the model-space plane up·p = groundHeight
  float maxPelvisDrop = std::numeric_limits<float>::quiet_NaN();  // >= 0
  float maxPelvisRise = std::numeric_limits<float>::quiet_NaN();  // >= 0
  float maxFootPitch = 0.7f;   // radians in [0, π/2]: also the body pitch limit (four legs)
  float maxFootRoll = 0.5f;    // radians in [0, π/2]
  float plantSpeed = 0.2f;     // model units/s >= 0: an auto stance foot moves slower
  float plantHeight = std::numeric_limits<float>::quiet_NaN();  // >= 0: and lifts less
  // >= 0: a planted foot's lock follows its animated sole once it drifts
  // farther than this (horizontally), so it is released by a glide, never a jump.
  float unplantRadius = std::numeric_limits<float>::quiet_NaN();
  float soften = 0.02f;        // [0, 1]: two-bone soft-IK zone near full reach
  float weight = 1.0f;         // [0, 1]: scales every offset
  float settleTime = 0.1f;     // seconds >= 0 (0: no smoothing)
  float damping = 1.0f;        // damping ratio > 0
  float blendOutTime = 0.1f;   // seconds >= 0

  // Errors name the option: "legs: must be 2 or 4", "soleOffsets[1]: must be
  // finite and > 0", "maxPelvisDrop: must be a finite number >= 0" (after defaults).
  Status Validate() const;
};

// One update's input (world space). `legs` holds legs·legJoints transforms;
// `grounds` one hit per leg. `chest` (four legs) is carried by the pelvis.
struct GroundingInput {
  Transform pelvis;
  std::span<const Transform> legs;
  std::span<const GroundHit> grounds;
  float scale = 1.0f;  // model → world length scale (> 0)
  // World point on the authored ground (the root's groundHeight plane).
  glm::vec3 groundOrigin{0.0f};
  glm::vec3 up{0.0f, 1.0f, 0.0f};       // world up (normalized by the job; zero: +Y)
  glm::vec3 forward{0.0f, 0.0f, 1.0f};  // world character forward (feet pitch about forward × up)
  bool enabled = true;
};

// Output: world rotations of each leg's hip, knee and ankle (a toe follows its
// ankle), positions rebuilt; the pelvis's world transform.
struct GroundingOutput {
  Transform* pelvis = nullptr;
  std::span<Transform> legs;
};

// Per-frame report (the rig's ConstraintResult).
struct GroundingReport {
  float maxPlantedError = 0.0f;  // largest distance of a planted sole from its target (world)
  int planted = 0;
  bool reached = false;          // a foot is planted, and every planted sole within 1 mm of its target
};

// Guarantees: finite output for finite input; bone lengths kept; no leg past
// its full reach (two-bone clamps, softened); pelvis offset in [−maxPelvisDrop,
// maxPelvisRise]·scale; a planted foot's sole does not move (world) while its
// leg reaches; frame-rate independent for a still pose and ground (exact
// integrator); no allocation in Update. Degenerate input: hit 0 → that foot's
// offsets blend to zero (animated pose); a normal with a tiny up component
// (|n·up| < 0.1, a wall) → no hit; zero normal → up; a straight leg → the
// knee bends toward `forward`; zero-length bones → the leg is carried,
// never an error; dt = 0 → no smoothing step, plant state kept; a pose or hit
// so large that the offsets overflow float → "legs: pose out of range".
// Errors change nothing (state, output): "dt", "legs", "grounds",
// "grounds[i].point", "grounds[i].normal", "grounds[i].hit", "grounds[i].plant", "grounds[i].edge",
// "scale", "up", "forward", "output".
class Grounding {
 public:
  // Validates; every offset starts at zero.
  Status Reset(const GroundingSettings& settings);
  // As Reset but keeps the smoothing and plant state when the leg layout is
  // the same (no pop when gains or limits change). On error nothing changes.
  Status Configure(const GroundingSettings& settings);
  Status Update(float dt, const GroundingInput& input, const GroundingOutput& output, GroundingReport* report = nullptr);
  // False once every offset is exactly zero and no foot is planted.
  bool active() const;
  const GroundingSettings& settings() const { return settings_; }
  // The smoothed pelvis offset along up (world units; negative: dropped).
  float pelvisOffset() const { return static_cast<float>(state_.pelvis.value()); }
  float bodyPitch() const { return static_cast<float>(state_.pitch.value()); }
  bool planted(std::size_t leg) const { return state_.legs[leg].planted; }
  // A planted leg's lock (world; the sole point it holds, horizontally).
  glm::vec3 lock(std::size_t leg) const { return state_.legs[leg].lock; }
  // Where the next update will stand leg `leg`'s sole (world), given its animated sole and the
  // authored ground's origin (as in GroundingInput), if that update is as long as the last and
  // its plant flag as the last one: at its lock while it stays planted, else at the animated
  // sole carried by its slide (a released lock gliding back). Where its ground is queried.
  glm::vec3 standing(std::size_t leg, const glm::vec3& sole, const glm::vec3& groundOrigin, const glm::vec3& up, float scale) const;

 private:
  struct Leg {
    pd::ScalarPD height;
    pd::QuatPD rotation;
    std::array<pd::ScalarPD, 3> slide;  // world offset of a released plant
    glm::vec3 lock{0.0f};   // planted sole point (world)
    glm::vec3 previous{0.0f};  // last animated sole (world)
    glm::vec3 at{0.0f};        // on ground: where the sole stood (world), on the plane below
    glm::vec3 point{0.0f}, normal{0.0f};  // on ground: the last hit's plane (normal unit, toward up)
    float base = 0.0f;         // on ground: the exact height offset (the height PD holds the residual)
    float plant = -1.0f;       // the last hit's plant flag
    bool grounded = false;     // on ground at the last update
    bool planted = false;
    bool seen = false;
  };
  struct State {
    std::array<Leg, kMaxGroundLegs> legs{};
    pd::ScalarPD pelvis, pitch;
    pd::ScalarPD weight;     // the weight in force (smoothed; zero once released)
    glm::vec3 origin{0.0f};  // last groundOrigin (the root's motion, for stance)
    float step = 0.0f;       // the last update's dt > 0
    float plantHeight = 0.0f, length = 0.0f;  // the last update's plantHeight (world) and shortest leg
    bool seen = false;
    // The last update's input, the start of the next one's sub-steps (grounding.cc).
    Transform pelvisBefore;
    std::array<Transform, kMaxGroundLegs * 4> legsBefore{};
    std::array<GroundHit, kMaxGroundLegs> groundsBefore{};
  };
  struct Desired;  // per-update scratch (grounding.cc)

  Status Apply(const GroundingSettings& settings, bool keepState);
  Status Check(float dt, const GroundingInput& in, const GroundingOutput& out) const;
  // One step of the stages (grounding_solve.cc); the output only at a frame's last step.
  Status Advance(float dt, const GroundingInput& in, const GroundingOutput* out, GroundingReport* report);
  static bool FootMoved(const Leg& leg);
  glm::vec3 SlideAfter(const Leg& leg, float dt, const glm::vec3& up, bool release) const;
  bool Stance(const Leg& leg, float plant, const glm::vec3& sole, float lift, const glm::vec3& rootStep, float dt, float plantHeight,
              float tolerance, float scale, const glm::vec3& up) const;

  GroundingSettings settings_{};
  State state_{};
  TwoBoneSetup limb_;
};

}  // namespace ikpd::rig
