// Fuzzes the look-at rigs (docs/rig/look-at.md, docs/rig/body-look-at.md): LookAt and
// BodyLookAt with random settings, then a few updates with random poses,
// targets, time steps, eyes and enabled flags. Checks: settings and inputs are
// accepted or rejected with a named error; a rejected update changes nothing
// (output, offsets, gaze, shift); an accepted one gives unit rotations, no NaN
// (positions may only overflow to ±Inf for inputs near the float limit), and
// a gaze inside the eye limits.
#include <array>
#include <vector>

#include "fuzz.h"

using namespace ikpd;
using namespace ikpd::fuzz;

namespace {

bool NoNaN(const glm::vec3& v) { return !std::isnan(v.x) && !std::isnan(v.y) && !std::isnan(v.z); }

// A float setting: usually in its range, sometimes anything (errors must name it).
float Setting(Input& in, float lo, float hi) {
  switch (in.Int(0, 7)) {
    case 0: return in.MaybeNonFinite();
    case 1: return std::numeric_limits<float>::infinity();
    default: return in.Range(lo, hi);
  }
}

// Joints near a chain: mostly moderate, sometimes anything.
Transform Joint(Input& in, const glm::vec3& near, bool wild) {
  Transform j{near + in.Range(-1.0f, 1.0f) * in.Axis(), in.Quat()};
  if (wild) j = {in.Bool() ? in.MaybeNonFiniteVec3() : in.Vec3(), in.Quat()};
  return j;
}

bool Huge(std::span<const Transform> joints) {
  for (const Transform& j : joints) {
    if (!Moderate(j.position, 1e30f)) return true;
  }
  return false;
}

void CheckPose(std::span<const Transform> out, bool huge, const char* what) {
  for (const Transform& j : out) {
    FUZZ_CHECK(NoNaN(j.position), "%s: NaN position", what);
    FUZZ_CHECK(huge || Finite(j.position), "%s: non-finite position for moderate input", what);
    FUZZ_CHECK(Finite(j.rotation) && IsUnit(j.rotation, 1e-4f), "%s: rotation not unit", what);
  }
}

void FuzzLookAt(Input& in) {
  const std::size_t n = static_cast<std::size_t>(in.Int(1, 6));
  std::vector<float> weights(n), limits(n), settle(n);
  for (float& w : weights) w = in.Int(0, 5) == 0 ? in.MaybeNonFinite() : in.Range(0.0f, 1.0f);
  for (float& l : limits) l = Setting(in, 0.0f, kPi);
  for (float& t : settle) t = Setting(in, 0.01f, 2.0f);
  LookAtSettings s;
  s.weights = weights;
  if (in.Bool()) s.limits = limits;
  if (in.Bool()) s.settleTimes = settle;
  s.settleTime = Setting(in, 0.01f, 2.0f);
  s.damping = Setting(in, 0.1f, 3.0f);
  s.blendOutTime = Setting(in, 0.0f, 0.5f);
  s.forward = in.Axis();
  if (in.Bool()) s.offset = in.Range(0.0f, 0.3f) * in.Axis();
  s.up = in.Axis();
  s.maxYaw = Setting(in, 0.0f, kPi);
  s.maxPitchUp = Setting(in, 0.0f, kPi / 2.0f);
  s.maxPitchDown = Setting(in, 0.0f, kPi / 2.0f);
  s.behind = static_cast<LookBehind>(in.Int(0, 3));
  s.maxSpeed = in.Bool() ? std::numeric_limits<float>::infinity() : Setting(in, 0.1f, 20.0f);
  s.targetMotion = static_cast<pd::TargetMotion>(in.Int(0, 2));
  s.ki = in.Int(0, 3) == 0 ? Setting(in, 0.0f, 5.0f) : 0.0f;
  s.eyeYaw = Setting(in, 0.0f, kPi / 2.0f);
  s.eyePitchUp = Setting(in, 0.0f, kPi / 2.0f);
  s.eyePitchDown = Setting(in, 0.0f, kPi / 2.0f);
  s.eyeSettleTime = Setting(in, 0.01f, 0.5f);
  LookAt look;
  const Status reset = look.Reset(s);
  FUZZ_CHECK(NamesParameter(reset), "Reset error does not name a parameter: %s", reset.error);
  if (!reset) return;
  const bool wild = in.Int(0, 7) == 0;
  std::vector<Transform> joints(n), out(n), before(n);
  std::array<Transform, 2> eyes{}, eyesOut{};
  for (int step = 0; step < 4 && in.remaining() > 0; ++step) {
    for (std::size_t i = 0; i < n; ++i) joints[i] = Joint(in, glm::vec3(0.0f, static_cast<float>(i) * 0.2f, 0.0f), wild);
    const std::size_t e = static_cast<std::size_t>(in.Int(0, 2));
    for (std::size_t k = 0; k < e; ++k) eyes[k] = Joint(in, joints[n - 1].position, wild && in.Bool());
    const glm::vec3 target = wild ? in.MaybeNonFiniteVec3() : joints[n - 1].position + in.Range(0.0f, 10.0f) * in.Axis();
    const float dt = in.Int(0, 7) == 0 ? in.MaybeNonFinite() : in.Range(0.0f, 0.2f);
    const bool enabled = in.Int(0, 3) != 0;
    for (Transform& o : out) o = {glm::vec3(7.0f), glm::quat(7.0f, 7.0f, 7.0f, 7.0f)};
    before = out;
    const std::vector<glm::quat> offsets(look.offsets().begin(), look.offsets().end());
    const float yaw = look.gazeYaw(), pitch = look.gazePitch();
    FUZZ_TRACE("lookAt n %zu eyes %zu dt %g enabled %d\n", n, e, static_cast<double>(dt), enabled);
    const Status st = look.Update(dt, joints, target, enabled, out, std::span(eyes).first(e), std::span(eyesOut).first(e));
    if (!st) {
      FUZZ_CHECK(NamesParameter(st), "Update error does not name a parameter: %s", st.error);
      FUZZ_CHECK(std::memcmp(out.data(), before.data(), n * sizeof(Transform)) == 0, "output written on error: %s", st.error);
      FUZZ_CHECK(std::equal(offsets.begin(), offsets.end(), look.offsets().begin()), "offsets changed on error: %s", st.error);
      FUZZ_CHECK(yaw == look.gazeYaw() && pitch == look.gazePitch(), "gaze changed on error: %s", st.error);
      continue;
    }
    const bool huge = Huge(joints) || Huge(std::span(eyes).first(e)) || !Moderate(target, 1e30f);
    CheckPose(out, huge, "lookAt");
    CheckPose(std::span(eyesOut).first(e), huge, "lookAt eyes");
    for (const glm::quat& q : look.offsets()) FUZZ_CHECK(Finite(q) && IsUnit(q, 1e-4f), "offset not unit");
    FUZZ_CHECK(std::abs(look.gazeYaw()) <= s.eyeYaw * 1.5f + 1e-3f, "gaze yaw %g past eyeYaw %g",
               static_cast<double>(look.gazeYaw()), static_cast<double>(s.eyeYaw));
    FUZZ_CHECK(std::isfinite(look.gazePitch()), "gaze pitch not finite");
  }
}

void FuzzBodyLookAt(Input& in) {
  BodyLookAtSettings s;
  s.spineJoints = static_cast<std::size_t>(in.Int(1, 7));
  s.forward = in.Axis();
  s.up = in.Axis();
  if (in.Bool()) s.offset = in.Range(0.0f, 0.3f) * in.Axis();
  s.spine.damping = Setting(in, 0.1f, 3.0f);
  s.spine.maxSpeed = in.Bool() ? std::numeric_limits<float>::infinity() : Setting(in, 0.1f, 20.0f);
  s.spine.targetMotion = static_cast<pd::TargetMotion>(in.Int(0, 2));
  s.weightShift.amount = Setting(in, 0.0f, 1.0f);
  s.weightShift.limit = Setting(in, 0.0f, 0.3f);
  s.armReaction.amount = Setting(in, 0.0f, 1.0f);
  s.armReaction.chest = in.Int(-2, 7);
  s.footLock = in.Int(0, 3) != 0;
  s.maxYaw = Setting(in, 0.0f, kPi);
  s.maxPitchUp = Setting(in, 0.0f, kPi / 2.0f);
  s.maxPitchDown = Setting(in, 0.0f, kPi / 2.0f);
  s.behind = static_cast<LookBehind>(in.Int(0, 3));
  s.eyeYaw = Setting(in, 0.0f, kPi / 2.0f);
  BodyLookAt rig;
  const Status reset = rig.Reset(s);
  FUZZ_CHECK(NamesParameter(reset), "Reset error does not name a parameter: %s", reset.error);
  if (!reset) return;
  const std::size_t n = s.spineJoints;
  const bool wild = in.Int(0, 7) == 0;
  std::vector<Transform> spine(n), arms(6), legs(6), spineOut(n), armsOut(6), legsOut(6);
  std::array<Transform, 2> eyes{}, eyesOut{};
  for (int step = 0; step < 4 && in.remaining() > 0; ++step) {
    for (std::size_t i = 0; i < n; ++i) spine[i] = Joint(in, glm::vec3(0.0f, 1.0f + 0.12f * static_cast<float>(i), 0.0f), wild);
    for (std::size_t i = 0; i < 6; ++i) arms[i] = Joint(in, glm::vec3(i < 3 ? 0.2f : -0.2f, 1.3f - 0.25f * static_cast<float>(i % 3), 0.0f), wild);
    for (std::size_t i = 0; i < 6; ++i) legs[i] = Joint(in, glm::vec3(i < 3 ? 0.1f : -0.1f, 0.95f - 0.43f * static_cast<float>(i % 3), 0.0f), wild);
    const std::size_t a = static_cast<std::size_t>(3 * in.Int(0, 2)), l = static_cast<std::size_t>(3 * in.Int(0, 2));
    const std::size_t e = static_cast<std::size_t>(in.Int(0, 2));
    for (std::size_t k = 0; k < e; ++k) eyes[k] = Joint(in, spine[n - 1].position, wild && in.Bool());
    BodyLookAtInput input;
    input.spine = spine;
    input.arms = std::span(arms).first(a);
    input.legs = std::span(legs).first(l);
    input.eyes = std::span(eyes).first(e);
    input.target = wild ? in.MaybeNonFiniteVec3() : spine[n - 1].position + in.Range(0.0f, 10.0f) * in.Axis();
    input.enabled = in.Int(0, 3) != 0;
    const float dt = in.Int(0, 7) == 0 ? in.MaybeNonFinite() : in.Range(0.0f, 0.2f);
    for (Transform& o : spineOut) o = {glm::vec3(7.0f), glm::quat(7.0f, 7.0f, 7.0f, 7.0f)};
    const std::vector<Transform> before = spineOut;
    const glm::vec3 shift = rig.pelvisShift();
    const float yaw = rig.gazeYaw();
    const BodyLookAtOutput output{spineOut, std::span(armsOut).first(a), std::span(legsOut).first(l), std::span(eyesOut).first(e)};
    FUZZ_TRACE("bodyLookAt n %zu arms %zu legs %zu eyes %zu dt %g\n", n, a, l, e, static_cast<double>(dt));
    const Status st = rig.Update(dt, input, output);
    if (!st) {
      FUZZ_CHECK(NamesParameter(st), "Update error does not name a parameter: %s", st.error);
      FUZZ_CHECK(std::memcmp(spineOut.data(), before.data(), n * sizeof(Transform)) == 0, "output written on error: %s", st.error);
      FUZZ_CHECK(SameBytes(shift, rig.pelvisShift()) && yaw == rig.gazeYaw(), "state changed on error: %s", st.error);
      continue;
    }
    const bool huge = Huge(spine) || Huge(input.arms) || Huge(input.legs) || Huge(input.eyes) || !Moderate(input.target, 1e30f);
    CheckPose(output.spine, huge, "bodyLookAt spine");
    CheckPose(output.arms, huge, "bodyLookAt arms");
    CheckPose(output.legs, huge, "bodyLookAt legs");
    CheckPose(output.eyes, huge, "bodyLookAt eyes");
    FUZZ_CHECK(std::isfinite(rig.pelvisDrop()) && rig.pelvisDrop() >= 0.0f, "drop %g", static_cast<double>(rig.pelvisDrop()));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  if (in.Bool()) {
    FuzzLookAt(in);
  } else {
    FuzzBodyLookAt(in);
  }
  return 0;
}
