// The springs kind (docs/rig/springs.md): chains of spring bones, each
// joint's tail moved by VRM's per-frame step on a fixed clock of kSpringTick
// (the animated pose interpolated at its ticks), shown between ticks by
// interpolating toward the next tick: the same motion at every frame rate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "../../simd/vec.h"
#include "ikpd/rig/springs.h"
#include "kind.h"
#include "limb.h"

namespace ikpd::rig::detail {

// The clock's tick (seconds: VRM's parameters are per frame at 60 Hz) and the
// most ticks one frame takes (a longer frame drops the rest of its time).
constexpr double kSpringTick = 1.0 / 60.0;
constexpr int kMaxSpringTicks = 12;
// Chains stepped side by side in SIMD lanes (springs_lanes.cc): 4 (1 without SIMD).
constexpr std::size_t kSpringLanes = simd::kLanes<simd::Quad>;

// A joint or collider pose in the center's space.
struct SpringPose {
  glm::vec3 position{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
};

// One simulated joint, prepared by Configure.
struct SpringBone {
  std::uint16_t slot = 0;     // its joint in c.joints
  std::int16_t parent = -1;   // the bone before it in its chain (index into bones), −1: the chain's root
  std::int16_t tailSlot = -1; // its tail's joint in c.joints, −1: a virtual tail (tipLength)
  float drag = 0.4f;
  float stiffness = 0.0f, gravityPower = 0.0f, hitRadius = 0.0f;
  glm::vec3 gravityDir{0.0f};  // world (unit or zero)
  glm::vec3 tipAxis{0.0f, 1.0f, 0.0f};  // virtual tail: its direction in the joint's frame (from its parent at rest)
  std::uint64_t colliders = ~std::uint64_t{0};  // bit k: it meets collider k (its chain's collider groups)
};

// A collider, prepared: its slot and its shape in that joint's frame.
struct SpringShape {
  std::uint16_t slot = 0;
  SpringColliderShape shape = SpringColliderShape::kSphere;
  glm::vec3 offset{0.0f}, tail{0.0f};
  glm::vec3 normal{0.0f, 0.0f, 1.0f};  // a plane's, unit
  float radius = 0.0f;
};

// A collider at one tick's interpolation: segment a + t·ab (a sphere: ab = 0), its radius
// (each tail adds its hitRadius to an outside shape, takes it from an inside one);
// a plane: through a, its unit normal n.
struct SpringBall {
  glm::vec3 a{0.0f}, ab{0.0f};
  float ab2 = 0.0f, radius = 0.0f;
  glm::vec3 n{0.0f};
  SpringColliderShape shape = SpringColliderShape::kSphere;
};

struct SpringsState {
  LimbSmoothing smooth;
  std::vector<SpringBone> bones;
  std::vector<SpringShape> shapes;
  int centerSlot = -1;            // −1: the rig's root (model space)
  // Simulation, in the center's space (sized by Configure, never per frame).
  std::vector<glm::vec3> tails, previous;  // per bone: its tail at the last tick and the one before
  std::vector<glm::vec3> shown;            // per bone: the tail shown this frame (scratch for a tick)
  std::vector<SpringPose> before, now;  // per c.joints slot: the animated pose at the last frame and this one
  std::vector<glm::quat> solved;        // per bone: its solved rotation (center space)
  std::vector<SpringPose> at;           // per slot: the animated pose at the tick being computed (scratch)
  bool atIsNow = false;                 // the tick is on this frame's pose: `now` holds it, `at` is not filled
  std::vector<SpringBall> balls;        // per collider: the same tick's (scratch)
  // The chains in lane groups (GroupSpringLanes): group g's bone of depth k in
  // lane j is laneBones[laneFirst[g] + k·kSpringLanes + j] (−1: none, a shorter chain).
  std::vector<std::int16_t> laneBones;
  std::vector<std::size_t> laneFirst, laneDepth;
  // The Rig's own gather (springs_pose.cc): the chains' joints walked down in
  // lane groups from their locals; group g's joint of depth k in lane j is
  // walkSlots[walkFirst[g] + k·kSpringLanes + j] (−1: none), its parent's model
  // transform walkParents[same] (kWalkChained: the lane's joint one depth up;
  // kWalkOrigin: none; else that skeleton joint's, from the rig).
  std::vector<std::int16_t> walkSlots;
  std::vector<int> walkParents;
  std::vector<std::size_t> walkFirst, walkDepth;
  std::vector<std::int16_t> walkBones;  // per walk entry: its bone (−1: none, or a tail only)
  std::vector<std::uint8_t> walkRows;   // per row (group and depth): kWalk* flags
  std::vector<int> slotWalk;            // per slot: its walk entry (−1: off the chains)
  // Per row, a lane block (x, y, z, w, each kSpringLanes floats): the model
  // rotation of each lane's joint and of its parent (the write-back's).
  std::vector<float> walkModel, walkParentModel;
  std::vector<std::int16_t> ancestorSlot;  // per bone: the slot of its nearest written ancestor (−1: none)
  bool ancestorsInLane = true;             // every bone's ancestor is none or the joint one row up in its lane
  double clock = 0.0;                   // seconds since the last tick, in [0, kSpringTick)
  bool seen = false;                    // `before` and the tails hold a frame (else the next starts from its pose)
  glm::quat worldToCenterBefore{1.0f, 0.0f, 0.0f, 0.0f};  // the last frame's world-to-center rotation
};

extern const KindOps kSpringsKind;

// One frame's motion (springs_step.cc): the ticks within dt seconds toward
// the pose in `now` (from `before`), then the tails shown and their solved
// rotations. Wind (world) and gravity go into the center's space by the
// world-to-center rotation at each tick's time: `worldToCenterBefore` at the
// frame's start to `worldToCenter` at its end, slerped (a tick on the frame's
// end takes `worldToCenter` itself). Returns the ticks taken.
int StepSprings(SpringsState& s, float dt, float tipLength, const glm::vec3& wind, const glm::quat& worldToCenter);

// walkParents' markers (joints are >= 0).
constexpr int kWalkChained = -1, kWalkOrigin = -2;
// walkRows' flags: every lane's parent is its joint one row up; every lane's
// bone has no written ancestor; every lane's bone has its joint one row up as its ancestor.
constexpr std::uint8_t kWalkRowChained = 1, kWalkRowNoAncestor = 2, kWalkRowAncestorUp = 4;

// The Rig's frame on its own pose (springs_pose.cc): the walk tables from the
// settings (Configure), the chains' joints into `now` (center space; their
// model rotations and their parents' kept for the write-back), and the bones'
// solved rotations turned into model space (desired) and written as locals
// weighted by `weight`; returns whether a local changed. The same floats as
// Rig's gather and write; desired is filled first where !ancestorsInLane.
void GroupSpringWalk(SpringsState& s, const Constraint& c, const Skeleton& skeleton);
void WalkSprings(SpringsState& s, const Constraint& c, const PoseAccess& pose, const glm::quat& toCenter,
                 const glm::vec3& centerPosition);
bool WriteSprings(const SpringsState& s, const Constraint& c, const PoseAccess& pose, float weight,
                  const glm::quat& centerRotation, glm::quat* desired);

// The pose of every slot at the tick being computed.
inline const SpringPose* SpringPoses(const SpringsState& s) { return s.atIsNow ? s.now.data() : s.at.data(); }
// One bone's tick into `shown` / its tail shown a fraction of a tick on, scalar
// (springs_step.cc): the lanes' fallback for a lane they cannot take.
void TickBone(SpringsState& s, std::size_t b, float tipLength, const glm::vec3& wind, const glm::quat& worldToCenter);
void ShowBone(SpringsState& s, std::size_t b, float frac, float tipLength);
// The lanes (springs_lanes.cc): the groups built from `bones` (Configure), and a
// tick or the shown tails over every bone, chain by chain, parents first.
void GroupSpringLanes(SpringsState& s);
void TickLanes(SpringsState& s, float tipLength, const glm::vec3& wind, const glm::quat& worldToCenter);
void ShowLanes(SpringsState& s, float frac, float tipLength);

}  // namespace ikpd::rig::detail
