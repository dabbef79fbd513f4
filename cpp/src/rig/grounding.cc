// Grounding: settings, state, input checks and stance (docs/rig/grounding.md).
// The per-frame stages are in grounding_solve.cc.
#include "ikpd/rig/grounding.h"

#include <cmath>
#include <cstdio>

#include "body_parts.h"
#include "fields.h"

namespace ikpd::rig {

namespace {
using body_detail::Horizontal;
bool FiniteAtLeast(float v, float min) { return std::isfinite(v) && v >= min; }

using describe::CheckRange;
using describe::FirstError;
using S = GroundingSettings;

// NaN is a derived default (resolved per update from the legs); any other value
// must lie in the described range.
template <describe::FieldName Name>
Status CheckDerived(float v) {
  return std::isnan(v) ? Ok() : CheckRange<S, Name>(v);
}
}  // namespace

Status GroundingSettings::Validate() const {
  if (legs != 2 && legs != 4) return Error("legs: must be 2 or 4 legs");
  if (legJoints != 3 && legJoints != 4) return Error("legs: each leg needs 3 or 4 joints ([hip, knee, ankle, toe?])");
  static const char* const kSole[kMaxGroundLegs] = {"soleOffsets[0]: must be finite and > 0", "soleOffsets[1]: must be finite and > 0",
                                                    "soleOffsets[2]: must be finite and > 0", "soleOffsets[3]: must be finite and > 0"};
  for (std::size_t i = 0; i < legs; ++i) {
    if (!(std::isfinite(soleOffsets[i]) && soleOffsets[i] > 0.0f)) return Error(kSole[i]);
  }
  if (const Status s = FirstError({CheckRange<S, "groundHeight">(groundHeight), CheckDerived<"maxPelvisDrop">(maxPelvisDrop),
                                   CheckDerived<"maxPelvisRise">(maxPelvisRise), CheckRange<S, "maxFootPitch">(maxFootPitch),
                                   CheckRange<S, "maxFootRoll">(maxFootRoll), CheckRange<S, "plantSpeed">(plantSpeed),
                                   CheckDerived<"plantHeight">(plantHeight), CheckRange<S, "soften">(soften),
                                   CheckDerived<"unplantRadius">(unplantRadius)});
      !s) {
    return s;
  }
  if (!(weight >= 0.0f && weight <= 1.0f)) return Error("weight: must be in [0, 1]");
  if (!FiniteAtLeast(settleTime, 0.0f)) return Error("settleTime: must be finite and >= 0");
  if (!(std::isfinite(damping) && damping > 0.0f)) return Error("damping: must be finite and > 0");
  if (!FiniteAtLeast(blendOutTime, 0.0f)) return Error("blendOutTime: must be finite and >= 0");
  return Ok();
}

Status Grounding::Reset(const GroundingSettings& settings) { return Apply(settings, false); }
Status Grounding::Configure(const GroundingSettings& settings) { return Apply(settings, true); }

Status Grounding::Apply(const GroundingSettings& settings, bool keepState) {
  if (Status s = settings.Validate(); !s) return s;
  pd::PdSettings pds;
  if (Status s = pd::SettingsFromSettleTime(settings.settleTime > 0.0f ? settings.settleTime : 1.0, settings.damping, &pds); !s) return s;
  pds.blendOutTime = settings.blendOutTime;
  // Slides, pelvis and pitch follow a moving target from the previous one (first-order
  // hold): a ramp is tracked alike at any rate (docs/rig/grounding.md, "Smoothing").
  pd::PdSettings linear = pds;
  linear.targetMotion = pd::TargetMotion::kLinear;
  TwoBoneSettings limb;
  limb.pole = TwoBonePole::kPoint;
  limb.soften = 0.0f;  // the job softens the reach itself, from the animated leg's (grounding_solve.cc)
  limb.endRotation = EndRotation::kWorld;
  TwoBoneSetup setup;
  if (Status s = Prepare(limb, &setup); !s) return s;
  const bool same = keepState && settings.legs == settings_.legs && settings.legJoints == settings_.legJoints;
  State next = same ? state_ : State{};
  // Smoothing turned on (settleTime 0 → > 0): the PDs already hold the offsets applied.
  for (Leg& leg : next.legs) {
    if (Status s = leg.height.Configure(pds); !s) return s;
    if (Status s = leg.rotation.Configure(pds); !s) return s;
    for (pd::ScalarPD& axis : leg.slide) {
      if (Status s = axis.Configure(linear); !s) return s;
    }
  }
  if (Status s = next.pelvis.Configure(linear); !s) return s;
  if (Status s = next.pitch.Configure(linear); !s) return s;
  if (Status s = next.weight.Configure(pds); !s) return s;
  settings_ = settings;
  state_ = next;
  limb_ = setup;
  return Ok();
}

// A leg's slide (world, horizontal) after this update: blended out when `release`d, else as it is.
glm::vec3 Grounding::SlideAfter(const Leg& leg, float dt, const glm::vec3& up, bool release) const {
  glm::vec3 slide(0.0f);
  for (std::size_t k = 0; k < 3; ++k) {
    pd::ScalarPD axis = leg.slide[k];
    if (release && axis.value() == 0.0 && axis.velocity() == 0.0) continue;
    if (release && settings_.settleTime == 0.0f) axis.Reset(0.0);
    else if (release) (void)axis.UpdateBlendOut(dt, 0.0);
    slide[static_cast<glm::length_t>(k)] = static_cast<float>(axis.value());
  }
  return Horizontal(slide, up);
}

// Stance: the flag, else slow and low (leaving it takes 1.5× either threshold). `rootStep`:
// the root's horizontal move over dt.
bool Grounding::Stance(const Leg& leg, float plant, const glm::vec3& sole, float lift, const glm::vec3& rootStep, float dt, float plantHeight,
                       float tolerance, float scale, const glm::vec3& up) const {
  if (plant >= 0.0f) return plant >= 0.5f;
  if (!(dt > 0.0f)) return leg.planted;
  // A stance foot may move up to half as fast as it travels against the root (a clip in
  // place on a moving root); a foot carried along with the root is not planted.
  const glm::vec3 step = leg.seen ? Horizontal(sole - leg.previous, up) : glm::vec3(0.0f);
  const float speed = glm::length(step) / dt, against = glm::length(step - rootStep) / dt, rootSpeed = glm::length(rootStep) / dt;
  const float k = leg.planted ? 1.5f : 1.0f;
  return lift <= k * plantHeight + tolerance && speed <= k * (settings_.plantSpeed * scale + 0.5f * std::min(rootSpeed, against));
}

glm::vec3 Grounding::standing(std::size_t leg, const glm::vec3& sole, const glm::vec3& groundOrigin, const glm::vec3& up, float scale) const {
  const Leg& st = state_.legs[leg];
  const glm::vec3 u = NormalizeOr(up, glm::vec3(0.0f, 1.0f, 0.0f));
  const glm::vec3 rootStep = state_.seen ? Horizontal(groundOrigin - state_.origin, u) : glm::vec3(0.0f);
  const bool stance = Stance(st, st.plant, sole, glm::dot(sole - groundOrigin, u), rootStep, state_.step, state_.plantHeight,
                             1e-6f * state_.length, scale, u);
  if (stance && st.planted) {
    const glm::vec3 to = st.lock - sole;
    return sole + to - glm::dot(to, u) * u;
  }
  return sole + SlideAfter(st, state_.step, u, !stance);
}

bool Grounding::active() const {
  if (state_.pelvis.value() != 0.0 || state_.pitch.value() != 0.0) return true;
  for (std::size_t i = 0; i < settings_.legs; ++i) {
    if (FootMoved(state_.legs[i])) return true;
  }
  return false;
}

Status Grounding::Check(float dt, const GroundingInput& in, const GroundingOutput& out) const {
  if (!std::isfinite(dt) || dt < 0.0f) return Error("dt: must be finite and >= 0");
  const std::size_t legs = settings_.legs, joints = legs * settings_.legJoints;
  if (in.legs.size() != joints) return Error("legs: needs legs × legJoints transforms");
  if (in.grounds.size() != legs) return Error("grounds: needs one hit per leg");
  if (out.pelvis == nullptr || out.legs.size() != joints) return Error("output: needs the pelvis and legs × legJoints transforms");
  if (out.legs.data() == in.legs.data()) return Error("output: must not alias the input");
  if (!(std::isfinite(in.scale) && in.scale > 0.0f)) return Error("scale: must be finite and > 0");
  if (!IsFinite(in.pelvis) || !IsUsableRotation(in.pelvis.rotation) || !IsFinite(in.groundOrigin)) return Error("pelvis: must be finite");
  if (!IsFinite(in.up) || in.up == glm::vec3(0.0f)) return Error("up: must be a finite non-zero vector");
  if (!IsFinite(in.forward)) return Error("forward: must be finite");
  for (const Transform& t : in.legs) {
    if (!IsFinite(t) || !IsUsableRotation(t.rotation)) return Error("legs: must be finite with non-zero rotations");
  }
  static const char* const kNames[kMaxGroundLegs][5] = {
      {"grounds[0].hit: must be finite", "grounds[0].plant: must be finite", "grounds[0].point: must be finite", "grounds[0].normal: must be finite", "grounds[0].edge: must be finite and <= 1"},
      {"grounds[1].hit: must be finite", "grounds[1].plant: must be finite", "grounds[1].point: must be finite", "grounds[1].normal: must be finite", "grounds[1].edge: must be finite and <= 1"},
      {"grounds[2].hit: must be finite", "grounds[2].plant: must be finite", "grounds[2].point: must be finite", "grounds[2].normal: must be finite", "grounds[2].edge: must be finite and <= 1"},
      {"grounds[3].hit: must be finite", "grounds[3].plant: must be finite", "grounds[3].point: must be finite", "grounds[3].normal: must be finite", "grounds[3].edge: must be finite and <= 1"}};
  for (std::size_t i = 0; i < legs; ++i) {
    const GroundHit& g = in.grounds[i];
    if (!std::isfinite(g.hit)) return Error(kNames[i][0]);
    if (!std::isfinite(g.plant)) return Error(kNames[i][1]);
    if (!(std::isfinite(g.edge) && g.edge <= 1.0f)) return Error(kNames[i][4]);
    if (g.hit == 0.0f) continue;
    if (!IsFinite(g.point)) return Error(kNames[i][2]);
    if (!IsFinite(g.normal)) return Error(kNames[i][3]);
  }
  return Ok();
}

}  // namespace ikpd::rig
