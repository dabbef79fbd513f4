// UpdateQuatPDs (docs/pd/pd.md, "Many quaternion PDs in lanes"): many QuatPDs
// stepped in float SIMD lanes agree with each one's own Update (double) to float
// rounding over thousands of random states, targets, gains, velocity limits and
// dt in [0, 0.1] s; a controller's result does not depend on its neighbours, on
// its lane or on the lane width (the fingerprint is the same in
// ikpd_tests_nosimd and ikpd_tests_v3); the controllers the lanes do not take
// are their own Update bit for bit; bad input changes nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "ikpd/ikpd.h"

using namespace ikpd;
using namespace ikpd::pd;

namespace {

struct Case {
  std::vector<QuatPD> pds;
  std::vector<glm::quat> targets;
  double dt = 0.0;
};

glm::dquat RandomRotation(std::mt19937& rng) {
  // One draw per statement: the order of a call's arguments is up to the compiler.
  std::normal_distribution<double> n(0.0, 1.0);
  const double z = n(rng), y = n(rng), x = n(rng), w = n(rng);
  return glm::normalize(glm::dquat(w, x, y, z));
}

// `count` controllers in random states (some at rest, some spinning fast), with
// random settle times, velocity limits (some unlimited), angle limits, splits and
// target motions, stepped by a random dt in [0, 0.1] s (some 0, 1/30, 1/60, 1/240).
Case RandomCase(std::mt19937& rng, std::size_t count) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Case c;
  const double pick = u(rng);
  c.dt = pick < 0.05 ? 0.0 : pick < 0.2 ? 1.0 / 30.0 : pick < 0.35 ? 1.0 / 60.0 : pick < 0.45 ? 1.0 / 240.0 : 0.1 * u(rng);
  for (std::size_t i = 0; i < count; ++i) {
    PdSettings s;
    const double damping = 0.5 + u(rng), settleTime = 0.05 + 1.5 * u(rng);
    EXPECT_TRUE(SettingsFromSettleTime(settleTime, damping, &s));
    s.maxVelocity = u(rng) < 0.2 ? std::numeric_limits<double>::infinity() : 0.5 + 20.0 * u(rng);
    s.substepSplit = u(rng) < 0.8 ? SubstepSplit::kEqual : SubstepSplit::kClassic;
    if (u(rng) < 0.2) s.maxAngle = 0.1 + 3.0 * u(rng);
    if (u(rng) < 0.1) s.targetMotion = TargetMotion::kLinear;
    QuatPD pd(s);
    const glm::dquat value = RandomRotation(rng);
    const double spin = u(rng) < 0.3 ? 0.0 : 30.0 * u(rng);
    EXPECT_TRUE(pd.Reset(value, spin * glm::dvec3(glm::axis(RandomRotation(rng)))));
    if (u(rng) < 0.5) {
      EXPECT_TRUE(pd.Update(1.0 / 60.0, glm::dquat(value)));  // a remembered target
    }
    // Targets near the value (the look-at's small offsets), or anywhere; some not unit.
    const glm::dvec3 axis = glm::axis(RandomRotation(rng));
    const glm::dquat near = glm::normalize(value * glm::angleAxis(0.3 * u(rng), axis));
    const glm::dquat target = u(rng) < 0.6 ? near : RandomRotation(rng);
    c.pds.push_back(pd);
    c.targets.push_back(glm::quat(target * (u(rng) < 0.2 ? 0.5 + u(rng) : 1.0)));
  }
  return c;
}

double Angle(const glm::dquat& a, const glm::dquat& b) {
  const glm::dquat d = glm::normalize(a) * glm::conjugate(glm::normalize(b));
  return 2.0 * std::atan2(glm::length(glm::dvec3(d.x, d.y, d.z)), std::fabs(d.w));
}

bool SameBits(const QuatPD& a, const QuatPD& b) {
  const glm::dquat& va = a.value();
  const glm::dquat& vb = b.value();
  const glm::dvec3 wa = a.velocity(), wb = b.velocity();
  return std::memcmp(&va, &vb, sizeof va) == 0 && std::memcmp(&wa, &wb, sizeof wa) == 0 &&
         a.target() == b.target() && a.blendPhase() == b.blendPhase();
}

}  // namespace

