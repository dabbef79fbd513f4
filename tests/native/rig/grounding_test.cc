// The grounding constraint (docs/rig/grounding.md): a standing character on flat
// ground, slopes and steps, with every bone-axis convention and scaled or
// rotated parents; bad input; Probe.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "native/grounding_test_util.h"

namespace {

using namespace groundtest;

struct Scene {
  Rig rig;
  Character character;
  std::vector<LocalTransform> in, out;
  LocalTransform root{};
  bool toes = false;
};

Scene Start(const Character& c, bool toes, const std::function<void(ConstraintSettings&)>& edit = {}) {
  Scene r;
  r.character = c;
  r.toes = toes;
  ikpd::rig::Skeleton skeleton;
  EXPECT_TRUE(skeleton.Init(c.layout.parents).ok());
  EXPECT_TRUE(r.rig.Init(skeleton, c.rest).ok());
  ConstraintSettings s = Settings(c.layout, toes);
  if (edit) edit(s);
  const ikpd::Status st = r.rig.Add(s);
  EXPECT_TRUE(st.ok()) << st.error;
  r.in = c.rest;
  r.out.resize(c.rest.size());
  return r;
}

// One frame: probe, query the ground, update.
void Tick(Scene& r, const Ground& g, float dt, float plant = -1.0f) {
  ASSERT_TRUE(r.rig.Probe(r.in, r.root).ok());
  Query(r.rig, g, plant);
  const ikpd::Status st = r.rig.Update(dt, r.in, r.root, r.out);
  ASSERT_TRUE(st.ok()) << st.error;
}

// Each leg's sole point after the solve (world) and its distance above the ground.
struct Sole {
  glm::vec3 point;
  float height;
};
std::vector<Sole> Soles(const Scene& r, const Ground& g) {
  const auto before = rigtest::Fk(r.character.layout.parents, r.in, r.root);
  const auto after = rigtest::Fk(r.character.layout.parents, r.out, r.root);
  std::vector<Sole> soles;
  const auto& s = r.rig.settings(0);
  for (std::size_t i = 0; i < r.character.layout.legs.size(); ++i) {
    const int effector = r.character.layout.legs[i][r.toes ? 3 : 2];
    const int ankle = r.character.layout.legs[i][2];
    const glm::quat turn = after[static_cast<std::size_t>(ankle)].rotation * glm::conjugate(before[static_cast<std::size_t>(ankle)].rotation);
    const float offset = s.soleOffsets.empty() ? r.character.layout.positions[static_cast<std::size_t>(effector)].y : s.soleOffsets[i];
    const float scale = r.root.scale.x;
    const glm::vec3 p = after[static_cast<std::size_t>(effector)].position - offset * scale * (turn * glm::vec3(0, 1, 0));
    const glm::vec3 n = g.normal(p.x, p.z);
    const glm::vec3 q(p.x, g.height(p.x, p.z), p.z);
    soles.push_back({p, glm::dot(p - q, n)});
  }
  return soles;
}

TEST(RigGrounding, StandsOnRaisedFlatGroundSlopesAndSteps) {
  const float rates[] = {30.0f, 60.0f, 240.0f};
  const Ground grounds[] = {Flat(0.0f), Flat(0.05f), Flat(-0.08f), Slope(0.349f), Slope(-0.349f), Step(0.0f, 0.15f, true),
                            Step(0.0f, -0.15f, true)};
  for (int toes = 0; toes < 2; ++toes) {
    for (const float hz : rates) {
      for (std::size_t gi = 0; gi < std::size(grounds); ++gi) {
        Scene r = Start(Make(Biped(), 1), toes != 0);
        for (int f = 0; f < static_cast<int>(hz); ++f) Tick(r, grounds[gi], 1.0f / hz);
        for (const Sole& s : Soles(r, grounds[gi])) {
          EXPECT_LE(std::abs(s.height), 1e-3f) << "ground " << gi << " at " << hz << " Hz, toes " << toes;
        }
        EXPECT_EQ(r.rig.results()[0].iterations, 2.0f) << "both feet planted";
        EXPECT_LE(r.rig.results()[0].distance, 1e-3f);
      }
    }
  }
}

TEST(RigGrounding, BadSettingsNameTheOptionAndAddNothing) {
  const Character c = Make(Biped(), 2);
  ikpd::rig::Skeleton skeleton;
  ASSERT_TRUE(skeleton.Init(c.layout.parents).ok());
  Rig rig;
  ASSERT_TRUE(rig.Init(skeleton, c.rest).ok());
  const auto expect = [&](const std::function<void(ConstraintSettings&)>& edit, const char* message) {
    ConstraintSettings s = Settings(c.layout, false);
    edit(s);
    const ikpd::Status st = rig.Add(s);
    ASSERT_FALSE(st.ok()) << message;
    EXPECT_STREQ(st.error, message);
    EXPECT_EQ(rig.constraintCount(), 0u);
    EXPECT_EQ(rig.grounds().size(), 0u);
  };
  expect([](ConstraintSettings& s) { s.legs[4] = 4; }, "constraints[0].legs[1][1]: must be a descendant of legs[1][0] (joint 7)");
  expect([](ConstraintSettings& s) { s.legs[5] = 3; }, "constraints[0].legs[1][2]: must be a descendant of legs[1][1] (joint 8)");
  expect([](ConstraintSettings& s) { s.joints = {4}; }, "constraints[0].legs[0][0]: must be a descendant of the pelvis (joint 4)");
  expect([](ConstraintSettings& s) { s.legs.resize(5); }, "constraints[0].legs: needs 2 or 4 legs of [hip, knee, ankle] or [hip, knee, ankle, toe]");
  expect([](ConstraintSettings& s) { s.legs[2] = 99; }, "constraints[0].legs[0][2]: must be a joint index in [0, 11), got 99");
  expect([](ConstraintSettings& s) { s.grounding.legJoints = 5; }, "constraints[0].legs: each leg needs 3 or 4 joints ([hip, knee, ankle, toe?])");
  expect([](ConstraintSettings& s) { s.joints.push_back(2); }, "constraints[0].joints[1]: a chest needs 4 legs (legs 2–3 hang under it)");
  expect([](ConstraintSettings& s) { s.grounding.groundHeight = 0.2f; },
         "constraints[0].legs[0]: soleOffset needed (the rest pose puts the ankle at or below the ground)");
  expect([](ConstraintSettings& s) { s.soleOffsets = {0.1f, -1.0f}; }, "constraints[0].soleOffsets[1]: must be finite and > 0");
  expect([](ConstraintSettings& s) { s.soleOffsets = {0.1f}; }, "constraints[0].soleOffsets: needs one per leg (NaN: from the rest pose)");
  expect([](ConstraintSettings& s) { s.grounding.maxPelvisDrop = -1.0f; }, "constraints[0].maxPelvisDrop: must be a finite number >= 0");
  expect([](ConstraintSettings& s) { s.grounding.maxFootPitch = 2.0f; }, "constraints[0].maxFootPitch: must be in [0, pi/2]");
  expect([](ConstraintSettings& s) { s.grounding.plantSpeed = std::nanf(""); }, "constraints[0].plantSpeed: must be a finite number >= 0");
  expect([](ConstraintSettings& s) { s.grounding.soften = 1.5f; }, "constraints[0].soften: must be in [0, 1]");
  expect([](ConstraintSettings& s) { s.common.settleTime = -1.0f; }, "constraints[0].settleTime: must be finite and >= 0");
  expect([](ConstraintSettings& s) { s.arms = {1, 2, 3}; }, "constraints[0].arms: only bodyLookAt takes arms");
  // A missing sole offset given explicitly (NaN entry: from the rest pose) works; so does a toe leg.
  ConstraintSettings s = Settings(c.layout, true);
  s.soleOffsets = {std::nanf(""), 0.05f};
  ASSERT_TRUE(rig.Add(s).ok());
  EXPECT_FLOAT_EQ(rig.settings(0).soleOffsets[1], 0.05f);
  EXPECT_EQ(rig.grounds().size(), 2u);
  // The number of legs cannot change; settings can.
  ConstraintSettings next = rig.settings(0);
  next.legs.resize(4);
  next.grounding.legJoints = 2;
  EXPECT_FALSE(rig.SetSettings(0, next).ok());
  next = rig.settings(0);
  next.grounding.maxFootRoll = 0.2f;
  EXPECT_TRUE(rig.SetSettings(0, next).ok());
}

TEST(RigGrounding, BadGroundsNameTheHitAndChangeNothing) {
  Scene r = Start(Make(Biped(), 3, 5), false);
  const Ground g = Step(0.0f, 0.15f, true);
  for (int f = 0; f < 5; ++f) Tick(r, g, 1.0f / 60.0f);
  const char* fields[] = {"point", "normal", "hit", "plant"};
  for (int k = 0; k < 4; ++k) {
    ASSERT_TRUE(r.rig.Probe(r.in, r.root).ok());
    Query(r.rig, g);
    Rig twin = r.rig;
    GroundHit& hit = r.rig.grounds()[1];
    (k == 0 ? hit.point.y : k == 1 ? hit.normal.x : k == 2 ? hit.hit : hit.plant) = std::nanf("");
    const std::vector<LocalTransform> before = r.out;
    const ikpd::Status st = r.rig.Update(1.0f / 60.0f, r.in, r.root, r.out);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(std::string(st.error), std::string("grounds[1].") + fields[k] + ": must be finite");
    EXPECT_EQ(0, std::memcmp(before.data(), r.out.data(), sizeof(LocalTransform) * before.size()));
    // Nothing changed: the same good frame gives what the twin gives.
    Query(r.rig, g);
    std::vector<LocalTransform> a(r.out.size()), b(r.out.size());
    ASSERT_TRUE(r.rig.Update(1.0f / 60.0f, r.in, r.root, a).ok());
    ASSERT_TRUE(twin.Update(1.0f / 60.0f, r.in, r.root, b).ok());
    EXPECT_EQ(0, std::memcmp(a.data(), b.data(), sizeof(LocalTransform) * a.size()));
  }
  // No hit: a NaN point is not read, and the foot blends back to its animated pose.
  r.rig.grounds()[0].hit = 0.0f;
  r.rig.grounds()[0].point = glm::vec3(std::nanf(""));
  EXPECT_TRUE(r.rig.Update(1.0f / 60.0f, r.in, r.root, r.out).ok());
  // Probe checks the pose as Update does.
  std::vector<LocalTransform> bad = r.in;
  bad[4].rotation = glm::quat(0, 0, 0, 0);
  EXPECT_STREQ(r.rig.Probe(bad, r.root).error, "in[4].rotation: must be finite and non-zero");
}

// Without ground under it (or with a wall), a foot keeps its animated pose: every offset
// blends out to exactly zero and the output is the input bit for bit.
TEST(RigGrounding, NoGroundAndDisabledGiveTheAnimatedPoseExactly) {
  for (int mode = 0; mode < 3; ++mode) {
    Scene r = Start(Make(Biped(), 1), mode == 2);
    for (int f = 0; f < 30; ++f) Tick(r, Slope(0.3f), 1.0f / 60.0f);
    ASSERT_NE(0, std::memcmp(r.in.data(), r.out.data(), sizeof(LocalTransform) * r.in.size()));
    if (mode == 1) {
      ConstraintSettings s = r.rig.settings(0);
      s.common.enabled = false;
      ASSERT_TRUE(r.rig.SetSettings(0, s).ok());
    }
    for (int f = 0; f < 120; ++f) {
      ASSERT_TRUE(r.rig.Probe(r.in, r.root).ok());
      Query(r.rig, Slope(0.3f));
      if (mode != 1) {
        for (GroundHit& g : r.rig.grounds()) {
          if (mode == 0) g.hit = 0.0f;
          else g.normal = glm::vec3(1, 0.05f, 0);  // a wall
        }
      }
      ASSERT_TRUE(r.rig.Update(1.0f / 60.0f, r.in, r.root, r.out).ok());
    }
    EXPECT_EQ(0, std::memcmp(r.in.data(), r.out.data(), sizeof(LocalTransform) * r.in.size())) << "mode " << mode;
    EXPECT_EQ(r.rig.results()[0].active, 0.0f);
  }
}

// Toggling enabled never pops: no frame moves a foot more than the PD's largest speed for
// the offset allows (a step response's peak speed D·ω/e, ω = 2π/settleTime, or the
// blend-out's linear part), at 30, 60 and 240 Hz.
TEST(RigGrounding, TogglingIsPopFree) {
  for (const float hz : {30.0f, 60.0f, 240.0f}) {
    Scene r = Start(Make(Biped(), 1), false);
    const Ground g = Flat(0.1f);
    const float dt = 1.0f / hz;
    const float omega = 2.0f * 3.14159265f / 0.1f;
    const float bound = (0.1f * omega / 2.718f) * dt * 1.1f + 1e-4f;
    glm::vec3 previous[2], previousPelvis(0.0f);
    float worst = 0.0f, worstPelvis = 0.0f;
    int worstFrame = 0;
    for (int f = 0; f < static_cast<int>(3.0f * hz); ++f) {
      if (f > 0 && f % static_cast<int>(0.35f * hz) == 0) {
        ConstraintSettings s = r.rig.settings(0);
        s.common.enabled = !s.common.enabled;
        ASSERT_TRUE(r.rig.SetSettings(0, s).ok());
      }
      Tick(r, g, dt);
      const auto w = rigtest::Fk(r.character.layout.parents, r.out, r.root);
      for (int leg = 0; leg < 2; ++leg) {
        const glm::vec3 ankle = w[static_cast<std::size_t>(r.character.layout.legs[static_cast<std::size_t>(leg)][2])].position;
        if (f > 0 && glm::length(ankle - previous[leg]) > worst) worst = glm::length(ankle - previous[leg]), worstFrame = f;
        previous[leg] = ankle;
      }
      // The pelvis too: enabling again lowers it through its PD, never at once for a leg's reach.
      const glm::vec3 pelvis = w[static_cast<std::size_t>(r.character.layout.pelvis)].position;
      if (f > 0 && glm::length(pelvis - previousPelvis) > worstPelvis) worstPelvis = glm::length(pelvis - previousPelvis);
      previousPelvis = pelvis;
    }
    EXPECT_LE(worst, bound) << hz << " Hz, frame " << worstFrame << ", toggle every " << static_cast<int>(0.35f * hz);
    EXPECT_LE(worstPelvis, bound) << hz << " Hz: the pelvis";
    EXPECT_GT(worst, 0.2f * bound) << hz << " Hz: it does move";
  }
}

// Changing the weight (1 → 0 → 1 → 0.5) glides like toggling enabled: no frame moves an
// ankle faster than the PD's peak speed allows, planted feet included, at 30, 60 and 960 Hz.
TEST(RigGrounding, WeightChangesArePopFree) {
  for (const float hz : {30.0f, 60.0f, 960.0f}) {
    Scene r = Start(Make(Biped(), 1), false);
    const Ground g = Flat(0.05f);
    const float dt = 1.0f / hz;
    const float omega = 2.0f * 3.14159265f / 0.1f;
    const float bound = (0.05f * omega / 2.718f) * dt * 1.1f + 1e-4f;
    const float weights[] = {0.0f, 1.0f, 0.5f, 1.0f};
    glm::vec3 previous[2] = {glm::vec3(0.0f), glm::vec3(0.0f)};
    float worst = 0.0f;
    int worstFrame = 0;
    for (int f = 0; f < static_cast<int>(3.0f * hz); ++f) {
      if (f > static_cast<int>(0.5f * hz) && f % static_cast<int>(0.5f * hz) == 0) {
        ConstraintSettings s = r.rig.settings(0);
        s.common.weight = weights[(f / static_cast<int>(0.5f * hz)) % 4];
        ASSERT_TRUE(r.rig.SetSettings(0, s).ok());
      }
      Tick(r, g, dt);
      const auto w = rigtest::Fk(r.character.layout.parents, r.out, r.root);
      for (int leg = 0; leg < 2; ++leg) {
        const glm::vec3 ankle = w[static_cast<std::size_t>(r.character.layout.legs[static_cast<std::size_t>(leg)][2])].position;
        if (f > static_cast<int>(0.5f * hz) && glm::length(ankle - previous[leg]) > worst) worst = glm::length(ankle - previous[leg]), worstFrame = f;
        previous[leg] = ankle;
      }
    }
    EXPECT_LE(worst, bound) << hz << " Hz, frame " << worstFrame;
    EXPECT_GT(worst, 0.2f * bound) << hz << " Hz: it does move";
  }
}

// A quadruped on a slope: the body pitches toward the slope (front up hill), every sole on the ground.
TEST(RigGrounding, QuadrupedPitchesOnASlope) {
  for (const float angle : {0.2f, -0.2f}) {
    Scene r = Start(Make(Quadruped(), 3, 11), false);
    const Ground g = Slope(angle);
    for (int f = 0; f < 120; ++f) Tick(r, g, 1.0f / 60.0f);
    for (const Sole& s : Soles(r, g)) EXPECT_LE(std::abs(s.height), 1e-3f) << angle;
    const auto w = rigtest::Fk(r.character.layout.parents, r.out, r.root);
    const glm::vec3 body = w[2].position - w[1].position;
    const float pitch = std::atan2(body.y - 0.02f, body.z);  // the rest body rises 2 cm over 1 m
    EXPECT_NEAR(pitch, std::atan(std::tan(angle)), 0.03f) << angle;
    EXPECT_EQ(r.rig.results()[0].iterations, 4.0f);
  }
}

// A per-foot plant flag: 1 plants a foot even while it moves faster than plantSpeed (the
// root sliding 0.5 cm a frame at 60 Hz, 0.3 m/s), 0 never plants; auto does not plant it.
TEST(RigGrounding, PlantFlagOverridesDetection) {
  for (const float flag : {-1.0f, 0.0f, 1.0f}) {
    Scene r = Start(Make(Biped(), 1), false);
    glm::vec3 first{0.0f};
    for (int f = 0; f < 10; ++f) {
      r.root.translation.z = 0.005f * static_cast<float>(f);
      Tick(r, Flat(0.0f), 1.0f / 60.0f, flag);
      const glm::vec3 ankle = rigtest::Fk(r.character.layout.parents, r.out, r.root)[5].position;
      if (f == 0) first = ankle;
      if (flag == 1.0f) {
        EXPECT_LE(glm::length(ankle - first), 1e-4f) << f;
      }
    }
    EXPECT_EQ(r.rig.results()[0].iterations, flag == 1.0f ? 2.0f : 0.0f);
  }
}

}  // namespace
