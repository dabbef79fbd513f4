// Fuzzes the Inertializer (docs/pd/inertializer.md): random poses (any floats,
// non-finite and zero rotations included), half-lives and steps, in a random
// sequence of Transition/Update calls on one inertializer. Every call either
// succeeds or returns an error naming its field and changes nothing; every
// output is finite with unit rotations; right after a transition, Update(0)
// gives back `from` (for moderate poses; a cut gives `to`).
#include <cstring>
#include <vector>

#include "fuzz.h"

using namespace ikpd;
using namespace ikpd::pd;
using namespace ikpd::fuzz;

namespace {

constexpr std::size_t kMaxJoints = 6;

void FillPose(Input& in, std::size_t n, std::vector<Transform>* pose) {
  pose->resize(n);
  for (Transform& t : *pose) {
    t.position = in.Int(0, 15) == 0 ? in.MaybeNonFiniteVec3() : in.Vec3();
    t.rotation = in.Int(0, 15) == 0 ? glm::quat(in.MaybeNonFinite(), in.MaybeNonFinite(), in.MaybeNonFinite(),
                                                in.MaybeNonFinite())
                                    : in.Quat();
  }
}

// A size that is usually right: wrong sizes must be named errors.
std::size_t Size(Input& in, std::size_t n) { return in.Int(0, 15) == 0 ? static_cast<std::size_t>(in.Int(0, 8)) : n; }

double Time(Input& in) {
  switch (in.Int(0, 7)) {
    case 0: return 0.0;
    case 1: return 1.0 / 60.0;
    case 2: return 1e-6;
    case 3: return static_cast<double>(in.MaybeNonFinite());
    default: return static_cast<double>(in.Range(0.0f, 0.5f));
  }
}

struct Snapshot {
  double elapsed, halfLife;
  std::vector<double> offsets;
  bool operator==(const Snapshot&) const = default;
};

Snapshot Take(const Inertializer& z) {
  Snapshot s{z.elapsed(), z.halfLife(), {}};
  for (std::size_t j = 0; j < z.jointCount(); ++j) {
    glm::dvec3 r, t;
    FUZZ_CHECK(z.OffsetAt(j, &r, &t), "OffsetAt failed");
    s.offsets.insert(s.offsets.end(), {r.x, r.y, r.z, t.x, t.y, t.z});
  }
  return s;
}

bool Moderate(std::span<const Transform> pose) {
  for (const Transform& t : pose) {
    if (!fuzz::Moderate(t.position, 1e3f) || !IsUsableRotation(t.rotation) || glm::dot(t.rotation, t.rotation) < 1e-4f)
      return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  const std::size_t n = static_cast<std::size_t>(in.Int(1, kMaxJoints));
  Inertializer z;
  FUZZ_CHECK(z.Configure(n), "Configure(%zu) failed", n);
  std::vector<Transform> from, to, fromPrev, toPrev, pose, out(n);
  for (int op = 0; op < 24 && in.remaining() > 0; ++op) {
    const Snapshot before = Take(z);
    if (in.Int(0, 3) == 0) {
      FillPose(in, Size(in, n), &from);
      FillPose(in, Size(in, n), &to);
      FillPose(in, in.Bool() ? Size(in, n) : 0, &fromPrev);
      FillPose(in, in.Bool() ? Size(in, n) : 0, &toPrev);
      InertializerTransition t{from, to, fromPrev, toPrev, Time(in), Time(in)};
      const Status validated = z.Validate(t);
      FUZZ_CHECK(Take(z) == before, "Validate changed the state");
      const Status s = z.Transition(t);
      FUZZ_TRACE("transition n=%zu dt=%g halfLife=%g: %s\n", n, t.dt, t.halfLife, s ? "ok" : s.error);
      FUZZ_CHECK(validated.ok() == s.ok(), "Validate and Transition disagree: %s", s ? validated.error : s.error);
      if (!s) {
        FUZZ_CHECK(NamesParameter(s), "error does not name a parameter: %s", s.error);
        FUZZ_CHECK(Take(z) == before, "state changed on error: %s", s.error);
        continue;
      }
      // The switch instant gives back `from`.
      std::vector<Transform> at(n);
      FUZZ_CHECK(z.Update(0.0, to, at), "Update(0) after a transition failed");
      if (t.halfLife > 1e-100 && Moderate(from) && Moderate(to)) {  // 0: a cut
        for (std::size_t j = 0; j < n; ++j) {
          const glm::dquat a = glm::normalize(glm::dquat(from[j].rotation));  // double: huge components
          const double d = std::fabs(glm::dot(a, glm::dquat(at[j].rotation)));
          FUZZ_CHECK(std::fabs(d - 1.0) < 1e-5, "switch rotation %zu moved: |dot| = %.9g", j, d);
          FUZZ_CHECK(glm::length(at[j].position - from[j].position) < 1e-3f, "switch position %zu moved", j);
        }
      }
      continue;
    }
    FillPose(in, Size(in, n), &pose);
    out.assign(Size(in, n), Transform{glm::vec3(7.0f), glm::quat(0.5f, 0.5f, 0.5f, 0.5f)});
    const std::vector<Transform> kept = out;
    const double dt = Time(in);
    const Status s = z.Update(dt, pose, out);
    FUZZ_TRACE("update dt=%g: %s\n", dt, s ? "ok" : s.error);
    if (!s) {
      FUZZ_CHECK(NamesParameter(s), "error does not name a parameter: %s", s.error);
      FUZZ_CHECK(Take(z) == before, "state changed on error: %s", s.error);
      FUZZ_CHECK(out.empty() || std::memcmp(out.data(), kept.data(), out.size() * sizeof(Transform)) == 0,
                 "out written on error");
      continue;
    }
    for (const Transform& t : out) {
      FUZZ_CHECK(Finite(t.position, t.rotation), "non-finite output");
      FUZZ_CHECK(IsUnit(t.rotation), "output rotation not unit");
    }
  }
  return 0;
}
