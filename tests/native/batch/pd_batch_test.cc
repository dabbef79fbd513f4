// PD batches must follow the single controllers (pd::ScalarPD / AnglePD /
// QuatPD) item by item, frame after frame, within float rounding of the state.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "ikpd/ikpd.h"

namespace {

using ikpd::PdBatchJob;
using ikpd::QuatPdBatchJob;
namespace pd = ikpd::pd;

pd::PdSettings Settings(pd::Integrator integrator, double settleTime, double ratio) {
  pd::PdSettings s;
  EXPECT_TRUE(pd::SettingsFromSettleTime(settleTime, ratio, &s).ok());
  s.integrator = integrator;
  return s;
}

// Runs `frames` frames of a scalar batch next to persistent controllers; returns the max difference.
double ScalarDrift(const pd::PdSettings& settings, bool angle, int frames, unsigned seed) {
  constexpr std::size_t n = 300;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-3.0f, 3.0f), dt(0.0f, 0.05f);
  std::vector<float> value(n), velocity(n), target(n);
  std::vector<pd::ScalarPD> controllers(n, pd::ScalarPD(settings, angle));
  for (std::size_t i = 0; i < n; ++i) {
    value[i] = d(rng);
    velocity[i] = d(rng);
    controllers[i].Reset(value[i], velocity[i]);
    value[i] = static_cast<float>(controllers[i].value());  // angles wrapped like the controller
  }
  double worst = 0.0;
  for (int f = 0; f < frames; ++f) {
    for (float& t : target) t = d(rng);
    PdBatchJob job;
    job.settings = settings;
    job.angle = angle;
    job.dt = f == 3 ? 0.0 : dt(rng);
    job.count = n;
    job.value = value.data();
    job.velocity = velocity.data();
    job.target = target.data();
    EXPECT_TRUE(job.Run().ok());
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_TRUE(controllers[i].Update(job.dt, target[i]).ok());
      double dv = std::fabs(controllers[i].value() - value[i]);
      if (angle) dv = std::fmin(dv, std::fabs(dv - 2.0 * ikpd::kPi));
      worst = std::fmax(worst, std::fmax(dv, std::fabs(controllers[i].velocity() - velocity[i]) / 10.0));
    }
  }
  return worst;
}

TEST(BatchPd, ScalarFollowsControllersForEveryIntegrator) {
  for (pd::Integrator integrator :
       {pd::Integrator::kExact, pd::Integrator::kStable, pd::Integrator::kExplicit, pd::Integrator::kSubstep}) {
    const pd::PdSettings s = Settings(integrator, 0.5, 0.8);
    EXPECT_LT(ScalarDrift(s, false, 40, 1u + static_cast<unsigned>(integrator)), 1e-6) << int(integrator);
  }
}

TEST(BatchPd, AngleAndVelocityLimitFollowControllers) {
  pd::PdSettings s = Settings(pd::Integrator::kExact, 0.3, 1.0);
  EXPECT_LT(ScalarDrift(s, true, 40, 7u), 1e-6);
  s.maxVelocity = 2.0;
  EXPECT_LT(ScalarDrift(s, false, 40, 8u), 1e-6);
}

// A zero step wraps angles as the controller's Reset does (values 4 and 100
// stayed unwrapped), and leaves plain scalars and velocities as they are.
TEST(BatchPd, ZeroStepWrapsAngles) {
  for (const bool angle : {true, false}) {
    std::vector<float> value{4.0f, 100.0f, -0.5f}, velocity{0.25f, -1.0f, 0.0f}, target{0.0f, 1.0f, 2.0f};
    PdBatchJob job;
    job.settings = Settings(pd::Integrator::kExact, 0.3, 1.0);
    job.angle = angle;
    job.dt = 0.0;
    job.count = value.size();
    job.value = value.data();
    job.velocity = velocity.data();
    job.target = target.data();
    ASSERT_TRUE(job.Run().ok());
    for (std::size_t i = 0; i < value.size(); ++i) {
      const float original = std::vector<float>{4.0f, 100.0f, -0.5f}[i];
      pd::ScalarPD controller(job.settings, angle);
      controller.Reset(original, 0.0);
      EXPECT_EQ(value[i], static_cast<float>(controller.value())) << i << " angle " << angle;
      if (angle) {
        EXPECT_LE(std::fabs(value[i]), static_cast<float>(ikpd::kPi)) << i;
      }
    }
    EXPECT_EQ(velocity, (std::vector<float>{0.25f, -1.0f, 0.0f}));
  }
  EXPECT_NEAR(4.0 - 2.0 * ikpd::kPi, -2.2831853, 1e-6);
}