TEST(QuatPdLanes, AgreeWithEachUpdateToFloatRounding) {
  std::mt19937 rng(43);
  double worstAngle = 0.0, worstVelocity = 0.0;
  for (int round = 0; round < 400; ++round) {
    Case c = RandomCase(rng, 1 + static_cast<std::size_t>(round % 19));  // lane groups and tails
    std::vector<QuatPD> twins = c.pds;
    for (std::size_t i = 0; i < twins.size(); ++i) ASSERT_TRUE(twins[i].Update(c.dt, c.targets[i]));
    ASSERT_TRUE(UpdateQuatPDs(c.dt, c.pds, c.targets));
    for (std::size_t i = 0; i < twins.size(); ++i) {
      const QuatPD &got = c.pds[i], &want = twins[i];
      const double angle = Angle(got.value(), want.value());
      const double dv = glm::length(got.velocity() - want.velocity()) / (1.0 + glm::length(want.velocity()));
      worstAngle = std::max(worstAngle, angle), worstVelocity = std::max(worstVelocity, dv);
      EXPECT_LT(angle, 4e-6) << round << " " << i;
      EXPECT_LT(dv, 2e-5) << round << " " << i;
      EXPECT_LT(Angle(got.target(), want.target()), 1e-6) << round << " " << i;
      EXPECT_NEAR(std::fabs(glm::length(got.value()) - 1.0), 0.0, 1e-6);
      // The velocity limit holds in the lanes too (float rounding).
      if (want.settings().integrator == Integrator::kExact && c.dt > 0.0) {
        EXPECT_LE(glm::length(got.velocity()), want.settings().maxVelocity * (1.0 + 1e-5) + 1e-6) << round << " " << i;
      }
      EXPECT_EQ(got.blendPhase(), BlendPhase::kNone);
    }
  }
  std::printf("worst angle %.3g rad, velocity %.3g (relative)\n", worstAngle, worstVelocity);
}

TEST(QuatPdLanes, EachControllerAsIfAlone) {
  // A controller stepped alone (lane 0) and among 12 others (any lane) gives the same bits.
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    Case c = RandomCase(rng, 13);
    if (c.dt == 0.0) continue;
    std::vector<QuatPD> alone = c.pds;
    ASSERT_TRUE(UpdateQuatPDs(c.dt, c.pds, c.targets));
    for (std::size_t i = 0; i < alone.size(); ++i) {
      ASSERT_TRUE(UpdateQuatPDs(c.dt, std::span<QuatPD>(&alone[i], 1), std::span<const glm::quat>(&c.targets[i], 1)));
      EXPECT_TRUE(SameBits(alone[i], c.pds[i])) << round << " " << i;
    }
  }
}

TEST(QuatPdLanes, SameBitsInEveryLaneWidth) {
  // FNV-1a over the value and velocity bits of 2,000 random updates in a row:
  // the same in the SIMD build, ikpd_tests_nosimd (one lane) and ikpd_tests_v3 (AVX2).
  std::mt19937 rng(2026);
  Case c = RandomCase(rng, 11);
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  };
  std::uniform_real_distribution<double> u(0.0, 0.1);
  for (int step = 0; step < 2000; ++step) {
    const double dt = step % 4 == 0 ? u(rng) : 1.0 / 60.0;
    for (glm::quat& t : c.targets) {
      if (u(rng) < 0.01) t = glm::quat(RandomRotation(rng));  // a jump now and then
    }
    ASSERT_TRUE(UpdateQuatPDs(dt, c.pds, c.targets));
    for (const QuatPD& pd : c.pds) {
      const glm::dquat v = pd.value();
      const glm::dvec3 w = pd.velocity();
      mix(&v, sizeof v), mix(&w, sizeof w);
    }
  }
  EXPECT_EQ(h, 0xb9c9d9a3ffc9a0b2ull) << "0x" << std::hex << h;
}

TEST(QuatPdLanes, OthersRunTheirOwnUpdate) {
  // 'componentwise', 'substep', ki > 0 and a 'linear' target after the first update:
  // the controller's own Update, bit for bit.
  std::mt19937 rng(5);
  for (int kind = 0; kind < 4; ++kind) {
    PdSettings s;
    ASSERT_TRUE(SettingsFromSettleTime(0.3, 1.0, &s));
    s.maxVelocity = 6.0;
    if (kind == 0) s.method = RotationUpdate::kComponentwise;
    if (kind == 1) s.integrator = Integrator::kSubstep;
    if (kind == 2) s.ki = 2.0;
    if (kind == 3) s.targetMotion = TargetMotion::kLinear;
    std::vector<QuatPD> pds(5, QuatPD(s));
    if (kind == 3) {  // 'linear' moves the target only after a first update
      for (QuatPD& pd : pds) ASSERT_TRUE(pd.Update(1.0 / 60.0, glm::dquat(RandomRotation(rng))));
    }
    std::vector<QuatPD> twins = pds;
    for (int frame = 0; frame < 60; ++frame) {
      std::vector<glm::quat> targets;
      for (std::size_t i = 0; i < pds.size(); ++i) targets.push_back(glm::quat(RandomRotation(rng)));
      ASSERT_TRUE(UpdateQuatPDs(1.0 / 60.0, pds, targets));
      for (std::size_t i = 0; i < pds.size(); ++i) {
        ASSERT_TRUE(twins[i].Update(1.0 / 60.0, targets[i]));
        EXPECT_TRUE(SameBits(pds[i], twins[i])) << kind << " " << frame << " " << i;
      }
    }
  }
}

