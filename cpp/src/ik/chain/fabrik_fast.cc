// FABRIK without limits for N-bone chains: positions only, with an
// extrapolation along its linear convergence; rotations are set once from the
// final pose, four bones at a time where SIMD exists (see docs/ik/chains.md).
#include <algorithm>
#include <cmath>
#include <limits>

#include "../../simd/vec.h"
#include "rotation.h"
#include "solver.h"

namespace ikpd::chain_detail {
namespace {

// Scratch of one positions-only solve (rotations are not tracked while it runs).
struct FreeFabrik {
  explicit FreeFabrik(Chain& chain)
      : c(chain), lastBoneInput(chain.pose[chain.n - 1].position - chain.pose[chain.n - 2].position) {}

  Chain& c;
  glm::vec3 lastBoneInput;  // the last bone's normalized input vector (the tip's reference)
  std::array<glm::vec3, kMaxChainJoints> previous;  // positions before the last iteration (written before read)

  glm::vec3 InputAxis(std::size_t i) const { return c.UnitInputRotation(i) * c.forward; }

  // One FABRIK pass toward `anchor` along the joints p[first], p[first + kStep],
  // … (kStep −1: from the tip toward the root, +1: from the root): p[first] is
  // put on the anchor and each following joint is pulled toward the one before
  // it, at its bone length (coincident joints: along the input bone axis). The
  // next joint's squared distance is updated algebraically from the previous
  // step, |e − d·s|² = |e|² − 2s·e·d + l², which takes the dot product off the
  // chain of dependent steps (the pass is latency-bound); where that formula
  // could cancel, it is recomputed directly.
  template <int kStep>
  void Pass(const glm::vec3& anchor, std::ptrdiff_t first) {
    Transform* o = c.pose.data();
    const float* lengths = c.lengths.data();
    const std::ptrdiff_t last = first + kStep * (static_cast<std::ptrdiff_t>(c.n) - 1);
    // The bone between joints i and i + kStep is the one of the joint nearer
    // the root; its fallback direction is that joint's input axis.
    auto bone = [](std::ptrdiff_t i) { return static_cast<std::size_t>(kStep > 0 ? i : i + kStep); };
    auto place = [&](const glm::vec3& at, const glm::vec3& d, float dd, std::ptrdiff_t i, float* s) {
      const float l = lengths[bone(i)];
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
      const float l = lengths[bone(i)];
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

  // Backward: tip on the target, each joint pulled toward its child; forward:
  // root back in place, each child pulled toward its parent.
  void Iteration() {
    Pass<-1>(c.target, static_cast<std::ptrdiff_t>(c.n) - 1);
    Pass<1>(glm::vec3(0.0f), 0);
  }

  // Out of reach: FABRIK's limit is the straight line toward the target.
  void Straighten(float reach) {
    const glm::vec3 u = c.target / reach;
    float along = 0.0f;
    for (std::size_t i = 0; i + 1 < c.n; ++i) {
      along += c.Length(i);
      c.pose[i + 1].position = u * along;
    }
  }

  // FABRIK converges linearly, slowly near full extension (the distance shrinks
  // by a ratio r of up to ~0.9 per iteration). Every other iteration at most
  // (so r is measured on a plain FABRIK step), this jumps ahead along the last
  // iteration's step by the geometric-series estimate of the steps still to
  // come, r / (1 − r) (capped); the next iteration restores the bone lengths.
  // The result is a FABRIK pose close to the one plain FABRIK reaches.
  //
  // FABRIK can also stall short of a reachable target (a target near the root
  // that the chain folds around, or near full extension): when an iteration
  // shrinks the distance by less than 1 − kStallRatio, it stops with `stalled`
  // set and the solve finishes with CCD sweeps in the iterations left
  // (docs/ik/chains.md, "Stalls"). Solves that gain at least that much every
  // iteration keep plain FABRIK's result.
  static constexpr float kStallRatio = 0.9f;
  bool stalled = false;

  int Iterate() {
    Transform* o = c.pose.data();
    int iterations = 0;
    float distance = c.Distance();
    float previousDistance = std::numeric_limits<float>::infinity();
    int since = 0;  // iterations since the last extrapolation
    for (int it = 0; it < c.settings.iterations; ++it) {
      if (distance <= c.tolerance) break;
      // Only a chain that made no progress can be stuck on the target's line.
      if (previousDistance - distance <= 1e-6f * c.length && StuckOnALine(c)) {
        Unstick(c, false);
      } else if (distance > kStallRatio * previousDistance) {
        stalled = true;
        break;
      }
      const float r = distance / previousDistance;
      if (since >= 2 && r > 0.05f && r < 0.98f) {
        const float w = std::min(r / (1.0f - r), 20.0f);
        for (std::size_t i = 1; i < c.n; ++i) o[i].position += (o[i].position - previous[i]) * w;
        since = 0;
      }
      previousDistance = distance;
      if (++since >= 2) {  // the next iteration may extrapolate along this one's step
        for (std::size_t i = 1; i < c.n; ++i) previous[i] = o[i].position;
      }
      Iteration();
      distance = c.Distance();
      iterations = it + 1;
    }
    return iterations;
  }

  // Rotations. Every bone's rotation is its input rotation turned by the
  // smallest rotation that points `forward` along the bone; the tip keeps its
  // rotation relative to the last bone's input rotation aligned the same way
  // (as in Align()).

  // normalize(Arc(q·forward, d)·q) for a unit q; q when d is zero.
  glm::quat TurnToward(const glm::quat& q, const glm::vec3& d) const {
    const glm::vec3 a = q * c.forward;
    const float dd = glm::dot(d, d);
    const float ld = std::sqrt(dd);
    const float w = ld + glm::dot(a, d);  // |d|(1 + cos θ)
    // Tiny, huge or nearly opposite: Arc's careful paths.
    if (!(dd > 1e-30f && dd < 1e30f) || !(w > kNearOpposite * ld)) return glm::normalize(Arc(a, d) * q);
    const glm::vec3 cr = glm::cross(a, d);
    return glm::normalize(glm::quat(w, cr.x, cr.y, cr.z) * q);
  }

  // Work item k: turn joint min(k, n − 2)'s input rotation so `forward` points
  // along ItemBone(k): bone k's final vector for k < n − 1, and for k = n − 1
  // the last bone's input vector (the tip's reference, as in Align()).
  const glm::quat& ItemRotation(std::size_t k) const { return c.frame.joints[std::min(k, c.n - 2)].rotation; }
  glm::vec3 ItemBone(std::size_t k) const {
    return k + 1 < c.n ? c.pose[k + 1].position - c.pose[k].position : lastBoneInput;
  }

  // normalize(Arc(q̂·forward, d)·q̂) for q̂ = q/|q|, per lane. Homogeneous in q:
  // a = q·forward·q* = |q|²·(q̂·forward), so no lane normalizes q first. `plain`
  // is false in lanes that need TurnToward's careful path (|q|² or |d|² far from
  // unit size, or d nearly opposite to q̂·forward).
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
    const simd::V3<F> cr = Cross(a, d);
    *plain = And(normal, w > qd * kNearOpposite);
    return simd::Normalize(simd::Q4<F>{cr.x, cr.y, cr.z, simd::Select(*plain, w, F(1.0f))} * q);
  }

  // Items k … k + kLanes − 1 into pose[k …].rotation.
  template <class F>
  void RebuildItems(std::size_t k, const simd::V3<F>& axis) const {
    constexpr std::size_t kLanes = simd::kLanes<F>;
    glm::quat q[kLanes];
    glm::vec3 d[kLanes];
    for (std::size_t j = 0; j < kLanes; ++j) {
      q[j] = ItemRotation(k + j);
      d[j] = ItemBone(k + j);
    }
    simd::Mask<F> plain;
    const simd::Q4<F> r = TurnLanes(simd::GatherQ4<F>(q), simd::GatherV3<F>(d), axis, &plain);
    glm::quat turned[kLanes];
    simd::Scatter(r, turned);
    for (std::size_t j = 0; j < kLanes; ++j) c.pose[k + j].rotation = turned[j];
    if (simd::All(plain)) return;
    bool isPlain[kLanes];
    simd::Scatter(plain, isPlain);
    for (std::size_t j = 0; j < kLanes; ++j) {
      if (!isPlain[j]) c.pose[k + j].rotation = TurnToward(c.UnitInputRotation(std::min(k + j, c.n - 2)), d[j]);
    }
  }

  void RebuildRotations() {
    // Item n − 1 (the last bone's aligned input rotation) lands in
    // pose[n − 1].rotation and is replaced by the tip's rotation below.
    const std::size_t items = c.n;
    std::size_t k = 0;
    using Quad = simd::Quad;
    constexpr std::size_t kQuad = simd::kLanes<Quad>;
    if (kQuad > 1 && items >= kQuad) {
      const simd::V3<Quad> axis = simd::Splat3<Quad>(c.forward);
      for (;; k += kQuad) {
        if (k + kQuad > items) k = items - kQuad;  // the last group may overlap the one before
        RebuildItems(k, axis);
        if (k + kQuad == items) break;
      }
      k = items;
    }
    const simd::V3<float> axis = simd::FromGlm(c.forward);
    for (; k < items; ++k) RebuildItems(k, axis);
    c.tipLocal = glm::conjugate(c.pose[c.n - 1].rotation) * c.UnitInputRotation(c.n - 1);
    c.pose[c.n - 1].rotation = glm::normalize(c.pose[c.n - 2].rotation * c.tipLocal);
  }
};

}  // namespace

ChainResult SolveFreeFabrik(Chain& c) {
  FreeFabrik f(c);
  int iterations = 0;
  const float reach = glm::length(c.target);  // the root is at the origin
  if (c.settings.iterations > 0 && c.Distance() > c.tolerance && reach >= c.length && reach > 0.0f) {
    f.Straighten(reach);
    iterations = 1;
  } else {
    iterations = f.Iterate();
    if (f.stalled) {
      f.RebuildRotations();  // CCD turns world rotations along the bones
      iterations += FinishWithCcd(c, c.settings.iterations - iterations);
    }
  }
  if (c.frame.pole) ApplyPole(c, false);
  f.RebuildRotations();
  return Finish(c, iterations);
}

}  // namespace ikpd::chain_detail
