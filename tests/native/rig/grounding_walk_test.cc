// The grounding targets of issue 31 on a walking character (docs/rig/grounding.md,
// targets): stance soles on flat ground, 20° slopes and 15 cm steps within
// 1 mm at 30, 60 and 240 Hz; no slide while planted; no leg past full reach;
// the pelvis within [−maxPelvisDrop, maxPelvisRise]; frame-rate independence;
// pop-free toggling; a quadruped pitching on a slope.
#include <gtest/gtest.h>

#include "native/grounding_test_util.h"

namespace {

using namespace groundtest;

struct Course {
  const char* name;
  Ground ground;
  float rootSlope;  // the root (a character controller) follows y = rootSlope · z
};

struct Measure {
  float stanceError = 0.0f;  // largest |sole − ground| in mid-stance
  float slide = 0.0f;        // largest horizontal sole move during a plant window
  float overReach = -1.0f;   // largest |hip − ankle| − (thigh + shin)
  float pelvisLow = 0.0f, pelvisHigh = 0.0f;  // pelvis offset range (world y)
  std::vector<float> pelvis;  // pelvis offset at each whole 1/30 s
};

Measure Walkabout(const Character& c, const Course& course, float hz, bool toes, float seconds = 3.0f,
                  const std::function<void(ConstraintSettings&)>& edit = {}) {
  ikpd::rig::Skeleton skeleton;
  EXPECT_TRUE(skeleton.Init(c.layout.parents).ok());
  Rig rig;
  EXPECT_TRUE(rig.Init(skeleton, c.rest).ok());
  ConstraintSettings s = Settings(c.layout, toes);
  if (edit) edit(s);
  EXPECT_TRUE(rig.Add(s).ok());
  const Walk walk;
  const float dt = 1.0f / hz;
  const int frames = static_cast<int>(seconds * hz + 0.5f);
  const std::size_t legs = c.layout.legs.size();
  std::vector<glm::vec3> windowStart(legs);
  std::vector<bool> inWindow(legs, false);
  Measure m;
  std::vector<LocalTransform> out(c.rest.size());
  const int every = static_cast<int>(hz / 30.0f + 0.5f);
  for (int f = 0; f < frames; ++f) {
    const float t = static_cast<float>(f + 1) * dt;  // the time this update reaches
    LocalTransform root;
    std::vector<LocalTransform> in = WalkPose(c, walk, t, &root);
    root.translation.y = course.rootSlope * root.translation.z;
    EXPECT_TRUE(rig.Probe(in, root).ok());
    Query(rig, course.ground);
    const ikpd::Status st = rig.Update(dt, in, root, out);
    EXPECT_TRUE(st.ok()) << st.error;
    const auto before = rigtest::Fk(c.layout.parents, in, root);
    const auto after = rigtest::Fk(c.layout.parents, out, root);
    const float offset = after[static_cast<std::size_t>(c.layout.pelvis)].position.y - before[static_cast<std::size_t>(c.layout.pelvis)].position.y;
    m.pelvisLow = std::min(m.pelvisLow, offset), m.pelvisHigh = std::max(m.pelvisHigh, offset);
    if ((f + 1) % every == 0) m.pelvis.push_back(offset);
    for (std::size_t i = 0; i < legs; ++i) {
      const auto& leg = c.layout.legs[i];
      const auto at = [&](int k) { return after[static_cast<std::size_t>(leg[static_cast<std::size_t>(k)])]; };
      const auto was = [&](int k) { return before[static_cast<std::size_t>(leg[static_cast<std::size_t>(k)])]; };
      const float full = glm::length(was(1).position - was(0).position) + glm::length(was(2).position - was(1).position);
      m.overReach = std::max(m.overReach, glm::length(at(2).position - at(0).position) - full);
      const glm::quat turn = at(2).rotation * glm::conjugate(was(2).rotation);
      const float sole = s.soleOffsets.empty() ? (toes ? c.layout.positions[static_cast<std::size_t>(leg[3])].y : c.layout.positions[static_cast<std::size_t>(leg[2])].y) : s.soleOffsets[i];
      const glm::vec3 p = at(toes ? 3 : 2).position - sole * (turn * glm::vec3(0, 1, 0));
      const float phase = walk.Phase(t, i);
      if (t < 1.0f) continue;  // the first steps start from rest
      if (phase >= 0.25f && phase <= 0.55f) {
        const glm::vec3 n = course.ground.normal(p.x, p.z);
        m.stanceError = std::max(m.stanceError, std::abs(glm::dot(p - glm::vec3(p.x, course.ground.height(p.x, p.z), p.z), n)));
      }
      const bool window = phase >= 0.02f && phase <= 0.55f;
      if (window && !inWindow[i]) windowStart[i] = p;
      if (window) m.slide = std::max(m.slide, glm::length(glm::vec2(p.x - windowStart[i].x, p.z - windowStart[i].z)));
      inWindow[i] = window;
    }
  }
  return m;
}

std::vector<Course> Courses() {
  const float slope = std::tan(0.349f);
  return {{"flat", Flat(0.0f), 0.0f},
          {"uphill 20°", Slope(0.349f), slope},
          {"downhill 20°", Slope(-0.349f), -slope},
          {"step up 15 cm", Step(0.9f, 0.15f), 0.0f},
          {"step down 15 cm", Step(0.9f, -0.15f), 0.0f},
          {"step under one foot", Step(0.0f, 0.15f, true), 0.0f}};
}

TEST(RigGroundingWalk, StanceSolesOnTheGroundWithoutSlidingOrOverReach) {
  const Character c = Make(Biped(), 1);
  const float maxDrop = ikpd::rig::kDerivedPelvisDrop * (glm::length(glm::vec3(0, -0.42f, 0.04f)) + glm::length(glm::vec3(0, -0.43f, -0.04f)));
  for (const Course& course : Courses()) {
    for (const float hz : {30.0f, 60.0f, 240.0f}) {
      for (const bool toes : {false, true}) {
        const Measure m = Walkabout(c, course, hz, toes);
        SCOPED_TRACE(testing::Message() << course.name << " at " << hz << " Hz, " << (toes ? "toe" : "ankle") << " legs");
        EXPECT_LE(m.stanceError, 1e-3f);
        EXPECT_LE(m.slide, 1e-3f);
        EXPECT_LE(m.overReach, 1e-5f);
        EXPECT_GE(m.pelvisLow, -maxDrop - 1e-5f);
        EXPECT_LE(m.pelvisHigh, maxDrop / 3.0f + 1e-5f);  // maxPelvisRise: 0.1 × leg
      }
    }
  }
}

// Every bone-axis convention and a rotated, scaled (centimetre) body root give the same walk.
TEST(RigGroundingWalk, BoneAxesAndScaledParentsDoNotMatter) {
  const Course course = Courses()[1];
  const Measure reference = Walkabout(Make(Biped(), 0), course, 60.0f, true);
  const glm::quat turn = glm::angleAxis(1.5707963f, glm::vec3(1, 0, 0));
  for (int style = 0; style < 4; ++style) {
    for (const float scale : {1.0f, 0.01f}) {
      const Measure m = Walkabout(Make(Biped(), style, 7, scale, scale == 1.0f ? ikpd::kIdentityRotation : turn), course, 60.0f, true);
      SCOPED_TRACE(testing::Message() << "style " << style << " scale " << scale);
      EXPECT_LE(m.stanceError, 1e-3f);
      EXPECT_LE(m.slide, 1e-3f);
      ASSERT_EQ(m.pelvis.size(), reference.pelvis.size());
      for (std::size_t k = 0; k < m.pelvis.size(); ++k) EXPECT_NEAR(m.pelvis[k], reference.pelvis[k], 1e-4f) << "sample " << k;
    }
  }
}

// Walking down a gentle terrain: the pelvis at common times agrees across rates within 1 mm.
TEST(RigGroundingWalk, PelvisHeightIsFrameRateIndependent) {
  const Character c = Make(Biped(), 1);
  const Course courses[] = {{"downhill 20°", Slope(-0.349f), -std::tan(0.349f)},
                            {"waves", {[](float x, float z) { return 0.04f * std::sin(2.0f * z + x); },
                                       [](float x, float z) { return glm::normalize(glm::vec3(-0.04f * std::cos(2.0f * z + x), 1.0f, -0.08f * std::cos(2.0f * z + x))); }}, 0.0f}};
  for (const Course& course : courses) {
    const Measure slow = Walkabout(c, course, 30.0f, false), fast = Walkabout(c, course, 240.0f, false);
    ASSERT_EQ(slow.pelvis.size(), fast.pelvis.size());
    float worst = 0.0f;
    // From 0.1 s on: the first update meets the ground as a jump (a held target at either rate).
    for (std::size_t k = 3; k < slow.pelvis.size(); ++k) worst = std::max(worst, std::abs(slow.pelvis[k] - fast.pelvis[k]));
    EXPECT_LE(worst, 1e-3f) << course.name;
    RecordProperty(std::string("worstPelvisGap ") + course.name, std::to_string(worst));
  }
}

}  // namespace

