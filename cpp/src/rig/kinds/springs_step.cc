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

// The point of the sphere (head, length) nearest x (on it) on the circle
// where it meets the sphere (c, r); where they do not meet but the sphere
// (head, length) lies outside the ball or holds it, its point nearest c
// (`touch`; continuous with the circle shrinking to it), else x itself.
glm::vec3 PushOut(const glm::vec3& x, const glm::vec3& head, float length, const glm::vec3& c, float r, bool touch = false) {
  const glm::vec3 toC = c - head;
  const float d = glm::length(toC);
  if (!(d > 1e-9f) || d + length <= r) return x;
  const glm::vec3 u = toC / d;
  if (d >= length + r || length >= d + r) return touch ? head + u * length : x;
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

// Out of a capsule (segment a + t·ab, radius r) on the sphere (head, length):
// onto the circle about the segment point c(t) whose pushed-out point has
// c(t) as its nearest (so it lies r from the segment), t by bisection on
// that fixed point, continuous while the head is outside the capsule (pushing
// out about x's own nearest point leaves it inside when the tail slides along).
glm::vec3 PushOutCapsule(const glm::vec3& x, const glm::vec3& head, float length, const glm::vec3& a, const glm::vec3& ab, float r) {
  const float ab2 = glm::dot(ab, ab);
  const auto param = [&](const glm::vec3& v) { return std::clamp(glm::dot(v - a, ab) / ab2, 0.0f, 1.0f); };
  const float t = param(x);
  glm::vec3 y = PushOut(x, head, length, a + ab * t, r, true);
  const float g = param(y) - t;
  if (!(std::abs(g) > 1e-6f)) return y;
  // param(y(t)) − t is ≥ 0 at t = 0 and ≤ 0 at t = 1: a root between x's own t and one end.
  float lo = g > 0.0f ? t : 0.0f, hi = g > 0.0f ? 1.0f : t;
  for (int k = 0; k < 24 && hi - lo > 1e-7f; ++k) {
    const float mid = 0.5f * (lo + hi);
    y = PushOut(x, head, length, a + ab * mid, r, true);
    (param(y) - mid > 0.0f ? lo : hi) = mid;
  }
  return PushOut(x, head, length, a + ab * (0.5f * (lo + hi)), r, true);
}

// Onto the free side of a plane (through a, unit normal n; the tail's radius r)
// on the sphere (head, length): the nearest point of the circle where the
// plane lifted by r cuts that sphere; where the whole sphere lies behind it,
// its point farthest along n.
glm::vec3 PushOutPlane(const glm::vec3& x, const glm::vec3& head, float length, const glm::vec3& a, const glm::vec3& n, float r) {
  const float t = r - glm::dot(head - a, n);  // the lifted plane, along n from the head
  if (t >= length) return head + n * length;
  if (t <= -length) return x;
  const float rho = std::sqrt(std::max(0.0f, length * length - t * t));
  glm::vec3 w = (x - head) - glm::dot(x - head, n) * n;
  float wl = glm::length(w);
  if (!(wl > 1e-9f * length)) {  // x straight behind the head: any side
    w = std::abs(n.x) < 0.9f ? glm::cross(n, glm::vec3(1.0f, 0.0f, 0.0f)) : glm::cross(n, glm::vec3(0.0f, 1.0f, 0.0f));
    wl = glm::length(w);
  }
  return head + t * n + (rho / wl) * w;
}

// Into a ball (c, r) on the sphere (head, length): its boundary on that sphere
// is the circle PushOut finds (the allowed cap is the other side of it), so
// the nearest point of the circle; where the sphere misses the ball, its point
// nearest c (`touch`).
glm::vec3 PushIntoSphere(const glm::vec3& x, const glm::vec3& head, float length, const glm::vec3& c, float r) {
  return PushOut(x, head, length, c, r, true);
}

// Into a capsule (segment a + t·ab, radius r) on the sphere (head, length):
// the boundary point whose nearest segment point is its circle's centre, the
// same fixed point PushOutCapsule bisects for (only the side allowed differs).
glm::vec3 PushIntoCapsule(const glm::vec3& x, const glm::vec3& head, float length, const glm::vec3& a, const glm::vec3& ab, float r) {
  return PushOutCapsule(x, head, length, a, ab, r);
}

constexpr int kCollidePasses = 8;
// A crevice's last-pass point held by no more than this (m; the bound the
// colliders' tests hold every tail to) is kept rather than moved to a free
// point that may be far round the sphere of its length.
constexpr float kCreviceSlack = 1e-4f;

bool Inside(SpringColliderShape s) { return s == SpringColliderShape::kInsideSphere || s == SpringColliderShape::kInsideCapsule; }

// A collider (springs.h's SpringBall) grown by a tail's hitRadius (an inside
// shape shrunk by it, to no less than its segment; a plane lifted by it).
struct Ball {
  glm::vec3 a{0.0f}, ab{0.0f}, n{0.0f};
  float ab2 = 0.0f, r = 0.0f;
  SpringColliderShape shape;
  Ball(const SpringBall& b, float hitRadius)
      : a(b.a), ab(b.ab), n(b.n), ab2(b.ab2),
        r(b.shape == SpringColliderShape::kPlane ? hitRadius : Inside(b.shape) ? std::max(0.0f, b.radius - hitRadius) : b.radius + hitRadius),
        shape(b.shape) {}
  glm::vec3 Nearest(const glm::vec3& x) const { return ab2 > 0.0f ? a + ab * std::clamp(glm::dot(x - a, ab) / ab2, 0.0f, 1.0f) : a; }
  // Whether x is on the wrong side (inside an outside shape, outside an inside one, behind a plane).
  bool Holds(const glm::vec3& x) const {
    if (shape == SpringColliderShape::kPlane) return glm::dot(x - a, n) < r - 1e-6f;
    const glm::vec3 d = x - Nearest(x);
    return Inside(shape) ? glm::dot(d, d) > r * r * (1.0f + 1e-6f) + 1e-12f : glm::dot(d, d) < r * r * (1.0f - 1e-6f);
  }
  // How far x is on the wrong side (m; <= 0: on the right side).
  float Depth(const glm::vec3& x) const {
    if (shape == SpringColliderShape::kPlane) return r - glm::dot(x - a, n);
    const float d = glm::length(x - Nearest(x));
    return Inside(shape) ? d - r : r - d;
  }
  // x (held) moved onto the nearest free point of the sphere (head, length): one function per shape.
  glm::vec3 Push(const glm::vec3& x, const glm::vec3& head, float length) const {
    switch (shape) {
      case SpringColliderShape::kSphere: return PushOut(x, head, length, a, r);
      case SpringColliderShape::kCapsule: return PushOutCapsule(x, head, length, a, ab, r);
      case SpringColliderShape::kPlane: return PushOutPlane(x, head, length, a, n, r);
      case SpringColliderShape::kInsideSphere: return PushIntoSphere(x, head, length, a, r);
      case SpringColliderShape::kInsideCapsule: return PushIntoCapsule(x, head, length, a, ab, r);
    }
    return x;
  }
};

// The animated pose of every slot and every collider at interpolation u, once per tick
// (each bone reads its own, its parent's and its tail's; each tail every collider).
void Prepare(SpringsState& s, float u) {
  s.atIsNow = u >= 1.0f;  // At(s, k, u) is now[k]: not copied
  if (!s.atIsNow) {
    for (std::size_t k = 0; k < s.at.size(); ++k) s.at[k] = At(s, k, u);
  }
  const SpringPose* pose = SpringPoses(s);
  for (std::size_t i = 0; i < s.shapes.size(); ++i) {
    const SpringShape& shape = s.shapes[i];
    const SpringPose& p = pose[shape.slot];
    SpringBall& b = s.balls[i];
    b.a = p.position + p.rotation * shape.offset;
    const bool capsule = shape.shape == SpringColliderShape::kCapsule || shape.shape == SpringColliderShape::kInsideCapsule;
    b.ab = capsule ? p.rotation * (shape.tail - shape.offset) : glm::vec3(0.0f);
    b.ab2 = glm::dot(b.ab, b.ab);
    b.radius = shape.radius;
    b.n = p.rotation * shape.normal;
    b.shape = shape.shape;
  }
}

// The point of the three spheres' meeting (p1, r1), (p2, r2), (p3, r3) nearest x (`other`: the farther of
// the two); false when they do not meet.
bool ThreeSpheres(const glm::vec3& p1, float r1, const glm::vec3& p2, float r2, const glm::vec3& p3, float r3, const glm::vec3& x,
                  glm::vec3& out, bool other = false) {
  const glm::vec3 e12 = p2 - p1;
  const float d = glm::length(e12);
  if (!(d > 1e-9f)) return false;
  const glm::vec3 ex = e12 / d;
  const float i = glm::dot(ex, p3 - p1);
  glm::vec3 ey = p3 - p1 - i * ex;
  const float el = glm::length(ey);
  if (!(el > 1e-9f)) return false;
  ey /= el;
  const float j = glm::dot(ey, p3 - p1);
  const float X = (r1 * r1 - r2 * r2 + d * d) / (2.0f * d);
  const float Y = (r1 * r1 - r3 * r3 + i * i + j * j) / (2.0f * j) - (i / j) * X;
  const float z2 = r1 * r1 - X * X - Y * Y;
  if (!(z2 >= 0.0f)) return false;
  const glm::vec3 ez = glm::cross(ex, ey), base = p1 + X * ex + Y * ey;
  const float z = std::sqrt(z2);
  out = (glm::dot(x - base, ez) >= 0.0f) != other ? base + z * ez : base - z * ez;
  return IsFinite(out);
}

// Every collider the bone meets (`mask`, its chain's) against the tail x (on the sphere (head, length)): passes
// until none holds it; where two hold it in turn (a crevice), the nearest
// point of the sphere on both colliders' surfaces that none holds; where a
// third holds every such point on x's side (a crevice of three) and the last
// pass's point is more than kCreviceSlack inside, the nearest free one of each
// collider's own push from where the tail came in and the meetings' other
// points; else (or where none is free: the tail shut in), the last pass's
// point (docs/rig/springs.md, "The model").
glm::vec3 Collide(const SpringsState& s, glm::vec3 x, const glm::vec3& head, float length, float hitRadius, std::uint64_t mask) {
  const glm::vec3 start = x;
  // Collider k is met when bit k of the bone's mask is set (one past 64: all).
  const auto meets = [&](std::size_t k) { return k >= 64 || ((mask >> k) & 1u) != 0; };
  bool held = false;
  for (int pass = 0; pass < kCollidePasses; ++pass) {
    held = false;
    for (std::size_t k = 0; k < s.balls.size(); ++k) {
      if (!meets(k)) continue;
      const Ball b(s.balls[k], hitRadius);
      if (!b.Holds(x)) continue;
      held = true;
      x = b.Push(x, head, length);
    }
    if (!held) return x;
  }
  const auto free = [&](const glm::vec3& y) {
    for (std::size_t k = 0; k < s.balls.size(); ++k) {
      if (meets(k) && Ball(s.balls[k], hitRadius).Holds(y)) return false;
    }
    return true;
  };
  if (free(x)) return x;
  glm::vec3 best = x;
  float bestGap = -1.0f;
  const auto crevices = [&](bool other) {
    for (std::size_t i = 0; i < s.balls.size(); ++i) {
      const Ball bi(s.balls[i], hitRadius);
      if (!meets(i) || bi.shape == SpringColliderShape::kPlane) continue;  // a plane's surface is no sphere: left to the last pass
      for (std::size_t k = i + 1; k < s.balls.size(); ++k) {
        const Ball bk(s.balls[k], hitRadius);
        if (!meets(k) || bk.shape == SpringColliderShape::kPlane) continue;
        glm::vec3 y = x;
        bool found = false;
        for (int refine = 0; refine < 6; ++refine) {  // a capsule's nearest point moves with y
          found = ThreeSpheres(head, length, bi.Nearest(y), bi.r, bk.Nearest(y), bk.r, y, y, other && refine == 0);
          if (!found) break;
        }
        if (!found || !free(y)) continue;
        const float gap = glm::length(y - start);
        if (bestGap < 0.0f || gap < bestGap) best = y, bestGap = gap;
      }
    }
  };
  const auto depth = [&](const glm::vec3& y) {
    float most = 0.0f;
    for (std::size_t k = 0; k < s.balls.size(); ++k) {
      if (meets(k)) most = std::max(most, Ball(s.balls[k], hitRadius).Depth(y));
    }
    return most;
  };
  crevices(false);
  if (bestGap < 0.0f && s.balls.size() > 2 && depth(x) > kCreviceSlack) {  // a crevice of three: each collider's own nearest free point, the far meetings
    for (std::size_t k = 0; k < s.balls.size(); ++k) {
      if (!meets(k)) continue;
      const glm::vec3 y = Ball(s.balls[k], hitRadius).Push(start, head, length);
      const float gap = glm::length(y - start);
      if (free(y) && (bestGap < 0.0f || gap < bestGap)) best = y, bestGap = gap;
    }
    crevices(true);
  }
  return best;
}

// Bone b's frame at interpolation u: its head (the parent's placed tail), its
// rotation before the swing, its rest direction and length.
struct SpringFrame {
  glm::vec3 head{0.0f}, axis{0.0f};
  glm::quat q{1.0f, 0.0f, 0.0f, 0.0f};
  float length = 0.0f;
};

SpringFrame FrameOf(const SpringsState& s, std::size_t b, float tipLength) {
  const SpringBone& j = s.bones[b];
  const SpringPose* at = SpringPoses(s);
  const SpringPose& pose = at[j.slot];
  SpringFrame f;
  f.head = pose.position;
  f.q = pose.rotation;
  if (j.parent >= 0) {
    const std::size_t p = static_cast<std::size_t>(j.parent);
    f.head = s.shown[p];
    const glm::quat parent = at[s.bones[p].slot].rotation;
    f.q = Unit(s.solved[p] * (glm::conjugate(parent) * pose.rotation));
  }
  const glm::vec3 rest = j.tailSlot >= 0 ? at[static_cast<std::size_t>(j.tailSlot)].position - pose.position
                                         : pose.rotation * (j.tipAxis * tipLength);
  f.length = glm::length(rest);
  f.axis = f.length > 1e-9f && IsFinite(f.length) ? f.q * (glm::conjugate(pose.rotation) * (rest / f.length)) : glm::vec3(0.0f);
  return f;
}

// Bone b's tail at x: put on its length from its head, out of the colliders, its solved rotation.
void Place(SpringsState& s, std::size_t b, const SpringFrame& f, glm::vec3 x) {
  if (!(f.length > 1e-9f) || !IsFinite(f.length)) {  // a zero-length bone: its tail on its head
    s.shown[b] = f.head, s.solved[b] = f.q;
    return;
  }
  const glm::vec3 d = x - f.head;
  const float dl = glm::length(d);
  x = f.head + (dl > 1e-9f * f.length && IsFinite(dl) ? d * (f.length / dl) : f.axis * f.length);
  if (!s.balls.empty()) x = Collide(s, x, f.head, f.length, s.bones[b].hitRadius, s.bones[b].colliders);
  if (!IsFinite(x)) x = f.head + f.axis * f.length;
  s.shown[b] = x;
  s.solved[b] = Unit(chain_detail::Arc(f.axis, (x - f.head) / f.length) * f.q);
}

}  // namespace

