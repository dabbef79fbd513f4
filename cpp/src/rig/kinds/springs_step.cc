// The springs kind's motion (springs.h; docs/rig/springs.md, "The model"):
// per sub-step, each tail's velocity and position advanced exactly under a
// constant force with exponential damping, the tail projected back onto its
// rest length, pushed out of the colliders, the velocity made tangent to the
// bone; the animated pose interpolated between the last frame and this one.
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

// One pass over the bones at interpolation u (1: this frame's pose); h = 0:
// no time passes (the tails only follow their heads).
void Pass(SpringsState& s, float u, float h, float tipLength, const glm::vec3& wind, const glm::quat& worldToCenter) {
  for (std::size_t b = 0; b < s.bones.size(); ++b) {
    const SpringBone& j = s.bones[b];
    const SpringPose pose = At(s, j.slot, u);
    glm::vec3 head = pose.position;
    glm::quat q = pose.rotation;  // the joint's rotation before its swing
    if (j.parent >= 0) {
      const std::size_t p = static_cast<std::size_t>(j.parent);
      head = s.tails[p];
      const glm::quat parent = At(s, s.bones[p].slot, u).rotation;
      q = Unit(s.solved[p] * (glm::conjugate(parent) * pose.rotation));
    }
    // The rest direction and length: to the tail joint, or the virtual tail.
    glm::vec3 rest;
    if (j.tailSlot >= 0) {
      rest = At(s, static_cast<std::size_t>(j.tailSlot), u).position - pose.position;
    } else {
      rest = pose.rotation * (j.tipAxis * tipLength);
    }
    const float length = glm::length(rest);
    s.passStart[b] = s.tails[b];
    if (!(length > 1e-9f) || !IsFinite(length)) {  // a zero-length bone: its tail on its head
      s.tails[b] = head, s.velocities[b] = glm::vec3(0.0f), s.solved[b] = q;
      continue;
    }
    const glm::vec3 axis = q * (glm::conjugate(pose.rotation) * (rest / length));
    glm::vec3 x = s.tails[b];
    glm::vec3 v = s.velocities[b];
    if (h > 0.0f) {
      // dv/dt = f − c·v over h, exactly (v then the step's velocity); the
      // tail moves by h·v, the velocity of a Verlet step (docs/rig/springs.md).
      const glm::vec3 gravity = worldToCenter * j.gravityDir;
      const glm::vec3 f = j.gain * (j.stiffness * axis + j.gravityPower * gravity + wind);
      const float ch = j.c * h;
      const float k1 = ch > 1e-4f ? -std::expm1(-ch) / j.c : h * (1.0f - 0.5f * ch);
      v = v * std::exp(-ch) + f * k1;
      x += v * h;
    }
    const glm::vec3 d = x - head;
    const float dl = glm::length(d);
    x = head + (dl > 1e-9f * length && IsFinite(dl) ? d * (length / dl) : axis * length);
    if (!s.shapes.empty()) x = Collide(s, u, x, head, length, j.hitRadius);
    const glm::vec3 dir = (x - head) / length;
    if (h > 0.0f) v = (x - s.passStart[b]) / h;  // the step's velocity, constraints included (Verlet's)
    if (!IsFinite(x) || !IsFinite(v)) x = head + axis * length, v = glm::vec3(0.0f);
    s.tails[b] = x, s.velocities[b] = v;
    s.solved[b] = Unit(chain_detail::Arc(axis, dir) * q);
  }
}

}  // namespace

int StepSprings(SpringsState& s, float dt, float tipLength, const glm::vec3& wind, const glm::quat& worldToCenter) {
  const bool moving = dt > 0.0f && IsFinite(dt);
  const int n = moving ? std::clamp(static_cast<int>(std::ceil(dt / kSpringSubStep - 1e-4f)), 1, kMaxSpringSubSteps) : 0;
  const float h = moving ? dt / static_cast<float>(n) : 0.0f;
  if (n == 0) {
    Pass(s, 1.0f, 0.0f, tipLength, wind, worldToCenter);
    return 0;
  }
  for (int k = 0; k < n; ++k) {
    Pass(s, static_cast<float>(k + 1) / static_cast<float>(n), h, tipLength, wind, worldToCenter);
  }
  return n;
}

}  // namespace ikpd::rig::detail
