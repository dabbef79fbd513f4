#include "ikpd/ik/pseudo_three_bone.h"

#include <algorithm>
#include <cmath>

#include "two_bone_kernel.h"
#include "chain/rotation.h"
#include "fields.h"

namespace ikpd {


using chain_detail::AngleOf;
using chain_detail::Positive;

namespace {

// Weight, applied once to the full-weight pose (docs/ik/pseudo-three-bone.md):
// joints 1–2 through the two-bone weighting stage (rotations slerped from the
// input, bones rebuilt along them), joint 3 by the same slerp, each bone's
// length blended from its input to its solved (stretched) length. Weight 0
// gives the input pose. `limb` holds the input, `pose` the full-weight solve.
void ApplyWeight(const TwoBoneFrame& limb, const TwoBoneSetup& setup, PseudoThreeBoneResult* pose) {
  using simd::FromGlm;
  using simd::ToGlm;
  const float weight = limb.weight;
  const simd::Q4<float> q1 = FromGlm(NormalizeByReciprocalOr(limb.root.rotation, kIdentityRotation));
  const simd::Q4<float> q2 = FromGlm(NormalizeByReciprocalOr(limb.mid.rotation, kIdentityRotation));
  const simd::Q4<float> q3 = FromGlm(NormalizeByReciprocalOr(limb.end.rotation, kIdentityRotation));
  simd::Q4<float> r1 = FromGlm(pose->root.rotation), r2 = FromGlm(pose->mid.rotation);
  simd::V3<float> upper{}, lower{};
  const simd::Q4<float> solved1 = r1, solved2 = r2;
  detail::two_bone_kernel::WeightOutput(weight, detail::SharedOf(setup), q1, q2, solved1, Dot(q1, solved1), solved2,
                                        Dot(q2, solved2), &r1, &r2, &upper, &lower);
  const simd::Q4<float> r3 = simd::Slerp(q3, FromGlm(pose->end.rotation), weight);

  const auto blended = [weight](const glm::vec3& from, const glm::vec3& to, const glm::vec3& solvedFrom,
                                const glm::vec3& solvedTo) {
    const double input = glm::distance(glm::dvec3(to), glm::dvec3(from));
    return input + (glm::distance(glm::dvec3(solvedTo), glm::dvec3(solvedFrom)) - input) * weight;
  };
  const double a = blended(limb.root.position, limb.mid.position, pose->root.position, pose->mid.position);
  const double b = blended(limb.mid.position, limb.end.position, pose->mid.position, pose->end.position);
  const glm::dvec3 mid = glm::dvec3(limb.root.position) + glm::dvec3(ToGlm(upper)) * a;
  const glm::dvec3 end = mid + glm::dvec3(ToGlm(lower)) * b;

  const bool solve = weight > 0.0f;  // weight 0 keeps the input positions exactly
  pose->root = {limb.root.position, ToGlm(r1)};
  pose->mid = {solve ? glm::vec3(mid) : limb.mid.position, ToGlm(r2)};
  pose->end = {solve ? glm::vec3(end) : limb.end.position, ToGlm(r3)};
}

// The tip's own checks (its blend's range is described: CheckFields).
Status ValidateTip(const Transform& tip, const glm::vec3& end) {
  if (!IsFinite(tip.position)) return Error("tip: position must be finite");
  if (!IsUsableRotation(tip.rotation)) return Error("tip: rotation must be finite and non-zero");
  if (!IsFinite(glm::vec3(glm::dvec3(tip.position) - glm::dvec3(end)))) {
    return Error("tip: too far from end for float coordinates");
  }
  return Ok();
}

// The limb's two-bone settings as both passes use them: the effector keeps its
// world rotation, so the tip's offset stays valid (endRotation is ignored).
TwoBoneSettings PassSettings(const TwoBoneSettings& limb) {
  TwoBoneSettings s = limb;
  s.endRotation = EndRotation::kWorld;
  return s;
}

}  // namespace

Status PseudoThreeBoneSettings::Validate() const {
  if (Status s = PassSettings(limb).Validate(); !s) return s;
  return describe::CheckFields(*this, &PseudoThreeBoneJob::settings);
}

// The limb's checks as a two-bone job's (its effectorOffset is ignored), the
// tip's, then every described range and enum in field order (the limb's
// pass already), the result.
Status PseudoThreeBoneJob::Validate() const {
  TwoBoneResult unused;
  TwoBoneJob limb{frame.limb, PassSettings(settings.limb), &unused};
  limb.frame.effectorOffset = glm::vec3(0.0f);
  if (Status s = limb.Validate(); !s) return s;
  if (Status s = ValidateTip(frame.tip, frame.limb.end.position); !s) return s;
  if (Status s = describe::CheckFields(*this); !s) return s;
  if (result == nullptr) return Error("result: output pointer must not be null");
  return Ok();
}

Status Prepare(const PseudoThreeBoneSettings& settings, PseudoThreeBoneSetup* setup) {
  if (setup == nullptr) return Error("setup: output pointer must not be null");
  if (Status s = settings.Validate(); !s) return s;
  if (Status s = Prepare(PassSettings(settings.limb), &setup->limb_); !s) return s;
  setup->settings_ = settings;
  return Ok();
}

Status PseudoThreeBoneJob::Run() const {
  if (Status s = Validate(); !s) return s;
  PseudoThreeBoneSetup setup;
  if (Status s = Prepare(settings, &setup); !s) return s;
  return SolvePseudoThreeBone(setup, frame, result);
}

Status SolvePseudoThreeBone(const PseudoThreeBoneSetup& setup, const PseudoThreeBoneFrame& frame,
                            PseudoThreeBoneResult* result) {
  if (!setup.prepared()) return Error("setup: not prepared (call Prepare first)");
  const PseudoThreeBoneSettings& settings = setup.settings();
  const TwoBoneFrame& limb = frame.limb;
  const Transform& tip = frame.tip;
  const float blend = frame.blend;
  {
    TwoBoneFrame check = limb;
    check.effectorOffset = glm::vec3(0.0f);  // ignored
    if (Status s = detail::CheckTwoBoneFrame(setup.limb().settings(), check); !s) return s;
    if (Status s = ValidateTip(tip, limb.end.position); !s) return s;
    if (Status s = describe::CheckFields(frame, &PseudoThreeBoneJob::frame); !s) return s;
    if (result == nullptr) return Error("result: output pointer must not be null");
  }

  const glm::quat q2 = NormalizeByReciprocalOr(limb.mid.rotation, kIdentityRotation);
  const glm::quat q3 = NormalizeByReciprocalOr(limb.end.rotation, kIdentityRotation);
  const glm::quat qDiff = glm::conjugate(q2) * q3;                                      // step 1
  const glm::vec3 offset0(glm::dvec3(tip.position) - glm::dvec3(limb.end.position));  // step 2

  TwoBoneResult solved;
  TwoBoneFrame pass = limb;
  pass.weight = 1.0f;               // both passes at full weight; ApplyWeight weighs the result
  pass.effectorOffset = offset0;    // step 3
  if (Status s = SolveTwoBone(setup.limb(), pass, &solved); !s) return s;  // step 4

  // Step 5: rebuild joint 3 from the solved joint 2.
  const glm::quat rebuilt = settings.variant == PseudoThreeBoneVariant::kRelative
                                ? glm::normalize(solved.mid.rotation * qDiff)
                                : solved.mid.rotation;
  // Step 6: blend between the rebuilt and the initial posture (0 → rebuilt, 1 → initial).
  glm::quat end = blend <= 0.0f ? rebuilt : glm::normalize(glm::slerp(rebuilt, q3, blend));
  // Optional limit: at most endLimit from the input rotation relative to joint 2.
  bool limited = false;
  const float endLimit = settings.endLimit;
  if (endLimit < kPi) {
    const glm::quat reference = glm::normalize(solved.mid.rotation * qDiff);
    const glm::quat delta = Positive(glm::conjugate(reference) * end);
    const float angle = AngleOf(delta);
    if (angle > endLimit) {
      end = glm::normalize(reference * glm::slerp(glm::quat(1.0f, 0.0f, 0.0f, 0.0f), delta, endLimit / angle));
      limited = true;
    }
  }
  // Upper + lower length of the input limb (`reached` and the stretch budget use it).
  const auto limb_length = [](const glm::vec3& r, const glm::vec3& m, const glm::vec3& e) {
    return glm::distance(glm::dvec3(m), glm::dvec3(r)) + glm::distance(glm::dvec3(e), glm::dvec3(m));
  };
  const double length = limb_length(limb.root.position, limb.mid.position, limb.end.position);
  const float maxStretch = settings.limb.maxStretch;
  glm::vec3 offset = offset0;
  if (blend >= 1.0f && !limited) {
    end = q3;  // blend 1: done after one pass, the effector keeps its input rotation
  } else {
    // Step 7: steps 2–4 again with the new joint 3 (its tip moves rigidly with it).
    offset = (end * glm::conjugate(q3)) * offset0;
    const TwoBoneResult first = solved;
    pass.root = first.root;
    pass.mid = first.mid;
    pass.end = {first.end.position, end};
    pass.effectorOffset = offset;
    // Stretch applied by the first pass counts toward maxStretch. Both bones
    // scale by the same factor, so the whole limb's length measures it (one
    // bone alone may have zero length). Only maxStretch changes: the setup is
    // copied with it, nothing else is derived again.
    const double stretched = limb_length(first.root.position, first.mid.position, first.end.position);
    const TwoBoneSetup* second = &setup.limb();
    TwoBoneSetup restretched;
    if (maxStretch > 1.0f && stretched > length && length > 0.0) {
      restretched = setup.limb();
      TwoBoneSettings limbSettings = restretched.settings();
      detail::TwoBoneShared shared = detail::SharedOf(restretched);
      limbSettings.maxStretch = shared.maxStretch =
          std::max(1.0f, static_cast<float>(maxStretch * length / stretched));
      detail::TwoBoneSetupAccess::Store(restretched, shared, limbSettings);
      second = &restretched;
    }
    if (Status s = SolveTwoBone(*second, pass, &solved); !s) return s;
  }

  PseudoThreeBoneResult out;
  out.root = solved.root;
  out.mid = solved.mid;
  out.end = {solved.end.position, end};
  out.distance = solved.distance;
  if (limb.weight < 1.0f) {
    ApplyWeight(limb, setup.limb(), &out);
    end = out.end.rotation;
    offset = (end * glm::conjugate(q3)) * offset0;
  }
  out.tip.position = glm::vec3(glm::dvec3(out.end.position) + glm::dvec3(offset));
  out.tip.rotation = glm::normalize((end * glm::conjugate(q3)) * NormalizeByReciprocalOr(tip.rotation, kIdentityRotation));
  if (limb.weight < 1.0f) {
    out.distance = static_cast<float>(glm::distance(glm::dvec3(out.tip.position), glm::dvec3(limb.target)));
  }
  // Relative to the input limb, not to the extra pass's (possibly stretched) one.
  out.reached = out.distance <= static_cast<double>(settings.limb.tolerance) * length;
  if (!IsFinite(out.mid) || !IsFinite(out.end) || !IsFinite(out.tip) || !IsFinite(out.distance)) {
    return Error("target: too far away for float coordinates (the result would overflow)");
  }
  *result = out;
  return Ok();
}

}  // namespace ikpd
