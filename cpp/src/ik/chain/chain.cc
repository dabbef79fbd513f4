#include "ikpd/ik/chain.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <cstdint>
#include <limits>
#include <cmath>

#include <glm/gtc/type_precision.hpp>
#include <glm/mat3x3.hpp>

#include "../../simd/vec.h"
#include "rotation.h"

namespace ikpd {
namespace {

using chain_detail::Arc;

// std::bit_cast is missing from Emscripten 3.1.6's libc++.
std::uint32_t BitsOf(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
float FloatOf(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}


// three.js Euler 'XYZ' (R = Rx·Ry·Rz) from a unit quaternion.
glm::vec3 EulerXYZ(const glm::quat& q) {
  const glm::mat3 m = glm::mat3_cast(q);  // m[column][row]
  const float m13 = m[2][0];
  const float y = std::asin(std::clamp(m13, -1.0f, 1.0f));
  if (std::abs(m13) < 0.9999999f) {
    return {std::atan2(-m[2][1], m[2][2]), y, std::atan2(-m[1][0], m[0][0])};
  }
  return {std::atan2(m[1][2], m[1][1]), y, 0.0f};
}

glm::quat FromEulerXYZ(const glm::vec3& e) {
  return glm::angleAxis(e.x, glm::vec3(1.0f, 0.0f, 0.0f)) * glm::angleAxis(e.y, glm::vec3(0.0f, 1.0f, 0.0f)) *
         glm::angleAxis(e.z, glm::vec3(0.0f, 0.0f, 1.0f));
}

// Returns the limited local rotation.
glm::quat ApplyLimit(const JointLimit& limit, const glm::quat& local, const glm::vec3& forward) {
  switch (limit.kind) {
    case JointLimit::Kind::kCone: {
      const glm::vec3 axis = chain_detail::SafeNormalize(limit.axis, forward);
      const glm::vec3 d = local * forward;
      const float c = glm::dot(d, axis);
      const float cosMax = std::cos(limit.angle);
      if (c >= cosMax) return local;
      glm::vec3 perp = d - axis * c;
      float lp = glm::length(perp);
      if (lp < 1e-6f) {  // pointing straight away from the axis: pick any side
        perp = glm::cross(axis, glm::vec3(1.0f, 0.0f, 0.0f));
        if (glm::dot(perp, perp) < 1e-4f) perp = glm::cross(axis, glm::vec3(0.0f, 1.0f, 0.0f));
        lp = glm::length(perp);
      }
      const glm::vec3 limited = axis * cosMax + (perp / lp) * std::sin(limit.angle);
      return glm::normalize(Arc(d, limited) * local);
    }
    case JointLimit::Kind::kEuler: {
      const glm::vec3 e = EulerXYZ(local);
      const glm::vec3 clamped = glm::clamp(e, limit.min, limit.max);
      if (clamped == e) return local;
      return FromEulerXYZ(clamped);
    }
    case JointLimit::Kind::kNone:
      break;
  }
  return local;
}

struct Solver {
  explicit Solver(const ChainJob& j)
      : job(j),
        n(j.joints.size()),
        forward(chain_detail::SafeNormalize(j.forward, glm::vec3(1.0f, 0.0f, 0.0f))),
        parent(chain_detail::SafeNormalize(j.parentRotation)) {}

  const ChainJob& job;
  std::size_t n;
  glm::vec3 forward;   // unit
  glm::quat parent;    // unit
  glm::quat tipLocal{1.0f, 0.0f, 0.0f, 0.0f};  // tip rotation relative to the last bone
  // False while FreeFabrik runs: output rotations are scratch space then, and
  // the rotations are rebuilt from the final positions.
  bool trackRotations = true;

  // The solve runs in normalized coordinates p' = (p − root) / scale, so huge
  // and tiny inputs behave like unit-sized ones (no overflow, no underflow).
  // Usually the scale is a power of two and the float difference p − root is
  // exact up to one rounding, so float arithmetic suffices; the double path
  // covers spreads beyond float range.
  glm::dvec3 origin{0.0};
  double scale = 1.0;
  glm::vec3 target{0.0f};
  glm::vec3 pole{0.0f};  // unit direction root → pole (only its direction matters); zero when none
  bool floatScale = false;
  float inverseScale = 1.0f;  // 1 / scale when floatScale

  glm::vec3 Normalized(const glm::vec3& p) const {
    if (floatScale) return (p - glm::vec3(origin)) * inverseScale;
    return glm::vec3((glm::dvec3(p) - origin) / scale);
  }
  glm::vec3 Input(std::size_t i) const { return Normalized(job.joints[i].position); }
  // Bone lengths in normalized units, cached for chains of up to kCached bones.
  static constexpr std::size_t kCached = 256;
  std::array<float, kCached> lengths;
  float InputLength(std::size_t i) const { return glm::distance(Input(i + 1), Input(i)); }
  float Length(std::size_t i) const { return i < kCached ? lengths[i] : InputLength(i); }

  // Writes the normalized input positions into output[i].position.
  void Normalize() {
    const glm::vec3 o = job.joints[0].position;
    origin = glm::dvec3(o);
    float extent = 0.0f;
    auto grow = [&](const glm::vec3& p) {
      const glm::vec3 d = glm::abs(p - o);
      extent = std::max(extent, std::max(d.x, std::max(d.y, d.z)));
    };
    for (const Transform& j : job.joints) grow(j.position);
    grow(job.target);
    const float root = std::max(std::abs(o.x), std::max(std::abs(o.y), std::abs(o.z)));
    if (extent >= 1e-30f && extent <= 1e30f && root <= 1e38f) {  // false for NaN (overflowed differences)
      // scale = 2^e with 2^e <= extent < 2^(e+1), from the float's exponent bits.
      const int e = static_cast<int>((BitsOf(extent) >> 23) & 0xffu) - 127;
      floatScale = true;
      scale = static_cast<double>(FloatOf(static_cast<std::uint32_t>(127 + e) << 23));
      inverseScale = FloatOf(static_cast<std::uint32_t>(127 - e) << 23);
    } else {
      double wide = 0.0;
      auto growWide = [&](const glm::vec3& p) {
        const glm::dvec3 d = glm::abs(glm::dvec3(p) - origin);
        wide = std::max(wide, std::max(d.x, std::max(d.y, d.z)));
      };
      for (const Transform& j : job.joints) growWide(j.position);
      growWide(job.target);
      scale = wide > 0.0 ? wide : 1.0;
    }
    for (std::size_t i = 0; i < n; ++i) job.output[i].position = Input(i);
    target = Normalized(job.target);
    // The pole is a direction from the root: it must not set the scale (a far
    // pole would shrink the chain toward float underflow).
    if (job.pole) {
      const glm::dvec3 d = glm::dvec3(*job.pole) - origin;
      const double m = std::max(std::abs(d.x), std::max(std::abs(d.y), std::abs(d.z)));
      pole = m > 0.0 ? glm::vec3(glm::normalize(d / m)) : glm::vec3(0.0f);
    }
    for (std::size_t i = 0; i + 1 < n && i < kCached; ++i) {
      lengths[i] = glm::distance(job.output[i + 1].position, job.output[i].position);
    }
  }

  void Denormalize() {
    if (floatScale) {  // |root| <= 1e38 and every |p| well below it: no overflow
      const glm::vec3 o(origin);
      const float s = static_cast<float>(scale);
      for (std::size_t i = 0; i < n; ++i) job.output[i].position = o + job.output[i].position * s;
      return;
    }
    constexpr double kMax = 3.4028234663852886e38;  // FLT_MAX: clamp instead of overflowing
    for (std::size_t i = 0; i < n; ++i) {
      const glm::dvec3 p = origin + glm::dvec3(job.output[i].position) * scale;
      job.output[i].position = glm::vec3(glm::clamp(p, glm::dvec3(-kMax), glm::dvec3(kMax)));
    }
  }
  const JointLimit* Limit(std::size_t i) const {
    if (i >= job.limits.size() || job.limits[i].kind == JointLimit::Kind::kNone) return nullptr;
    return &job.limits[i];
  }
  glm::quat Limited(std::size_t i, const glm::quat& parentRotation, const glm::quat& rotation) const {
    const JointLimit* limit = Limit(i);
    if (!limit) return rotation;
    return glm::normalize(parentRotation * ApplyLimit(*limit, glm::conjugate(parentRotation) * rotation, forward));
  }
  glm::quat ParentOf(std::size_t i) const { return i == 0 ? parent : job.output[i - 1].rotation; }

  // Input rotations, normalized and turned so `forward` points at the child.
  void Align() {
    for (std::size_t i = 0; i < n; ++i) job.output[i].rotation = chain_detail::SafeNormalize(job.joints[i].rotation);
    for (std::size_t i = 0; i + 1 < n; ++i) {
      glm::quat& r = job.output[i].rotation;
      r = glm::normalize(Arc(r * forward, job.output[i + 1].position - job.output[i].position) * r);
    }
    tipLocal = glm::conjugate(job.output[n - 2].rotation) * job.output[n - 1].rotation;
  }

  // Forward kinematics from the root; output[i].rotation holds local rotations on entry.
  void ForwardKinematics() {
    glm::quat r = parent;
    for (std::size_t i = 0; i + 1 < n; ++i) {
      r = glm::normalize(r * job.output[i].rotation);
      job.output[i].rotation = r;
      job.output[i + 1].position = job.output[i].position + r * (forward * Length(i));
    }
    job.output[n - 1].rotation = glm::normalize(r * tipLocal);
  }

  void CcdSweep() {
    glm::vec3 tip = job.output[n - 1].position;
    for (std::size_t i = n - 1; i-- > 0;) {
      const glm::vec3 p = job.output[i].position;
      const glm::quat r = job.output[i].rotation;
      const glm::quat pr = ParentOf(i);  // world rotation (ancestors are untouched this sweep)
      const glm::vec3 a = tip - p;
      glm::quat turned = glm::normalize(Arc(a, target - p) * r);
      turned = Limited(i, pr, turned);
      tip = p + (turned * glm::conjugate(r)) * a;
      job.output[i].rotation = glm::conjugate(pr) * turned;  // local, for ForwardKinematics
    }
    ForwardKinematics();
  }

  void FabrikIteration() {
    // Backward: tip on the target, each joint pulled toward its child.
    job.output[n - 1].position = target;
    for (std::size_t i = n - 1; i-- > 0;) {
      glm::vec3 d = job.output[i].position - job.output[i + 1].position;
      const float l = glm::length(d);
      d = l > 1e-12f ? d / l : -(job.output[i].rotation * forward);
      job.output[i].position = job.output[i + 1].position + d * Length(i);
    }
    // Forward: root back in place, each bone turned toward its child's new place, limited.
    job.output[0].position = glm::vec3(0.0f);
    glm::quat pr = parent;
    for (std::size_t i = 0; i + 1 < n; ++i) {
      const glm::quat r = job.output[i].rotation;
      const glm::vec3 d = job.output[i + 1].position - job.output[i].position;
      glm::quat turned = glm::dot(d, d) > 1e-24f ? glm::normalize(Arc(r * forward, d) * r) : r;
      turned = Limited(i, pr, turned);
      job.output[i].rotation = turned;
      job.output[i + 1].position = job.output[i].position + turned * (forward * Length(i));
      pr = turned;
    }
    job.output[n - 1].rotation = glm::normalize(pr * tipLocal);
  }

  // True when the whole chain and the target lie on one line while the target
  // is within reach: every joint's turn is then 0 or 180° and neither method
  // can leave the line.
  bool StuckOnALine(float length) const {
    if (n < 3) return false;
    const glm::vec3 root = job.output[0].position;
    glm::vec3 u = target - root;
    const float reach = glm::length(u);
    if (reach >= length) return false;
    if (reach > 1e-6f * length) {
      u /= reach;
    } else {
      u = job.output[n - 1].position - root;
      const float l = glm::length(u);
      if (!(l > 1e-6f * length)) return false;
      u /= l;
    }
    for (std::size_t i = 1; i < n; ++i) {
      const glm::vec3 v = job.output[i].position - root;
      if (glm::length(v - u * glm::dot(u, v)) > 1e-5f * length) return false;
    }
    return true;
  }

  // Bends the chain into a shallow arc off the line (toward the pole when there
  // is one): the root turns by +0.2 rad and the inner joints share −0.4 rad, so
  // the tip stays near the line and the solve can continue from a bent pose.
  void Unstick() {
    // Unit directions only, so no threshold depends on the chain's scale.
    const glm::vec3 root = job.output[0].position;
    using chain_detail::SafeNormalize;
    const glm::quat r0 = trackRotations ? job.output[0].rotation : SafeNormalize(job.joints[0].rotation);
    const glm::vec3 bone = SafeNormalize(r0 * forward, glm::vec3(1.0f, 0.0f, 0.0f));
    const glm::vec3 u = SafeNormalize(job.output[n - 1].position - root, SafeNormalize(target - root, bone));
    glm::vec3 axis = glm::cross(u, pole);
    if (glm::dot(axis, axis) < 1e-12f) {
      axis = glm::cross(u, glm::vec3(1.0f, 0.0f, 0.0f));
      if (glm::dot(axis, axis) < 1e-4f) axis = glm::cross(u, glm::vec3(0.0f, 1.0f, 0.0f));
    }
    axis = glm::normalize(axis);
    const float inner = -0.4f / static_cast<float>(n - 2);
    for (std::size_t i = 0; i + 1 < n; ++i) {
      const glm::quat q = glm::angleAxis(i == 0 ? 0.2f : inner, axis);
      const glm::vec3 pivot = job.output[i].position;
      for (std::size_t j = i; j < n; ++j) {
        job.output[j].position = pivot + q * (job.output[j].position - pivot);
        if (trackRotations) job.output[j].rotation = glm::normalize(q * job.output[j].rotation);
      }
    }
  }

  void ApplyPole() {
    const glm::vec3 root = job.output[0].position;
    const glm::vec3 axis = job.output[n - 1].position - root;
    const float la = glm::length(axis);
    if (!(la > 1e-12f)) return;
    const glm::vec3 u = axis / la;
    auto perp = [&](const glm::vec3& v) { return v - u * glm::dot(u, v); };
    glm::vec3 bend(0.0f);
    for (std::size_t i = 1; i + 1 < n; ++i) bend += perp(job.output[i].position - root);
    const glm::vec3 toPole = perp(pole);
    if (glm::dot(bend, bend) < 1e-20f || glm::dot(toPole, toPole) < 1e-20f) return;
    const float angle = std::atan2(glm::dot(u, glm::cross(bend, toPole)), glm::dot(bend, toPole));
    const glm::quat q = glm::angleAxis(angle, u);
    for (std::size_t i = 0; i < n; ++i) {
      job.output[i].position = root + q * (job.output[i].position - root);
      if (trackRotations) job.output[i].rotation = glm::normalize(q * job.output[i].rotation);
    }
  }

  // ---- FABRIK without limits: positions only; rotations rebuilt once at the end.
  // While it runs, output[i].rotation is scratch: xyz = the position before the
  // last iteration (for the extrapolation), w = bone i's length.

  glm::quat UnitInputRotation(std::size_t i) const {
    const glm::quat& r = job.joints[i].rotation;
    const float m = glm::dot(r, r);
    return m > 1e-20f && m < 1e20f ? r * (1.0f / std::sqrt(m)) : chain_detail::SafeNormalize(r);
  }
  glm::vec3 InputAxis(std::size_t i) const { return UnitInputRotation(i) * forward; }

  // One FABRIK pass toward `anchor` along the joints o[first], o[first + kStep],
  // … (kStep −1: from the tip toward the root, +1: from the root): o[first] is
  // put on the anchor and each following joint is pulled toward the one before
  // it, at its bone length (coincident joints: along the input bone axis). The
  // next joint's squared distance is updated algebraically from the previous
  // step, |e − d·s|² = |e|² − 2s·e·d + l², which takes the dot product off the
  // chain of dependent steps (the pass is latency-bound); where that formula
  // could cancel, it is recomputed directly.
  template <int kStep>
  void FabrikPass(const glm::vec3& anchor, std::ptrdiff_t first) {
    Transform* o = job.output.data();
    const std::ptrdiff_t last = first + kStep * (static_cast<std::ptrdiff_t>(n) - 1);
    // The bone between joints i and i + kStep has its length stored with the
    // joint nearer the root; its fallback direction is that joint's input axis.
    auto bone = [](std::ptrdiff_t i) { return static_cast<std::size_t>(kStep > 0 ? i : i + kStep); };
    auto place = [&](const glm::vec3& at, const glm::vec3& d, float dd, std::ptrdiff_t i, float* s) {
      const float l = o[bone(i)].rotation.w;
      if (dd > 1e-24f) [[likely]] {
        *s = std::sqrt(dd) * (l / dd);  // l / √dd: the root and the division run in parallel
        return at + d * *s;
      }
      *s = 0.0f;
      return at + InputAxis(bone(i)) * (static_cast<float>(kStep) * l);
    };
    glm::vec3 at = anchor;
    o[first].position = at;
    glm::vec3 d = o[first + kStep].position - at;
    float dd = glm::dot(d, d);
    std::ptrdiff_t i = first;
    for (; i + kStep != last; i += kStep) {
      float s;
      const glm::vec3 next = place(at, d, dd, i, &s);
      const glm::vec3 far = o[i + 2 * kStep].position;
      const glm::vec3 e = far - at;
      const float ee = glm::dot(e, e);
      const float l = o[bone(i)].rotation.w;
      const float ll = l * l;
      const float updated = ee - 2.0f * s * glm::dot(e, d) + ll;  // |far − next|² when s > 0
      d = far - next;
      if (s > 0.0f && updated >= 0.1f * (ee + ll)) [[likely]] {
        dd = updated;
      } else {
        dd = glm::dot(d, d);
      }
      o[i + kStep].position = next;
      at = next;
    }
    float s;
    o[last].position = place(at, d, dd, i, &s);
  }

  void FreeFabrikIteration() {
    // Backward: tip on the target, each joint pulled toward its child; forward:
    // root back in place, each child pulled toward its parent.
    FabrikPass<-1>(target, static_cast<std::ptrdiff_t>(n) - 1);
    FabrikPass<1>(glm::vec3(0.0f), 0);
  }

  // Every bone's rotation is its input rotation turned by the smallest rotation
  // that points `forward` along the bone; the tip keeps its rotation relative
  // to the last bone's input rotation aligned the same way (as in Align()).
  // normalize(Arc(q·forward, d)·q) for a unit q; q when d is zero.
  glm::quat TurnToward(const glm::quat& q, const glm::vec3& d) const {
    const glm::vec3 a = q * forward;
    const float dd = glm::dot(d, d);
    const float ld = std::sqrt(dd);
    const float w = ld + glm::dot(a, d);  // |d|(1 + cos θ)
    if (!(dd > 1e-30f && dd < 1e30f) || !(w > 1e-6f * ld)) return glm::normalize(Arc(a, d) * q);  // tiny, huge or opposite
    const glm::vec3 c = glm::cross(a, d);
    return glm::normalize(glm::quat(w, c.x, c.y, c.z) * q);
  }

  // RebuildRotations' work item k: turn joint min(k, n − 2)'s input rotation so
  // `forward` points along `ItemBone(k)`: bone k's final vector for k < n − 1, and
  // for k = n − 1 the last bone's input vector (the tip's reference, as in Align()).
  const glm::quat& ItemRotation(std::size_t k) const { return job.joints[std::min(k, n - 2)].rotation; }
  glm::vec3 ItemBone(std::size_t k, const glm::vec3& lastBoneInput) const {
    const Transform* o = job.output.data();
    return k + 1 < n ? o[k + 1].position - o[k].position : lastBoneInput;
  }

  // normalize(Arc(q̂·forward, d)·q̂) for q̂ = q/|q|, per lane. Homogeneous in q:
  // a = q·forward·q* = |q|²·(q̂·forward), so no lane normalizes q first. `plain`
  // is false in lanes that need TurnToward's careful path (|q|² or |d|² far from
  // unit size, or d opposite to q̂·forward).
  template <class F>
  static simd::Q4<F> TurnLanes(const simd::Q4<F>& q, const simd::V3<F>& d, const simd::V3<F>& axis,
                               simd::Mask<F>* plain) {
    using simd::And;
    using simd::Cross;
    using simd::Dot;
    const simd::V3<F> u{q.x, q.y, q.z};
    const F qq = q.w * q.w + Dot(u, u);
    const F dd = Dot(d, d);
    const auto normal = And(And(qq > 1e-2f, qq < 1e2f), And(dd > 1e-12f, dd < 1e12f));
    const simd::V3<F> a =
        axis * (q.w * q.w - Dot(u, u)) + u * (F(2.0f) * Dot(u, axis)) + Cross(u, axis) * (F(2.0f) * q.w);
    const F qd = qq * simd::Sqrt(simd::Select(normal, dd, F(1.0f)));  // |a|·|d|
    const F w = qd + Dot(a, d);                                       // |a||d|(1 + cos θ)
    const simd::V3<F> c = Cross(a, d);
    *plain = And(normal, w > qd * 1e-6f);
    return simd::Normalize(simd::Q4<F>{c.x, c.y, c.z, simd::Select(*plain, w, F(1.0f))} * q);
  }

  // Items k … k + 3 (or k alone for F = float) into output[k …].rotation.
  template <class F>
  void RebuildItems(std::size_t k, const simd::V3<F>& axis, const glm::vec3& lastBoneInput) const {
    Transform* o = job.output.data();
    using simd::Q4;
    using simd::V3;
    Q4<F> q;
    V3<F> d;
    if constexpr (std::is_same_v<F, float>) {
      q = simd::FromGlm(ItemRotation(k));
      d = simd::FromGlm(ItemBone(k, lastBoneInput));
    } else {
#if IKPD_HAS_F4  // F = simd::F4 only exists with SIMD
      const glm::quat& q0 = ItemRotation(k);
      const glm::quat& q1 = ItemRotation(k + 1);
      const glm::quat& q2 = ItemRotation(k + 2);
      const glm::quat& q3 = ItemRotation(k + 3);
      q = {F(simd::RegSet(q0.x, q1.x, q2.x, q3.x)), F(simd::RegSet(q0.y, q1.y, q2.y, q3.y)),
           F(simd::RegSet(q0.z, q1.z, q2.z, q3.z)), F(simd::RegSet(q0.w, q1.w, q2.w, q3.w))};
      const glm::vec3 d0 = ItemBone(k, lastBoneInput), d1 = ItemBone(k + 1, lastBoneInput);
      const glm::vec3 d2 = ItemBone(k + 2, lastBoneInput), d3 = ItemBone(k + 3, lastBoneInput);
      d = {F(simd::RegSet(d0.x, d1.x, d2.x, d3.x)), F(simd::RegSet(d0.y, d1.y, d2.y, d3.y)),
           F(simd::RegSet(d0.z, d1.z, d2.z, d3.z))};
#endif
    }
    simd::Mask<F> plain;
    const Q4<F> r = TurnLanes(q, d, axis, &plain);
    if constexpr (std::is_same_v<F, float>) {
      o[k].rotation =
          plain ? simd::ToGlm(r) : TurnToward(UnitInputRotation(std::min(k, n - 2)), ItemBone(k, lastBoneInput));
    } else {
#if IKPD_HAS_F4
      alignas(16) float x[4], y[4], z[4], w[4];
      simd::RegStore(x, r.x.r);
      simd::RegStore(y, r.y.r);
      simd::RegStore(z, r.z.r);
      simd::RegStore(w, r.w.r);
      for (std::size_t j = 0; j < 4; ++j) o[k + j].rotation = glm::quat(w[j], x[j], y[j], z[j]);
      if (!simd::All(plain)) {
        alignas(16) float lane[4];
        simd::RegStore(lane, simd::Select(plain, F(1.0f), F(0.0f)).r);
        for (std::size_t j = 0; j < 4; ++j) {
          if (lane[j] == 0.0f) {
            o[k + j].rotation = TurnToward(UnitInputRotation(std::min(k + j, n - 2)), ItemBone(k + j, lastBoneInput));
          }
        }
      }
#endif
    }
  }

  void RebuildRotations(const glm::vec3& lastBoneInput) {
    Transform* o = job.output.data();
    // Item n − 1 (the last bone's aligned input rotation) lands in
    // o[n − 1].rotation and is replaced by the tip's rotation below.
    std::size_t k = 0;
    const std::size_t items = n;
#if IKPD_HAS_F4
    if (items >= 4) {
      const simd::V3<simd::F4> axis = simd::Splat3<simd::F4>(forward);
      for (;; k += 4) {
        if (k + 4 > items) k = items - 4;  // the last group may overlap the one before
        RebuildItems(k, axis, lastBoneInput);
        if (k + 4 == items) break;
      }
      k = items;
    }
#endif
    const simd::V3<float> axis = simd::FromGlm(forward);
    for (; k < items; ++k) RebuildItems(k, axis, lastBoneInput);
    tipLocal = glm::conjugate(o[n - 1].rotation) * UnitInputRotation(n - 1);
    o[n - 1].rotation = glm::normalize(o[n - 2].rotation * tipLocal);
  }

  ChainResult FreeFabrik(float length, float tolerance) {
    trackRotations = false;
    Transform* o = job.output.data();
    const glm::vec3 lastBoneInput = o[n - 1].position - o[n - 2].position;
    for (std::size_t i = 0; i + 1 < n; ++i) o[i].rotation.w = Length(i);
    ChainResult result;
    float distance = glm::distance(o[n - 1].position, target);
    const float reach = glm::length(target);  // the root is at the origin
    if (job.iterations > 0 && distance > tolerance && reach >= length && reach > 0.0f) {
      // Out of reach: FABRIK's limit is the straight line toward the target.
      const glm::vec3 u = target / reach;
      float along = 0.0f;
      for (std::size_t i = 0; i + 1 < n; ++i) {
        along += o[i].rotation.w;
        o[i + 1].position = u * along;
      }
      result.iterations = 1;
    } else {
      float previous = std::numeric_limits<float>::infinity();
      int since = 0;  // iterations since the last extrapolation
      for (int it = 0; it < job.iterations; ++it) {
        if (distance <= tolerance) break;
        // Only a chain that made no progress can be stuck on the target's line.
        if (previous - distance <= 1e-6f * length && StuckOnALine(length)) Unstick();
        // FABRIK converges linearly, slowly near full extension (the distance
        // shrinks by a ratio r of up to ~0.9 per iteration). Jump ahead along the
        // last iteration's step by the geometric-series estimate of the steps
        // still to come, r / (1 − r) (capped); the next iteration restores the
        // bone lengths. Every other iteration at most, so r is measured on a
        // plain FABRIK step. The result is a FABRIK pose close to the one plain
        // FABRIK reaches (within ~1 % of the chain length on the benchmark).
        const float r = distance / previous;
        if (since >= 2 && r > 0.05f && r < 0.98f) {
          const float w = std::min(r / (1.0f - r), 20.0f);
          for (std::size_t i = 1; i < n; ++i) {
            const glm::vec3 last(o[i].rotation.x, o[i].rotation.y, o[i].rotation.z);
            o[i].position += (o[i].position - last) * w;
          }
          since = 0;
        }
        previous = distance;
        if (++since >= 2) {  // the next iteration may extrapolate along this one's step
          for (std::size_t i = 1; i < n; ++i) {
            o[i].rotation.x = o[i].position.x;
            o[i].rotation.y = o[i].position.y;
            o[i].rotation.z = o[i].position.z;
          }
        }
        FreeFabrikIteration();
        distance = glm::distance(o[n - 1].position, target);
        result.iterations = it + 1;
      }
    }
    if (job.pole) ApplyPole();
    RebuildRotations(lastBoneInput);
    distance = glm::distance(o[n - 1].position, target);
    result.reached = distance <= tolerance;
    Denormalize();
    result.distance = static_cast<float>(std::min(static_cast<double>(distance) * scale, 3.4028234663852886e38));
    return result;
  }

  bool HasLimits() const {
    for (std::size_t i = 0; i + 1 < n && i < job.limits.size(); ++i) {
      if (job.limits[i].kind != JointLimit::Kind::kNone) return true;
    }
    return false;
  }

  ChainResult Solve() {
    Normalize();
    float length = 0.0f;
    for (std::size_t i = 0; i + 1 < n; ++i) length += Length(i);
    const float tolerance = job.tolerance * length;
    if (job.method == ChainMethod::kFabrik && !HasLimits()) return FreeFabrik(length, tolerance);
    Align();
    ChainResult result;
    const bool ccd = job.method == ChainMethod::kCcd;
    if (ccd) {
      // Enforce the limits on the input pose as well (store locals, rebuild).
      for (std::size_t i = n - 1; i-- > 0;) {
        const glm::quat pr = ParentOf(i);
        job.output[i].rotation = glm::conjugate(pr) * Limited(i, pr, job.output[i].rotation);
      }
      ForwardKinematics();
    }
    float previous = std::numeric_limits<float>::infinity();
    for (int it = 0; it < job.iterations; ++it) {
      const float distance = glm::distance(job.output[n - 1].position, target);
      if (distance <= tolerance) break;
      // Only a chain that made no progress can be stuck on the target's line.
      if (previous - distance <= 1e-6f * length && StuckOnALine(length)) Unstick();
      previous = distance;
      if (ccd) {
        CcdSweep();
      } else {
        FabrikIteration();
      }
      result.iterations = it + 1;
    }
    if (job.pole) ApplyPole();
    const float distance = glm::distance(job.output[n - 1].position, target);
    result.reached = distance <= tolerance;
    Denormalize();
    result.distance = static_cast<float>(std::min(static_cast<double>(distance) * scale, 3.4028234663852886e38));
    return result;
  }
};

}  // namespace

Status ChainJob::Validate() const {
  if (joints.size() < 2) return Error("joints: needs at least 2 joints");
  if (joints.size() > kMaxChainJoints) return Error("joints: at most 256 joints");
  if (output.size() != joints.size()) return Error("output: needs one entry per joint");
  // Branch-free scan for the usual all-valid input (v − v is 0 exactly for
  // finite v, NaN otherwise); the loop below names the first problem.
  bool valid = true;
  for (const Transform& j : joints) {
    const glm::vec3& p = j.position;
    const glm::quat& q = j.rotation;
    const float zero = ((p.x - p.x) + (p.y - p.y)) + ((p.z - p.z) + (q.x - q.x)) + ((q.y - q.y) + (q.z - q.z)) + (q.w - q.w);
    valid &= (zero == 0.0f) & (glm::dot(q, q) > 1e-12f);
  }
  if (!valid) {
    for (const Transform& j : joints) {
      if (!IsFinite(j.position)) return Error("joints: positions must be finite");
      if (!IsUsableRotation(j.rotation)) return Error("joints: rotations must be finite and non-zero");
    }
  }
  if (!IsFinite(target)) return Error("target: must be finite");
  if (method != ChainMethod::kCcd && method != ChainMethod::kFabrik) return Error("method: must be 'ccd' or 'fabrik'");
  if (iterations < 0 || iterations > kMaxChainIterations) return Error("iterations: must be in [0, 10000]");
  if (!IsFinite(tolerance) || tolerance < 0.0f) return Error("tolerance: must be finite and >= 0");
  if (!limits.empty() && limits.size() != joints.size() - 1 && limits.size() != joints.size()) {
    return Error("limits: needs one entry per joint (or per bone)");
  }
  for (const JointLimit& l : limits) {
    switch (l.kind) {
      case JointLimit::Kind::kNone:
        break;
      case JointLimit::Kind::kCone:
        if (!IsFinite(l.angle) || l.angle < 0.0f || l.angle > kPi) return Error("limits: cone angle must be in [0, pi]");
        if (!IsFinite(l.axis)) return Error("limits: cone axis must be finite");
        break;
      case JointLimit::Kind::kEuler:
        if (!IsFinite(l.min) || !IsFinite(l.max)) return Error("limits: min and max must be finite");
        if (l.min.x > l.max.x || l.min.y > l.max.y || l.min.z > l.max.z) return Error("limits: min must be <= max");
        break;
      default:
        return Error("limits: unknown kind");
    }
  }
  if (pole && !IsFinite(*pole)) return Error("pole: must be finite");
  if (!IsFinite(forward) || (forward.x == 0.0f && forward.y == 0.0f && forward.z == 0.0f)) {
    return Error("forward: must be a finite non-zero vector");
  }
  if (!IsUsableRotation(parentRotation)) return Error("parentRotation: must be finite and non-zero");
  return Ok();
}

Status ChainJob::Run() const {
  if (Status s = Validate(); !s) return s;
  Solver solver(*this);
  const ChainResult r = solver.Solve();
  if (result) *result = r;
  return Ok();
}

}  // namespace ikpd