TEST(BatchPd, ExactFastPathIsTheControllerStep) {
  // One frame from float state: the batch's fast path must equal Reset + Update exactly.
  const pd::PdSettings s = Settings(pd::Integrator::kExact, 0.7, 0.5);
  std::vector<float> value = {0.0f, 1.5f, -2.25f, 1e6f}, velocity = {0.0f, -3.0f, 0.5f, 1e3f},
                     target = {1.0f, 1.5f, 4.0f, -1e6f};
  std::vector<pd::ScalarPD> c(value.size(), pd::ScalarPD(s));
  for (std::size_t i = 0; i < value.size(); ++i) {
    c[i].Reset(value[i], velocity[i]);
    ASSERT_TRUE(c[i].Update(1.0 / 60.0, target[i]).ok());
  }
  PdBatchJob job;
  job.settings = s;
  job.dt = 1.0 / 60.0;
  job.count = value.size();
  job.value = value.data();
  job.velocity = velocity.data();
  job.target = target.data();
  ASSERT_TRUE(job.Run().ok());
  for (std::size_t i = 0; i < value.size(); ++i) {
    EXPECT_EQ(value[i], static_cast<float>(c[i].value()));
    EXPECT_EQ(velocity[i], static_cast<float>(c[i].velocity()));
  }
}

TEST(BatchPd, QuatFollowsControllers) {
  constexpr std::size_t n = 200;
  for (double maxAngle : {ikpd::kPi * 1.0, 1.0}) {
    pd::PdSettings s = Settings(pd::Integrator::kExact, 0.4, 0.9);
    s.maxAngle = maxAngle;
    std::mt19937 rng(11u);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    std::vector<float> value(4 * n), velocity(3 * n), target(4 * n);
    std::vector<pd::QuatPD> controllers(n, pd::QuatPD(s));
    for (std::size_t i = 0; i < n; ++i) {
      const glm::quat q = glm::normalize(glm::quat(d(rng) + 1.5f, d(rng), d(rng), d(rng)));
      const glm::vec3 w(d(rng), d(rng), d(rng));
      ASSERT_TRUE(controllers[i].Reset(glm::dquat(q), glm::dvec3(w)).ok());
      ikpd::batch::StoreQuat(value.data(), i, glm::quat(controllers[i].value()));
      ikpd::batch::StoreVec3(velocity.data(), i, glm::vec3(controllers[i].velocity()));
    }
    double worst = 0.0;
    for (int f = 0; f < 30; ++f) {
      for (float& t : target) t = d(rng);
      for (std::size_t i = 0; i < n; ++i) target[4 * i + 3] += 2.0f * (f % 3 == 0 ? -1.0f : 1.0f);  // both hemispheres
      QuatPdBatchJob job;
      job.settings = s;
      job.dt = 1.0 / 60.0;
      job.count = n;
      job.value = value.data();
      job.velocity = velocity.data();
      job.target = target.data();
      ASSERT_TRUE(job.Run().ok());
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_TRUE(controllers[i].Update(job.dt, glm::dquat(ikpd::batch::LoadQuat(target.data(), i))).ok());
        const glm::dquat q = controllers[i].value();
        const glm::dvec3 w = controllers[i].velocity();
        const double qd[4] = {q.x, q.y, q.z, q.w};
        for (int k = 0; k < 4; ++k) worst = std::fmax(worst, std::fabs(qd[k] - value[4 * i + k]));
        for (int k = 0; k < 3; ++k) worst = std::fmax(worst, std::fabs(w[k] - velocity[3 * i + k]) / 10.0);
      }
    }
    EXPECT_LT(worst, 1e-6) << maxAngle;
  }
}

// Runs a quaternion batch of `n` items in place (settings `s`, step dt).
void RunQuat(const pd::PdSettings& s, double dt, std::size_t n, float* value, float* velocity, const float* target) {
  QuatPdBatchJob job;
  job.settings = s;
  job.dt = dt;
  job.count = n;
  job.value = value;
  job.velocity = velocity;
  job.target = target;
  ASSERT_TRUE(job.Run().ok());
}

