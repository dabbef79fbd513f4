// Internal: the two-bone solve (docs/ik/two-bone.md), written once over a lane type (float for
// TwoBoneJob, simd::F4 for four items of TwoBoneBatchJob), so the single call
// and every batch lane give bit-identical results. Inputs are validated by the
// callers; the kernel itself is branch-free per lane.
#pragma once

#include <new>
#include <type_traits>

#include "ikpd/ik/two_bone.h"
#include "../simd/vec.h"
#include "setup_access.h"
#include "two_bone_axes.h"

namespace ikpd::detail {

// The error of an item whose result overflows float (inputs near 1e38).
inline constexpr const char* kTwoBoneOverflow = "target: too far away for float coordinates (the result would overflow)";

// What the pole input of the kernel holds.
using TwoBonePole = ikpd::TwoBonePole;

// Settings shared by every item, derived once from validated TwoBoneSettings
// (Prepare keeps them in a TwoBoneSetup; docs/architecture.md, the job layer).
struct TwoBoneShared {
  simd::V3<float> forward;  // unit
  simd::V3<float> hinge;    // unit, perpendicular to forward
  simd::Q4<float> localFrameInverse;  // inverse of FrameQuat(forward, hinge)
  TwoBonePole pole = TwoBonePole::kNone;
  float fixedSign = 0.0f;     // ±1 for a fixed bendDirection, 0 for kAuto
  float straightSign = 1.0f;  // kAuto on a straight limb
  bool limitMin = false, limitMax = false;
  float sinHalfMin = 0.0f, sinHalfMax = 1.0f;
  float soften = 0.0f, maxStretch = 1.0f;
  bool twist = false;
  float cosTwist = 1.0f, sinTwist = 0.0f;
  bool endRelative = false;
  // forward +X and hinge +Z exactly (the defaults, and the rig's canonical
  // frames): the kernel takes RotateX, RotateZ and SwingTwistXZ.
  bool canonicalAxes = false;
  float tolerance = 1e-4f;
};

// `settings` must be valid (TwoBoneSettings::Validate).
TwoBoneShared MakeTwoBoneShared(const TwoBoneSettings& settings);
// The same with its unit forward and hinge already derived (two_bone.cc).
TwoBoneShared MakeTwoBoneShared(const TwoBoneSettings& settings, const glm::vec3& forward, const glm::vec3& hinge);

// Every check of SolveTwoBone on a frame (the result pointer aside), each error named.
Status CheckTwoBoneFrame(const TwoBoneSettings& settings, const TwoBoneFrame& frame);

// SolveTwoBone for a caller whose frame holds finite, usable rotations (the
// rig's gathered joints: unit by construction): the same result, bit for bit,
// testing only the positions, target, pole, effectorOffset and weight; any
// that fails takes SolveTwoBone's full check (which names it).
Status SolveTwoBoneUsableRotations(const TwoBoneSetup& setup, const TwoBoneFrame& frame, TwoBoneResult* result);

using TwoBoneSetupAccess = SetupAccess<TwoBoneSetup, TwoBoneShared>;

// The derived settings a prepared setup holds (valid only if it is prepared).
inline const TwoBoneShared& SharedOf(const TwoBoneSetup& setup) { return TwoBoneSetupAccess::SharedOf(setup); }

template <class F>
struct TwoBoneLanes {
  // Inputs.
  simd::V3<F> rootPosition, midPosition, endPosition, target, pole, effectorOffset;
  simd::Q4<F> rootRotation, midRotation, endRotation;
  F weight;
  // Outputs.
  simd::Q4<F> outRootRotation, outMidRotation, outEndRotation;
  simd::V3<F> outMidPosition, outEndPosition;
  F distance;
  simd::Mask<F> reached;
  simd::Mask<F> finite;  // false when the result overflows float
};

namespace two_bone_kernel {

using simd::Abs;
using simd::And;
using simd::Mask;
using simd::Max;
using simd::Min;
using simd::Not;
using simd::Or;
using simd::PerpendicularUnit;
using simd::Q4;
using simd::Select;
using simd::Sqrt;
using simd::V3;

// A stable unit vector perpendicular to unit n: the axis after n's dominant one.
template <class F>
IKPD_INLINE V3<F> StablePerpendicular(const V3<F>& n) {
  const F ax = Abs(n.x), ay = Abs(n.y), az = Abs(n.z);
  const auto xDom = And(ax >= ay, ax >= az);
  const auto yDom = And(Not(xDom), ay >= az);
  const V3<F> axis{Select(Or(xDom, yDom), F(0.0f), F(1.0f)), Select(xDom, F(1.0f), F(0.0f)),
                   Select(yDom, F(1.0f), F(0.0f))};
  V3<F> out;
  PerpendicularUnit(axis, n, &out);
  return out;
}

// The first usable of: v1 ⊥ n, second() ⊥ n, a stable perpendicular of n.
// The fallbacks are only computed when some lane needs them.
template <class F, class Second>
IKPD_INLINE V3<F> PerpendicularOf(const V3<F>& v1, Second&& second, const V3<F>& n) {
  V3<F> out;
  const auto ok = PerpendicularUnit(v1, n, &out);
  if (simd::All(ok)) return out;
  V3<F> fallback;
  const auto secondOk = PerpendicularUnit(second(), n, &fallback);
  return Select(ok, out, Select(secondOk, fallback, StablePerpendicular(n)));
}


// The joint-local axes as they are needed (canonical axes load neither).
template <class F>
IKPD_INLINE V3<F> ForwardOf(const TwoBoneShared& shared) {
  return simd::Splat3<F>(simd::ToGlm(shared.forward));
}
template <class F>
IKPD_INLINE V3<F> HingeOf(const TwoBoneShared& shared) {
  return simd::Splat3<F>(simd::ToGlm(shared.hinge));
}
// q·forward·q* and q·hinge·q*.
template <class F>
IKPD_INLINE V3<F> RotateForward(const TwoBoneShared& shared, const Q4<F>& q) {
  return shared.canonicalAxes ? RotateX(q) : Rotate(q, ForwardOf<F>(shared));
}
template <class F>
IKPD_INLINE V3<F> RotateHinge(const TwoBoneShared& shared, const Q4<F>& q) {
  return shared.canonicalAxes ? RotateZ(q) : Rotate(q, HingeOf<F>(shared));
}

// Select(m, a, b) where the caller knows whether every lane of m is set
// (`all`, tested once for several selects): the common case skips the select.
template <class M, class T>
IKPD_INLINE T SelectUnlessAll(bool all, M m, const T& a, const T& b) {
  return all ? a : Select(m, a, b);
}

// Third side for interior angle θ between a and b, with sinHalf = sin(θ/2).
template <class F>
IKPD_INLINE F ThirdSide(F a, F b, float sinHalf) {
  return Sqrt((a - b) * (a - b) + (4.0f * sinHalf * sinHalf) * a * b);
}


// Limb plane normal n = the mid's world hinge after the solve: from the pole
// where it is usable (poleVector: root → pole point, or the pole direction),
// else the mid's current hinge (the root's when that one is unusable, computed
// only when some lane needs it), then turned by `twist` about root → target.
template <class F, class RootHinge>
IKPD_INLINE V3<F> LimbPlane(const TwoBoneShared& shared, const V3<F>& poleVector, const V3<F>& dirT, const V3<F>& hinge,
                            RootHinge&& rootHinge, F sign) {
  V3<F> n;
  if (shared.pole != TwoBonePole::kNone) {
    // n = (pole ⊥ dirT) × dirT = pole × dirT, normalized; near the root → target
    // line (rare) the pole is projected twice first (PerpendicularUnit).
    const V3<F> toPole = simd::ScaleForDirection(poleVector);
    const V3<F> across = Cross(toPole, dirT);
    const F aa = Dot(across, across);
    const auto clear = aa > 1e-6f * Dot(toPole, toPole);
    n = across * (sign / Sqrt(Select(clear, aa, F(1.0f))));
    if (!simd::All(clear)) {
      V3<F> towardPole;
      const auto poleOk = PerpendicularUnit(toPole, dirT, &towardPole);
      n = Select(clear, n, Select(poleOk, Cross(towardPole, dirT) * sign, PerpendicularOf(hinge, rootHinge, dirT)));
    }
  } else {
    n = PerpendicularOf(hinge, rootHinge, dirT);
  }
  if (shared.twist) n = n * F(shared.cosTwist) + Cross(dirT, n) * F(shared.sinTwist);
  return n;
}

// Reach: c clamped to the angle limits' [cMin, cMax] (docs/ik/two-bone.md),
// eased toward cMax by soft IK; *scale: the bone stretch (<= maxStretch) that
// lets an out-of-reach end still reach the target.
template <class F>
IKPD_INLINE F SoftenTarget(const TwoBoneShared& shared, F a, F b, F c, F limb, F* scale) {
  const F cMin = shared.limitMin ? ThirdSide(a, b, shared.sinHalfMin) : Abs(a - b);
  const F cMax = shared.limitMax ? ThirdSide(a, b, shared.sinHalfMax) : limb;
  F cEff = Min(c, cMax);
  if (shared.soften > 0.0f) {
    const F zone = F(shared.soften) * cMax;
    const F start = cMax - zone;
    const auto soft = And(c > start, zone > 0.0f);
    if (simd::Any(soft)) {  // only near full reach
      const F x = (c - start) / Select(soft, zone, F(1.0f));
      cEff = Select(soft, start + zone * (1.0f - simd::Exp(-x)), cEff);
    }
  }
  cEff = Max(cEff, cMin);
  *scale = F(1.0f);
  if (shared.maxStretch > 1.0f) {
    const auto stretch = And(c > cEff, cEff > 0.0f);
    *scale = Select(stretch, Min(c / Select(stretch, cEff, F(1.0f)), F(shared.maxStretch)), F(1.0f));
  }
  return cEff;
}

// Mid joint: unit directions of the upper and lower bones closing the
// triangle (a, b, cEff) in the plane (dirT, n × dirT), bent to `sign`.
template <class F>
IKPD_INLINE void ComputeMidJoint(F a, F b, F limb, F cEff, const V3<F>& dirT, const V3<F>& n, F sign, V3<F>* upper,
                                 V3<F>* lower) {
  // Root angle B from the triangle (a, b, cEff): (cos B, sin B) ∝
  // (a² + c² − b², 4·area), Heron's product keeping sin B exact near straight.
  const auto bones = And(a > 1e-6f * limb, b > 1e-6f * limb);
  // (cEff − (a − b) is exactly 0 when cEff was clamped to |a − b|: no
  // one-ulp remainder for the square root to blow up on a folded limb.)
  const F s1 = Max(cEff - (a - b), F(0.0f)), s2 = Max(cEff - (b - a), F(0.0f)), s3 = Max(limb - cEff, F(0.0f));
  const F cosTerm = (a - b) * (a + b) + cEff * cEff;
  const F sinTerm2 = (limb + cEff) * s1 * s2 * s3;
  const F sinTerm = Sqrt(sinTerm2);
  // (Normalized by its computed length, not by 2·a·cEff: the swing-twist of
  // the root amplifies an upper bone a few ulps off unit near a half turn.
  // The length from sinTerm², so that its square root runs beside sinTerm's.)
  const F len2 = cosTerm * cosTerm + sinTerm2;
  // (A zero bone or a flat zero triangle is rare: selected only where some lane has one.)
  const auto triangle = And(bones, len2 > 1e-30f);
  const bool allTriangles = simd::All(triangle);
  const F inverseLen = F(1.0f) / Sqrt(SelectUnlessAll(allTriangles, triangle, len2, F(1.0f)));
  const F cosB = SelectUnlessAll(allTriangles, triangle, cosTerm * inverseLen, Select(bones, F(0.0f), F(1.0f)));
  const F sinB = SelectUnlessAll(allTriangles, triangle, sinTerm * inverseLen, Select(bones, F(1.0f), F(0.0f)));
  // Root turns by −sign·B about n from root→target; the lower bone closes the triangle.
  const V3<F> perp = Cross(n, dirT);
  *upper = dirT * cosB - perp * (sign * sinB);
  // closing = dirT·cEff − upper·a, written in the plane's basis (dirT, perp) so
  // that it stays exactly in the plane: with a ≫ b the cancellation in cEff − a·cos B
  // would otherwise amplify rounding off the plane and tilt the mid's frame.
  const V3<F> closing = dirT * (cEff - a * cosB) + perp * (a * sign * sinB);
  const F closing2 = Dot(closing, closing);
  const auto bent = And(bones, closing2 > 1e-24f);
  const bool allBent = simd::All(bent);
  *lower = SelectUnlessAll(allBent, bent, closing * (F(1.0f) / Sqrt(SelectUnlessAll(allBent, bent, closing2, F(1.0f)))),
                           *upper);
}

// Weight: below 1 the root and mid rotations are slerped from the input ones
// toward the solved ones (given unnormalized, rootSolved and midSolved, with
// their dots with q1 and q2: the slerps need not wait for their normalization)
// and the bones follow them (forward rotated); at full weight the bones lie
// exactly along the solved upper and lower directions.
template <class F>
IKPD_INLINE void WeightOutput(F weight, const TwoBoneShared& shared, const Q4<F>& q1, const Q4<F>& q2,
                              const Q4<F>& rootSolved, F rootDot, const Q4<F>& midSolved, F midDot, Q4<F>* r1,
                              Q4<F>* r2, V3<F>* upper, V3<F>* lower) {
  const auto full = weight >= 1.0f;
  if (simd::All(full)) return;
  const Q4<F> w1 = Select(full, *r1, simd::SlerpToward(q1, rootSolved, rootDot, weight));
  const Q4<F> w2 = Select(full, *r2, simd::SlerpToward(q2, midSolved, midDot, weight));
  *upper = Select(full, *upper, RotateForward(shared, w1));
  *lower = Select(full, *lower, RotateForward(shared, w2));
  *r1 = w1;
  *r2 = w2;
}

}  // namespace two_bone_kernel

template <class F>
void SolveTwoBone(const TwoBoneShared& shared, TwoBoneLanes<F>& io) {
  using namespace two_bone_kernel;  // NOLINT: the kernel's own helpers
  const Q4<F> q1 = simd::NormalizeSafe(io.rootRotation);
  const Q4<F> q2 = simd::NormalizeSafe(io.midRotation);
  const Q4<F> q3 = simd::NormalizeSafe(io.endRotation);

  // Where a difference of coordinates exceeds 2^60 (or overflows), that lane
  // is redone with every coordinate scaled by an exact power of two first.
  V3<F> p1 = io.rootPosition, p2 = io.midPosition, p3 = io.endPosition, poleK = io.pole;
  V3<F> goalK = io.target - io.effectorOffset;
  auto extentOf = [&] {
    return Max(Max(simd::MaxAbs(p2 - p1), simd::MaxAbs(p3 - p2)), simd::MaxAbs(goalK - p1));
  };
  F extent = extentOf();
  const auto huge = Not(extent <= 1.152921504606846976e18f);
  const bool anyHuge = simd::Any(huge);
  F k1 = F(1.0f), k1Inverse = F(1.0f);
  if (anyHuge) {
    F big = Max(Max(simd::MaxAbs(io.rootPosition), simd::MaxAbs(io.midPosition)),
                Max(simd::MaxAbs(io.endPosition), Max(simd::MaxAbs(io.target), simd::MaxAbs(io.effectorOffset))));
    if (shared.pole == TwoBonePole::kPoint) big = Max(big, simd::MaxAbs(io.pole));
    k1 = Select(huge, F(1.0f) / simd::ExponentOf(big), F(1.0f));
    k1Inverse = Select(huge, simd::ExponentOf(big), F(1.0f));
    p1 = p1 * k1, p2 = p2 * k1, p3 = p3 * k1, poleK = poleK * k1;
    goalK = io.target * k1 - io.effectorOffset * k1;
    extent = extentOf();
  }
  V3<F> v12 = p2 - p1;
  V3<F> v23 = p3 - p2;
  V3<F> toGoal = goalK - p1;

  // Relative vectors scaled (by a power of two) to a largest component in [1, 2).
  const auto sized = extent > 1e-30f;
  const F k2 = Select(sized, simd::InverseExponentOf(extent), F(1.0f));
  const F k2Inverse = Select(sized, simd::ExponentOf(extent), F(1.0f));
  v12 = v12 * k2;
  v23 = v23 * k2;
  toGoal = toGoal * k2;
  const F a = Sqrt(Dot(v12, v12));
  const F b = Sqrt(Dot(v23, v23));
  const F c = Sqrt(Dot(toGoal, toGoal));
  const F limb = a + b;

  // Direction root → goal; target at the root: the limb's direction, else the root's forward.
  const V3<F> rootForward = RotateForward(shared, q1);
  const auto away = c > 1e-12f;
  V3<F> dirT = toGoal * (F(1.0f) / Select(away, c, F(1.0f)));
  if (!simd::All(away)) {  // rare: only where some lane needs it
    const V3<F> limbDirection = v12 + v23;
    const F limbLength2 = Dot(limbDirection, limbDirection);
    const V3<F> limbDir =
        Select(limbLength2 > 1e-24f, simd::Normalize(Select(limbLength2 > 1e-24f, limbDirection, ForwardOf<F>(shared))),
               rootForward);
    dirT = Select(away, dirT, limbDir);
  }

  // Side the mid bends to, as the sign of its turn about its world hinge.
  const V3<F> hinge = RotateHinge(shared, q2);
  const F side = Dot(hinge, Cross(v12, v23));
  F sign = F(shared.fixedSign);
  if (shared.fixedSign == 0.0f) {
    sign = Select(Abs(side) > 1e-5f * a * b, Select(side > 0.0f, F(1.0f), F(-1.0f)), F(shared.straightSign));
  }

  auto rootHinge = [&] { return RotateHinge(shared, q1); };  // fallback, rarely needed
  const V3<F> n = LimbPlane(shared, shared.pole == TwoBonePole::kPoint ? poleK - p1 : io.pole, dirT, hinge, rootHinge,
                            sign);

  F scale;
  const F cEff = SoftenTarget(shared, a, b, c, limb, &scale);
  V3<F> upper, lower;
  ComputeMidJoint(a, b, limb, cEff, dirT, n, sign, &upper, &lower);

  // Rotations: the root swings with the limb plane (keeping its roll relative
  // to it); the mid is rebuilt from its forward and hinge axes.
  // Both as a swing and a twist (simd::SwingTwist); where that is
  // ill-conditioned (rare), from the two frames through a rotation matrix.
  // Each is normalized once, into its input's hemisphere (no sign flips from
  // frame to frame).
  Mask<F> rootOk, midOk;
  F norm1, norm2;
  Q4<F> turn1 = simd::SwingTwist(rootForward, hinge, upper, n, &rootOk, &norm1);
  if (!simd::All(rootOk)) {  // (unit: norm1 is 1 there)
    const V3<F> rootRef = PerpendicularOf(hinge, rootHinge, rootForward);
    turn1 = Select(rootOk, turn1, simd::FrameToFrame(rootForward, rootRef, upper, n));
  }
  const Q4<F> rootSolved = turn1 * q1;
  const F rootDot = Dot(rootSolved, q1);
  Q4<F> midSolved = shared.canonicalAxes
                        ? SwingTwistXZ(lower, n, &midOk, &norm2)
                        : simd::SwingTwist(ForwardOf<F>(shared), HingeOf<F>(shared), lower, n, &midOk, &norm2);
  if (!simd::All(midOk)) {
    const Q4<F> localInverse{F(shared.localFrameInverse.x), F(shared.localFrameInverse.y),
                             F(shared.localFrameInverse.z), F(shared.localFrameInverse.w)};
    midSolved = Select(midOk, midSolved, simd::FrameQuat(lower, n) * localInverse);
  }
  const F midDot = Dot(midSolved, q2);
  Q4<F> w1 = simd::ScaleNear(rootSolved, norm1, rootDot), w2 = simd::ScaleNear(midSolved, norm2, midDot);
  V3<F> upperNow = upper, lowerNow = lower;
  WeightOutput(io.weight, shared, q1, q2, rootSolved, rootDot, midSolved, midDot, &w1, &w2, &upperNow, &lowerNow);
  const F k = 1.0f + (scale - 1.0f) * io.weight;
  const V3<F> midK = p1 + upperNow * (k * a * k2Inverse);
  const V3<F> endK = midK + lowerNow * (k * b * k2Inverse);
  Q4<F> end = q3;
  if (shared.endRelative) {
    end = simd::Normalize(w2 * Conjugate(q2) * q3);
    end = Select(Dot(end, q3) < 0.0f, Q4<F>{-end.x, -end.y, -end.z, -end.w}, end);
  }

  // weight 0 returns the input unchanged (selected only where some lane has it).
  const auto solve = io.weight > 0.0f;
  const bool allSolve = simd::All(solve);
  io.outRootRotation = SelectUnlessAll(allSolve, solve, w1, q1);
  io.outMidRotation = SelectUnlessAll(allSolve, solve, w2, q2);
  io.outEndRotation = SelectUnlessAll(allSolve, solve, end, q3);
  io.outMidPosition = SelectUnlessAll(allSolve, solve, anyHuge ? midK * k1Inverse : midK, io.midPosition);
  io.outEndPosition = SelectUnlessAll(allSolve, solve, anyHuge ? endK * k1Inverse : endK, io.endPosition);

  // The contact point as it lands in the weighted output: end + effectorOffset,
  // the offset turned with the end under kRelative (the solve aimed it unturned).
  V3<F> miss = (anyHuge ? io.outEndPosition * k1 : io.outEndPosition) - goalK;
  if (shared.endRelative) {
    const V3<F> landed = Rotate(io.outEndRotation * Conjugate(q3), io.effectorOffset);
    miss = miss + (landed - io.effectorOffset) * k1;
  }
  const F missK = Sqrt(Dot(miss, miss));
  io.distance = missK * k1Inverse;
  io.reached = missK <= F(shared.tolerance) * (limb * k2Inverse);
  // x − x is 0 for a finite x and NaN otherwise: one sum tests all seven values.
  auto zeros = [](const V3<F>& v) { return (v.x - v.x) + (v.y - v.y) + (v.z - v.z); };
  io.finite = (zeros(io.outMidPosition) + zeros(io.outEndPosition)) + (io.distance - io.distance) == 0.0f;
}

}  // namespace ikpd::detail
