// Fuzzes the rig's grounding constraint (docs/rig/grounding.md): random biped or
// quadruped rigs (random rest rotations, bone lengths, scaled roots), settings
// (valid or not), ground hits (NaN, walls, zero normals, far away, edges crossed
// at any point of the step) and frames.
// Every error names a parameter and changes nothing (the output, and the state:
// the next frame equals that of a copy taken before the failed one); every
// successful update writes finite locals with usable rotations.
#include <cstring>
#include <vector>

#include "fuzz.h"
#include "ikpd/rig/rig.h"

using namespace ikpd;
using namespace ikpd::fuzz;
using namespace ikpd::rig;

namespace {
bool Same(const std::vector<LocalTransform>& a, const std::vector<LocalTransform>& b) {
  return std::memcmp(a.data(), b.data(), sizeof(LocalTransform) * a.size()) == 0;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  const int legs = in.Bool() ? 2 : 4;
  const int per = in.Bool() ? 3 : 4;
  // 0 root, 1 pelvis, 2 chest, then the legs (hind under the pelvis, front under the chest).
  std::vector<int> parents = {-1, 0, 1};
  std::vector<int> legJoints;
  for (int l = 0; l < legs; ++l) {
    const int first = static_cast<int>(parents.size());
    parents.push_back(legs == 4 && l >= 2 ? 2 : 1);
    for (int k = 1; k < per; ++k) parents.push_back(first + k - 1);
    for (int k = 0; k < per; ++k) legJoints.push_back(first + k);
  }
  const std::size_t n = parents.size();
  Skeleton skeleton;
  if (!skeleton.Init(parents)) return 0;
  std::vector<LocalTransform> rest(n);
  for (std::size_t j = 0; j < n; ++j) {
    rest[j].rotation = in.Int(0, 3) == 0 ? glm::quat(1, 0, 0, 0) : in.Quat();
    rest[j].translation = in.Int(0, 3) == 0 ? in.Vec3() : glm::vec3(in.Range(-0.3f, 0.3f), in.Range(-0.6f, 0.1f), in.Range(-0.3f, 0.3f));
  }
  rest[0].translation = glm::vec3(0.0f, in.Range(0.0f, 2.0f), 0.0f);
  if (in.Int(0, 3) == 0) rest[0].scale = glm::vec3(in.Range(0.01f, 100.0f));
  Rig rig;
  if (!rig.Init(skeleton, rest)) return 0;
  ConstraintSettings s = DefaultSettings(ConstraintKind::kGrounding);
  s.joints = legs == 4 && in.Bool() ? std::vector<int>{1, 2} : std::vector<int>{in.Int(0, 3) == 0 ? in.Int(-1, 3) : 1};
  s.legs = legJoints;
  if (in.Int(0, 7) == 0) s.legs[static_cast<std::size_t>(in.Int(0, static_cast<int>(s.legs.size()) - 1))] = in.Int(-1, static_cast<int>(n));
  s.grounding.legJoints = static_cast<std::size_t>(in.Int(0, 7) == 0 ? in.Int(2, 5) : per);
  if (in.Bool()) s.soleOffsets.assign(static_cast<std::size_t>(legs), in.Int(0, 3) == 0 ? in.MaybeNonFinite() : in.Range(0.01f, 0.2f));
  if (in.Bool()) s.grounding.groundHeight = in.Int(0, 7) == 0 ? in.MaybeNonFinite() : in.Range(-1.0f, 1.0f);
  if (in.Int(0, 3) == 0) s.grounding.maxPelvisDrop = in.MaybeNonFinite();
  if (in.Int(0, 3) == 0) s.grounding.maxFootPitch = in.MaybeNonFinite();
  if (in.Int(0, 3) == 0) s.grounding.plantSpeed = in.MaybeNonFinite();
  if (in.Int(0, 3) == 0) s.grounding.soften = in.Range(0.0f, 1.0f);
  if (in.Int(0, 3) == 0) s.common.weight = in.Range(0.0f, 1.0f);
  if (in.Bool()) s.common.settleTime = in.Range(0.0f, 0.5f);
  if (in.Int(0, 3) == 0) s.common.damping = in.Range(0.1f, 2.0f);
  const Status added = rig.Add(s);
  FUZZ_CHECK(NamesParameter(added), "add error without a parameter: %s", added.error);
  FUZZ_CHECK(rig.constraintCount() == (added ? 1u : 0u), "a failed Add changed the rig");
  if (!added) return 0;

  std::vector<LocalTransform> pose = rest, out(n), copyOut(n);
  LocalTransform root;
  if (in.Bool()) {
    root.translation = in.Vec3();
    root.rotation = in.Quat();
    if (in.Bool()) root.scale = glm::vec3(in.Range(0.1f, 10.0f));
  }
  const int frames = in.Int(1, 8);
  for (int f = 0; f < frames; ++f) {
    for (std::size_t j = 1; j < n; ++j) {
      if (in.Int(0, 2) == 0) pose[j].rotation = in.Quat();
    }
    if (in.Int(0, 15) == 0) pose[in.Int(0, static_cast<int>(n) - 1)].translation = in.MaybeNonFiniteVec3();
    const Status probed = rig.Probe(pose, root);
    FUZZ_CHECK(NamesParameter(probed), "probe error without a parameter: %s", probed.error);
    for (std::size_t i = 0; i < rig.grounds().size(); ++i) {
      GroundHit& g = rig.grounds()[i];
      const glm::vec3 sole = probed ? rig.probes()[i].sole : glm::vec3(0.0f);
      if (probed) FUZZ_CHECK(IsFinite(sole) && IsFinite(rig.probes()[i].hip), "probe %zu not finite", i);
      g.hit = in.Int(0, 5) == 0 ? 0.0f : in.Int(0, 31) == 0 ? in.MaybeNonFinite() : 1.0f;
      g.point = in.Int(0, 3) == 0 ? in.MaybeNonFiniteVec3() : sole + glm::vec3(0.0f, in.Range(-0.3f, 0.3f), 0.0f);
      g.normal = in.Int(0, 3) == 0 ? in.MaybeNonFiniteVec3() : glm::vec3(in.Range(-1.0f, 1.0f), 1.0f, in.Range(-1.0f, 1.0f));
      g.plant = in.Int(0, 3) == 0 ? in.MaybeNonFinite() : -1.0f;
      // The step's edge: none, a fraction, past the step's end or non-finite (an error).
      g.edge = in.Int(0, 3) == 0 ? (in.Int(0, 7) == 0 ? in.MaybeNonFinite() : in.Range(0.0f, 1.0f)) : -1.0f;
    }
    if (in.Int(0, 7) == 0) {
      ConstraintSettings next = rig.settings(0);
      next.common.enabled = !next.common.enabled;
      (void)rig.SetSettings(0, next);
    }
    const float dt = in.Int(0, 7) == 0 ? in.MaybeNonFinite() : in.Range(0.0f, 0.1f);
    Rig copy = rig;
    const std::vector<LocalTransform> previous = out;
    const Status st = rig.Update(dt, pose, root, out);
    FUZZ_TRACE("frame %d dt %g: %s\n", f, static_cast<double>(dt), st.error ? st.error : "ok");
    if (!st) {
      FUZZ_CHECK(NamesParameter(st), "update error without a parameter: %s", st.error);
      FUZZ_CHECK(Same(previous, out), "output written on error: %s", st.error);
      // The state is unchanged: the same valid frame gives the same result on both.
      for (GroundHit& g : rig.grounds()) g = {};
      for (GroundHit& g : copy.grounds()) g = {};
      std::vector<LocalTransform> a(n), b(n);
      const Status sa = rig.Update(0.01f, pose, root, a), sb = copy.Update(0.01f, pose, root, b);
      FUZZ_CHECK(static_cast<bool>(sa) == static_cast<bool>(sb) && Same(a, b), "a failed update changed the state");
      continue;
    }
    for (std::size_t j = 0; j < n; ++j) {
      FUZZ_CHECK(IsFinite(out[j].translation) && IsFinite(out[j].scale) && IsUsableRotation(out[j].rotation),
                 "joint %zu: unusable output", j);
      const float norm = glm::length(out[j].rotation);
      FUZZ_CHECK(std::abs(norm - 1.0f) < 1e-3f || std::memcmp(&out[j].rotation, &pose[j].rotation, sizeof(glm::quat)) == 0,
                 "joint %zu: rotation not unit (%g)", j, static_cast<double>(norm));
    }
    const ConstraintResult& r = rig.results()[0];
    FUZZ_CHECK(std::isfinite(r.distance) && std::isfinite(r.iterations), "result not finite");
  }
  return 0;
}