TEST(QuatPdLanes, BadInputChangesNothing) {
  PdSettings s;
  s.maxVelocity = 4.0;
  std::vector<QuatPD> pds(3, QuatPD(s));
  std::vector<glm::quat> targets(3, glm::quat(0.9f, 0.1f, 0.0f, 0.0f));
  ASSERT_TRUE(UpdateQuatPDs(1.0 / 60.0, pds, targets));
  const std::vector<QuatPD> before = pds;
  auto unchanged = [&] {
    for (std::size_t i = 0; i < pds.size(); ++i) EXPECT_TRUE(SameBits(pds[i], before[i])) << i;
  };
  Status st = UpdateQuatPDs(1.0 / 60.0, pds, std::span<const glm::quat>(targets.data(), 2));
  EXPECT_FALSE(st);
  EXPECT_STREQ(st.error, "targets: needs one target per controller");
  unchanged();
  for (double dt : {-1.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
    st = UpdateQuatPDs(dt, pds, targets);
    EXPECT_FALSE(st);
    EXPECT_STREQ(st.error, "dt: must be a finite number >= 0");
    unchanged();
  }
  for (const glm::quat& bad : {glm::quat(0, 0, 0, 0), glm::quat(std::nanf(""), 0, 0, 1), glm::quat(1, INFINITY, 0, 0)}) {
    targets[2] = bad;
    st = UpdateQuatPDs(1.0 / 60.0, pds, targets);
    EXPECT_FALSE(st);
    EXPECT_EQ(std::string(st.error).rfind("target: ", 0), 0u) << st.error;
    unchanged();
  }
  // A target whose float length squared overflows goes through Update (double):
  // the same bits; a tiny one (usable in double) through the lanes.
  std::vector<QuatPD> twins = before;
  pds = before;
  targets[2] = glm::quat(3e18f, 1e18f, 0, 0);
  ASSERT_TRUE(UpdateQuatPDs(1.0 / 60.0, pds, targets));
  ASSERT_TRUE(twins[2].Update(1.0 / 60.0, targets[2]));
  EXPECT_TRUE(SameBits(pds[2], twins[2]));
  targets[2] = glm::quat(1e-11f, 0, 0, 1e-11f);
  ASSERT_TRUE(UpdateQuatPDs(1.0 / 60.0, pds, targets));
  ASSERT_TRUE(twins[2].Update(1.0 / 60.0, targets[2]));
  EXPECT_LT(Angle(pds[2].value(), twins[2].value()), 2e-6);
}

TEST(QuatPdLanes, SettlesAlikeAt30_60And240Hz) {
  // One second toward a held target from a spin: the lanes at each rate end within 1e-4 rad of each other.
  PdSettings s;
  ASSERT_TRUE(SettingsFromSettleTime(0.3, 1.0, &s));
  s.maxVelocity = 8.0;
  std::vector<glm::dquat> ends;
  for (int hz : {30, 60, 240}) {
    std::vector<QuatPD> pds(6, QuatPD(s));
    std::vector<glm::quat> targets;
    for (std::size_t i = 0; i < pds.size(); ++i) {
      ASSERT_TRUE(pds[i].Reset(glm::dquat(1, 0, 0, 0), glm::dvec3(0.0, 3.0 * static_cast<double>(i), 0.0)));
      targets.push_back(glm::angleAxis(0.2f * static_cast<float>(i + 1), glm::vec3(0, 0, 1)));
    }
    for (int f = 0; f < hz; ++f) ASSERT_TRUE(UpdateQuatPDs(1.0 / hz, pds, targets));
    for (const QuatPD& pd : pds) ends.push_back(pd.value());
  }
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_LT(Angle(ends[i], ends[6 + i]), 1e-4) << i;
    EXPECT_LT(Angle(ends[i], ends[12 + i]), 1e-4) << i;
  }
}
