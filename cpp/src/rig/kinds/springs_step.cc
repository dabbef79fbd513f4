// The springs kind's motion (springs.h; docs/rig/springs.md, "The model"):
// on a fixed 60 Hz clock, VRM's step for each tail (Verlet with 1 − dragForce,
// the pull of stiffness, gravity and wind, the tail put back on its rest
// length and pushed out of the colliders onto that length), the animated pose
// interpolated at the tick; between ticks, the tails shown on the way to the
// next tick, placed on the bones' lengths and outside the colliders.
#include <algorithm>
#include <cmath>

#include "../../ik/chain/rotation.h"
#include "springs.h"

namespace ikpd::rig::detail {

namespace {

SpringPose At(const SpringsState& s, std::size_t slot, float u) {
  const SpringPose& a = s.before[slot];
  const SpringPose& b = s.now[slot];
  if (u >= 1.0f) return b;
  const glm::quat to = glm::dot(a.rotation, b.rotation) < 0.0f ? -b.rotation : b.rotation;
  return {a.position + (b.position - a.position) * u, Unit(a.rotation * (1.0f - u) + to * u)};
}

// The point of the sphere (head, length) nearest x (on it) that lies outside
// the ball (c, r); x itself when no such point is needed or none exists.
glm::vec3 PushOut(const glm::vec3& x, const glm::vec3& head, float length, const glm::vec3& c, float r) {
  const glm::vec3 toC = c - head;
  const float d = glm::length(toC);
  if (!(d > 1e-9f) || d + length <= r || d >= length + r || length >= d + r) return x;
  const glm::vec3 u = toC / d;
  const float t = (d * d + length * length - r * r) / (2.0f * d);  // the circle's plane along u
  const float rho = std::sqrt(std::max(0.0f, length * length - t * t));
  glm::vec3 w = (x - head) - glm::dot(x - head, u) * u;
  float wl = glm::length(w);
  if (!(wl > 1e-9f * length)) {  // x on the line through the collider: any side
    w = std::abs(u.x) < 0.9f ? glm::cross(u, glm::vec3(1.0f, 0.0f, 0.0f)) : glm::cross(u, glm::vec3(0.0f, 1.0f, 0.0f));
    wl = glm::length(w);
  }
  return head + t * u + (rho / wl) * w;
}

// Every collider against the tail x (on the sphere (head, length)); a few
// passes, since pushing out of one capsule can move the nearest point of another.
glm::vec3 Collide(const SpringsState& s, float u, glm::vec3 x, const glm::vec3& head, float length, float hitRadius) {
  for (int pass = 0; pass < 3; ++pass) {
    bool moved = false;
    for (const SpringShape& shape : s.shapes) {
      const SpringPose p = At(s, shape.slot, u);
      const glm::vec3 a = p.position + p.rotation * shape.offset;
      glm::vec3 c = a;
      if (shape.capsule) {
        const glm::vec3 ab = p.rotation * (shape.tail - shape.offset);
        const float ab2 = glm::dot(ab, ab);
        if (ab2 > 0.0f) c = a + ab * std::clamp(glm::dot(x - a, ab) / ab2, 0.0f, 1.0f);
      }
      const float r = shape.radius + hitRadius;
      const glm::vec3 dv = x - c;
      if (!(glm::dot(dv, dv) < r * r)) continue;
      const glm::vec3 out = PushOut(x, head, length, c, r);
      moved = moved || out != x;
      x = out;
    }
    if (!moved) break;
  }
  return x;
}

// Bone b's frame at interpolation u: its head (the parent's placed tail), its
// rotation before the swing, its rest direction and length.
struct BoneFrame {
  glm::vec3 head{0.0f}, axis{0.0f};
  glm::quat q{1.0f, 0.0f, 0.0f, 0.0f};
  float length = 0.0f;
};

BoneFrame FrameOf(const SpringsState& s, std::size_t b, float u, float tipLength) {
  const SpringBone& j = s.bones[b];
  const SpringPose pose = At(s, j.slot, u);
  BoneFrame f;
  f.head = pose.position;
  f.q = pose.rotation;
  if (j.parent >= 0) {
    const std::size_t p = static_cast<std::size_t>(j.parent);
    f.head = s.shown[p];
    const glm::quat parent = At(s, s.bones[p].slot, u).rotation;
    f.q = Unit(s.solved[p] * (glm::conjugate(parent) * pose.rotation));
  }
  const glm::vec3 rest = j.tailSlot >= 0 ? At(s, static_cast<std::size_t>(j.tailSlot), u).position - pose.position
                                         : pose.rotation * (j.tipAxis * tipLength);
  f.length = glm::length(rest);
  f.axis = f.length > 1e-9f && IsFinite(f.length) ? f.q * (glm::conjugate(pose.rotation) * (rest / f.length)) : glm::vec3(0.0f);
  return f;
}

// Bone b's tail at x: put on its length from its head, out of the colliders, its solved rotation.
void Place(SpringsState& s, std::size_t b, float u, const BoneFrame& f, glm::vec3 x) {
  if (!(f.length > 1e-9f) || !IsFinite(f.length)) {  // a zero-length bone: its tail on its head
    s.shown[b] = f.head, s.solved[b] = f.q;
    return;
  }
  const glm::vec3 d = x - f.head;
  const float dl = glm::length(d);
  x = f.head + (dl > 1e-9f * f.length && IsFinite(dl) ? d * (f.length / dl) : f.axis * f.length);
  if (!s.shapes.empty()) x = Collide(s, u, x, f.head, f.length, s.bones[b].hitRadius);
  if (!IsFinite(x)) x = f.head + f.axis * f.length;
  s.shown[b] = x;
  s.solved[b] = Unit(chain_detail::Arc(f.axis, (x - f.head) / f.length) * f.q);
}

// One tick of VRM's step at interpolation u into `shown` (tails and previous unchanged).
void Tick(SpringsState& s, float u, float tipLength, const glm::vec3& wind, const glm::quat& worldToCenter) {
  constexpr float kTick = static_cast<float>(kSpringTick);
  for (std::size_t b = 0; b < s.bones.size(); ++b) {
    const SpringBone& j = s.bones[b];
    const BoneFrame f = FrameOf(s, b, u, tipLength);
    const glm::vec3 pull = j.stiffness * f.axis + j.gravityPower * (worldToCenter * j.gravityDir) + wind;
    Place(s, b, u, f, s.tails[b] + (s.tails[b] - s.previous[b]) * (1.0f - j.drag) + pull * kTick);
  }
}

// The tails shown a fraction `frac` of a tick past the last one (`shown`
// holding the next tick's, when frac > 0), on this frame's pose.
void Show(SpringsState& s, float frac, float tipLength) {
  for (std::size_t b = 0; b < s.bones.size(); ++b) {
    const BoneFrame f = FrameOf(s, b, 1.0f, tipLength);
    Place(s, b, 1.0f, f, frac > 0.0f ? s.tails[b] + (s.shown[b] - s.tails[b]) * frac : s.tails[b]);
  }
}

}  // namespace

int StepSprings(SpringsState& s, float dt, float tipLength, const glm::vec3& wind, const glm::quat& worldToCenter) {
  int ticks = 0;
  if (dt > 0.0f && IsFinite(dt)) {
    const double start = s.clock, length = static_cast<double>(dt);
    s.clock += length;
    // A tick every kSpringTick; the tolerance keeps 1/30 s two ticks in float.
    while (s.clock >= kSpringTick * (1.0 - 1e-5)) {
      if (ticks == kMaxSpringTicks) {  // a long pause: its remaining time dropped
        s.clock = 0.0;
        break;
      }
      const double at = kSpringTick * (ticks + 1) - start;  // the tick's time within this frame
      Tick(s, static_cast<float>(std::clamp(at / length, 0.0, 1.0)), tipLength, wind, worldToCenter);
      s.previous.swap(s.tails);
      s.tails.swap(s.shown);  // tails: this tick's; shown: scratch
      s.clock -= kSpringTick;
      ++ticks;
    }
    s.clock = std::max(s.clock, 0.0);
  }
  const float frac = static_cast<float>(s.clock / kSpringTick);
  if (frac > 1e-5f) Tick(s, 1.0f, tipLength, wind, worldToCenter);  // the next tick, on this frame's pose
  Show(s, frac > 1e-5f ? frac : 0.0f, tipLength);
  return ticks;
}

}  // namespace ikpd::rig::detail