TEST(BatchPd, QuatExactLanesFollowTheControllerStep) {
  // One frame from float state: the float lanes (exact, no clamps) agree with
  // Reset + Update in double to float rounding, for random states far from
  // and near the target (any angle up to π, either sign), frame after frame.
  for (double dt : {0.0, 1.0 / 240.0, 1.0 / 30.0, 0.5, 1e6}) {
    for (double ratio : {0.2, 1.0, 3.0}) {
      const pd::PdSettings s = Settings(pd::Integrator::kExact, 0.35, ratio);
      const pd::StepCoeffs coeffs = pd::ExactStepCoeffs(s.kp, s.kd, dt);
      std::mt19937 rng(5u);
      std::uniform_real_distribution<float> d(-1.0f, 1.0f);
      constexpr std::size_t n = 403;  // groups of four and a tail
      std::vector<float> value(4 * n), velocity(3 * n), target(4 * n);
      for (float& x : value) x = d(rng);
      for (std::size_t i = 0; i < 3 * n; ++i) velocity[i] = (i % 7 == 0 ? 40.0f : 3.0f) * d(rng);
      for (float& x : target) x = d(rng);
      for (int k = 0; k < 4; ++k) target[k] = value[k];           // at the target
      for (int k = 0; k < 4; ++k) target[4 + k] = -value[4 + k];  // same rotation, other sign
      for (int k = 0; k < 4; ++k) target[8 + k] = value[8 + k] * (k == 3 ? 1.0f : 1.0f + 1e-6f);  // almost there
      for (int k = 0; k < 4; ++k) target[12 + k] = k == 3 ? 0.0f : 1.0f;  // up to 180° away
      for (int k = 0; k < 4; ++k) value[12 + k] = k == 3 ? 1.0f : 0.0f;
      for (int k = 0; k < 3; ++k) velocity[3 + k] = 0.0f;
      std::vector<pd::QuatPD> c(n, pd::QuatPD(s));
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_TRUE(c[i].Reset(glm::dquat(ikpd::batch::LoadQuat(value.data(), i)),
                               glm::dvec3(ikpd::batch::LoadVec3(velocity.data(), i))).ok());
      }
      for (int frame = 0; frame < 5; ++frame) {
        std::vector<double> spring(n);  // |ve·u0|: the float rounding of the velocity update scales with it
        for (std::size_t i = 0; i < n; ++i) {
          glm::dquat g = glm::normalize(glm::dquat(ikpd::batch::LoadQuat(target.data(), i)));
          spring[i] = std::fabs(coeffs.ve) * glm::length(pd::QuatLogChart(c[i].value(), g));
        }
        RunQuat(s, dt, n, value.data(), velocity.data(), target.data());
        for (std::size_t i = 0; i < n; ++i) {
          ASSERT_TRUE(c[i].Update(dt, glm::dquat(ikpd::batch::LoadQuat(target.data(), i))).ok());
          const glm::dquat q = c[i].value();
          const glm::dvec3 w = c[i].velocity();
          const glm::dvec3 bw(ikpd::batch::LoadVec3(velocity.data(), i));
          const double qd[4] = {q.x, q.y, q.z, q.w};
          for (int k = 0; k < 4; ++k) {
            EXPECT_NEAR(value[4 * i + k], qd[k], 1e-6) << dt << " " << ratio << " item " << i << " frame " << frame;
          }
          EXPECT_LE(glm::length(bw - w), 1e-6 * std::max({1.0, glm::length(w), spring[i]}))
              << dt << " " << ratio << " item " << i << " frame " << frame;
          // Keep the controllers on the batch's float state (the batch keeps no other).
          ASSERT_TRUE(c[i].Reset(glm::dquat(ikpd::batch::LoadQuat(value.data(), i)), bw).ok());
        }
      }
    }
  }
}

TEST(BatchPd, QuatLanesAreBitIdenticalToTheTail) {
  // Four items per SIMD lane group, the rest one by one: the same kernel, so
  // an item gives the same floats wherever it sits in the batch.
  const pd::PdSettings s = Settings(pd::Integrator::kExact, 0.5, 0.8);
  std::mt19937 rng(9u);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  constexpr std::size_t n = 64;
  std::vector<float> value(4 * n), velocity(3 * n), target(4 * n);
  for (float& x : value) x = d(rng);
  for (float& x : velocity) x = 5.0f * d(rng);
  for (float& x : target) x = d(rng);
  std::vector<float> lanes = value, lanesVelocity = velocity;
  RunQuat(s, 1.0 / 60.0, n, lanes.data(), lanesVelocity.data(), target.data());
  for (std::size_t i = 0; i < n; ++i) {
    RunQuat(s, 1.0 / 60.0, 1, &value[4 * i], &velocity[3 * i], &target[4 * i]);  // a batch of one: the tail
  }
  EXPECT_EQ(lanes, value);
  EXPECT_EQ(lanesVelocity, velocity);
}