// One tick of VRM's step for bone b into `shown` (tails and previous unchanged), on the pose Prepare set.
void TickBone(SpringsState& s, std::size_t b, float tipLength, const glm::vec3& wind, const glm::quat& worldToCenter) {
  constexpr float kTick = static_cast<float>(kSpringTick);
  const SpringBone& j = s.bones[b];
  const SpringFrame f = FrameOf(s, b, tipLength);
  const glm::vec3 pull = j.stiffness * f.axis + j.gravityPower * (worldToCenter * j.gravityDir) + wind;
  Place(s, b, f, s.tails[b] + (s.tails[b] - s.previous[b]) * (1.0f - j.drag) + pull * kTick);
}

// Bone b's tail shown a fraction `frac` of a tick past the last one (`shown`
// holding the next tick's, when frac > 0), on this frame's pose (Prepare(s, 1)).
void ShowBone(SpringsState& s, std::size_t b, float frac, float tipLength) {
  const SpringFrame f = FrameOf(s, b, tipLength);
  Place(s, b, f, frac > 0.0f ? s.tails[b] + (s.shown[b] - s.tails[b]) * frac : s.tails[b]);
}

int StepSprings(SpringsState& s, float dt, float tipLength, const glm::vec3& wind, const glm::quat& worldToCenter) {
  // The center's turn within the frame (a head turning under centered hair):
  // gravity and wind at the tick's own time, so every rate sees the same turn.
  const glm::vec3 windNow = worldToCenter * wind;
  const auto tick = [&](float u) {
    if (u == 1.0f) return TickLanes(s, tipLength, windNow, worldToCenter);
    const glm::quat turn = Unit(glm::slerp(s.worldToCenterBefore, worldToCenter, u));
    TickLanes(s, tipLength, turn * wind, turn);
  };
  int ticks = 0;
  float lastU = -1.0f;  // the last tick's place within this frame (1: on this frame's pose)
  if (dt > 0.0f && IsFinite(dt)) {
    const double start = s.clock, length = static_cast<double>(dt);
    s.clock += length;
    // A tick every kSpringTick; the tolerance keeps 1/30 s two ticks in float.
    while (s.clock >= kSpringTick * (1.0 - 1e-5)) {
      if (ticks == kMaxSpringTicks) {  // a long pause: its remaining time dropped
        s.clock = 0.0;
        break;
      }
      // The tick's time within this frame; one within the clock's tolerance of the frame's
      // end is on this frame's pose (1/60 s as a float ends 8.7e-10 s after the tick).
      const double at = kSpringTick * (ticks + 1) - start;
      lastU = at >= length - kSpringTick * 1e-5 ? 1.0f : static_cast<float>(std::clamp(at / length, 0.0, 1.0));
      Prepare(s, lastU);
      tick(lastU);
      s.previous.swap(s.tails);
      s.tails.swap(s.shown);  // tails: this tick's; shown: scratch
      s.clock -= kSpringTick;
      ++ticks;
    }
    // A frame that ends within float rounding of a tick ends on it (1/60 s as a float
    // is 8.7e-10 s long: kept, the remainder would reach the tolerance after 192
    // frames and every later 60 Hz frame would take the look-ahead tick and Show).
    if (ticks > 0 && s.clock < kSpringTick * 1e-5) s.clock = 0.0;
  }
  const float frac = static_cast<float>(s.clock / kSpringTick);
  s.worldToCenterBefore = worldToCenter;
  if (lastU == 1.0f && !(frac > 1e-5f)) {
    // The last tick was on this frame's pose: its tails, placed and solved, are what is shown.
    std::copy(s.tails.begin(), s.tails.end(), s.shown.begin());
    return ticks;
  }
  Prepare(s, 1.0f);  // this frame's pose, once for the next tick and the tails shown
  if (frac > 1e-5f) TickLanes(s, tipLength, windNow, worldToCenter);  // the next tick
  ShowLanes(s, frac > 1e-5f ? frac : 0.0f, tipLength);
  return ticks;
}

}  // namespace ikpd::rig::detail