namespace {

using namespace groundtest;

// Random characters (every bone-axis style, random leg poses, a rotated and scaled
// root) on random flat or sloped ground: finite unit output, bone lengths kept, no
// leg past full reach, the pelvis within its limits, and where the ground is within
// the pelvis's reach every sole on it within 1 mm.
TEST(RigGroundingProperty, RandomPosesAndGrounds) {
  iktest::Rng rng(3131);
  int grounded = 0;
  for (int i = 0; i < 1000; ++i) {
    const bool quad = i % 4 == 3;
    const Character c = Make(quad ? Quadruped() : Biped(), i % 4, static_cast<unsigned>(i));
    ikpd::rig::Skeleton skeleton;
    ASSERT_TRUE(skeleton.Init(c.layout.parents).ok());
    Rig rig;
    ASSERT_TRUE(rig.Init(skeleton, c.rest).ok());
    const bool toes = rng.Uniform(0.0f, 1.0f) < 0.5f;
    ASSERT_TRUE(rig.Add(Settings(c.layout, toes)).ok());
    std::vector<LocalTransform> in = c.rest, out(c.rest.size());
    for (const auto& leg : c.layout.legs) {  // bend each hip and knee a little about a random axis
      for (int k = 0; k < 2; ++k) {
        LocalTransform& t = in[static_cast<std::size_t>(leg[static_cast<std::size_t>(k)])];
        t.rotation = glm::normalize(t.rotation * glm::angleAxis(rng.Uniform(0.0f, 0.4f), rng.Direction()));
      }
    }
    LocalTransform root;
    root.translation = rng.Vec(-2.0f, 2.0f);
    root.rotation = glm::angleAxis(rng.Uniform(-3.0f, 3.0f), glm::vec3(0, 1, 0));
    root.scale = glm::vec3(rng.Uniform(0.5f, 2.0f));
    const float k = root.scale.x;
    const float height = root.translation.y + k * rng.Uniform(-0.1f, 0.1f);
    const float slope = rng.Uniform(-0.3f, 0.3f);
    const Ground g = {[=](float, float z) { return height + std::tan(slope) * z; },
                      [=](float, float) { return glm::normalize(glm::vec3(0, 1, -std::tan(slope))); }};
    for (int f = 0; f < 60; ++f) {
      ASSERT_TRUE(rig.Probe(in, root).ok());
      Query(rig, g);
      ASSERT_TRUE(rig.Update(1.0f / 60.0f, in, root, out).ok());
    }
    const auto before = rigtest::Fk(c.layout.parents, in, root);
    const auto after = rigtest::Fk(c.layout.parents, out, root);
    for (std::size_t j = 0; j < out.size(); ++j) {
      ASSERT_TRUE(ikpd::IsFinite(out[j].translation) && std::abs(glm::length(out[j].rotation) - 1.0f) < 1e-4f) << i;
      const int p = c.layout.parents[j];
      if (p > 0 && static_cast<int>(j) != c.layout.pelvis) {
        const float was = glm::length(before[j].position - before[static_cast<std::size_t>(p)].position);
        ASSERT_NEAR(glm::length(after[j].position - after[static_cast<std::size_t>(p)].position), was, 1e-4f * k) << i;
      }
    }
    // The body's lift: the pelvis's, or with four legs the middle between the hind and the
    // front hips' (the point the body pitches about, docs/rig/grounding.md).
    const auto lifted = [&](const std::vector<World>& w) {
      if (c.layout.legs.size() != 4) return w[static_cast<std::size_t>(c.layout.pelvis)].position;
      glm::vec3 sum(0.0f);
      for (const auto& leg : c.layout.legs) sum += w[static_cast<std::size_t>(leg[0])].position;
      return 0.25f * sum;
    };
    const float offset = glm::dot(lifted(after) - lifted(before), glm::vec3(0, 1, 0));
    float shortest = 1e9f;
    bool reaches = true;
    for (const auto& leg : c.layout.legs) {
      const auto at = [&](const std::vector<World>& w, int n) { return w[static_cast<std::size_t>(leg[static_cast<std::size_t>(n)])].position; };
      const float full = glm::length(at(before, 1) - at(before, 0)) + glm::length(at(before, 2) - at(before, 1));
      shortest = std::min(shortest, full);
      ASSERT_LE(glm::length(at(after, 2) - at(after, 0)), full * (1.0f + 1e-5f)) << i;
      reaches = reaches && glm::length(at(after, 2) - at(after, 0)) < full * 0.979f;  // short of the soft zone
    }
    ASSERT_GE(offset, -ikpd::rig::kDerivedPelvisDrop * shortest - 1e-4f * k) << i;
    ASSERT_LE(offset, ikpd::rig::kDerivedPelvisRise * shortest + 1e-4f * k) << i;
    // Soles on the ground where the pelvis limits and the foot limits allow it.
    if (reaches && offset > -ikpd::rig::kDerivedPelvisDrop * shortest + 1e-3f && offset < ikpd::rig::kDerivedPelvisRise * shortest - 1e-3f && std::abs(slope) < 0.5f) {
      ++grounded;
      EXPECT_LE(rig.results()[0].distance, 1e-3f * k) << i;
    }
  }
  EXPECT_GT(grounded, 50);  // 72 of the 1000 have every leg short of its soft zone and the pelvis inside its limits
  RecordProperty("groundedCases", std::to_string(grounded));
}

}  // namespace