TEST(BatchPd, QuatHugeVelocityStaysFiniteOrFails) {
  // Float lanes overflow for angular velocities near the float range; those
  // items go through the controller in double (finite result or a clear error).
  const pd::PdSettings s = Settings(pd::Integrator::kExact, 0.5, 1.0);
  std::vector<float> value = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  std::vector<float> velocity = {1e30f, 0, 0, 0, 3e38f, -3e38f, 1, 2, 3, 1e20f, 1e20f, 1e20f, 0, 0, 0};
  std::vector<float> target = {0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0.6f, 0, 0, 0.8f, 0, 0, 0, -1};
  QuatPdBatchJob job;
  job.settings = s;
  job.dt = 1.0 / 60.0;
  job.count = 5;
  job.value = value.data();
  job.velocity = velocity.data();
  job.target = target.data();
  std::size_t failed = 99;
  job.failedItem = &failed;
  const ikpd::Status st = job.Run();
  for (std::size_t i = 0; i < (st.ok() ? 5u : failed); ++i) {
    for (int k = 0; k < 4; ++k) EXPECT_TRUE(std::isfinite(value[4 * i + k])) << i;
    for (int k = 0; k < 3; ++k) EXPECT_TRUE(std::isfinite(velocity[3 * i + k])) << i;
    EXPECT_NEAR(glm::length(ikpd::batch::LoadQuat(value.data(), i)), 1.0f, 1e-6f) << i;
  }
  if (!st.ok()) {
    EXPECT_STREQ(st.error, "dt: the state overflows float (step too large for these gains; see checkStability)");
  }
}

TEST(BatchPd, RejectsStateTheBatchCannotKeepAndBadItems) {
  std::vector<float> v = {0.0f, 1.0f}, w = {0.0f, 0.0f}, t = {1.0f, std::numeric_limits<float>::infinity()};
  PdBatchJob job;
  job.count = 2;
  job.value = v.data();
  job.velocity = w.data();
  job.target = t.data();
  job.dt = 0.1;
  std::size_t failed = 99;
  job.failedItem = &failed;
  const ikpd::Status s = job.Run();
  ASSERT_FALSE(s.ok());
  EXPECT_STREQ(s.error, "target: must be a finite number");
  EXPECT_EQ(failed, 1u);
  EXPECT_EQ(v[0], 0.0f);  // nothing written
  job.settings.ki = 1.0;
  EXPECT_FALSE(job.Validate().ok());
  job.settings.ki = 0.0;
  job.settings.targetMotion = pd::TargetMotion::kLinear;
  EXPECT_FALSE(job.Validate().ok());
  job.settings.targetMotion = pd::TargetMotion::kHold;
  job.dt = -1.0;
  EXPECT_FALSE(job.Validate().ok());

  std::vector<float> q = {0, 0, 0, 0}, qw = {0, 0, 0}, qt = {0, 0, 0, 1};
  QuatPdBatchJob quat;
  quat.count = 1;
  quat.dt = 0.1;
  quat.value = q.data();
  quat.velocity = qw.data();
  quat.target = qt.data();
  EXPECT_FALSE(quat.Run().ok());
  quat.settings.method = pd::RotationUpdate::kComponentwise;
  EXPECT_FALSE(quat.Validate().ok());
}

}  // namespace

namespace {

// Found by tests/fuzz/batch_fuzz.cc: a huge angular velocity (2e12 rad/s) in the
// exact float lanes turned a unit value into [0, 0, 0, 0]; such items now take
// the controller's double step, like an overflowing one. Both lane widths and the tail.
TEST(BatchPd, QuatHugeVelocityKeepsTheValueUnit) {
  for (std::size_t count : {1u, 2u, 9u}) {
    std::vector<float> value{0, 0, 0, 1}, velocity{-2.0f, -1.80662525f, 1.00000001e-07f}, target{0, 0, 0, 1};
    for (std::size_t i = 1; i < count; ++i) {
      value.insert(value.end(), {-0.5f, -0.5f, -0.5f, 0.5f});
      velocity.insert(velocity.end(), {-0.5f, 2.08689693e12f, -2.46461468e-07f});
      target.insert(target.end(), {-0.5f, -9.9852366e-07f, 0.0f, -0.5f});
    }
    QuatPdBatchJob job;
    ASSERT_TRUE(pd::SettingsFromSettleTime(2.0, 2.0, &job.settings).ok());
    job.dt = 0.18980179727077484;
    job.count = count;
    job.value = value.data();
    job.velocity = velocity.data();
    job.target = target.data();
    const ikpd::Status s = job.Run();
    if (!s) {
      EXPECT_NE(std::string(s.error).find("dt:"), std::string::npos) << s.error;  // a float overflow, named
      continue;
    }
    for (std::size_t i = 0; i < count; ++i) {
      const glm::quat q(value[4 * i + 3], value[4 * i], value[4 * i + 1], value[4 * i + 2]);
      EXPECT_NEAR(glm::length(q), 1.0f, 1e-5f) << count << " item " << i;
    }
  }
}

}  // namespace
