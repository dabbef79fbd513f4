// AimBatchJob must give exactly the single-call AimJob results, item by item.
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <vector>

#include "ikpd/ikpd.h"

namespace {

using ikpd::AimBatchJob;
using ikpd::AimJob;
using ikpd::PoleMode;

struct Soa {
  explicit Soa(std::size_t n, unsigned seed)
      : position(3 * n), rotation(4 * n), target(3 * n), pole(3 * n), weight(n), out(4 * n, -7.0f) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(-2.0f, 2.0f), w(0.0f, 1.0f);
    for (auto* v : {&position, &rotation, &target, &pole}) {
      for (float& x : *v) x = d(rng);
    }
    for (float& x : weight) x = w(rng);
    for (std::size_t i = 0; i < n; i += 9) {  // target at the joint
      for (int k = 0; k < 3; ++k) target[3 * i + k] = position[3 * i + k];
    }
  }
  std::vector<float> position, rotation, target, pole, weight, out;

  AimBatchJob Job(const AimJob& options, PoleMode mode) {
    AimBatchJob job;
    job.options = options;
    job.poleMode = mode;
    job.count = weight.size();
    job.position = position.data();
    job.rotation = rotation.data();
    job.target = target.data();
    job.pole = pole.data();
    job.weight = weight.data();
    job.outRotation = out.data();
    return job;
  }
};


glm::vec3 V3(const std::vector<float>& f, std::size_t i) { return {f[3 * i], f[3 * i + 1], f[3 * i + 2]}; }
glm::quat Q(const std::vector<float>& f, std::size_t i) {
  return glm::quat(f[4 * i + 3], f[4 * i], f[4 * i + 1], f[4 * i + 2]);
}

void ExpectSameAsSingleCalls(Soa& s, const AimJob& options, PoleMode mode) {
  ASSERT_TRUE(s.Job(options, mode).Run().ok());
  for (std::size_t i = 0; i < s.weight.size(); ++i) {
    AimJob job = options;
    glm::quat r;
    job.frame.position = V3(s.position, i);
    job.frame.rotation = Q(s.rotation, i);
    job.frame.target = V3(s.target, i);
    if (mode == PoleMode::kPoint) job.settings.pole = true, job.frame.pole = V3(s.pole, i);
    job.frame.weight = s.weight[i];
    job.result = &r;
    ASSERT_TRUE(job.Run().ok()) << "item " << i;
    EXPECT_EQ(Q(s.out, i), r) << "item " << i;
  }
}

TEST(BatchAim, MatchesSingleCallsForEveryMethod) {
  for (ikpd::AimMethod method :
       {ikpd::AimMethod::kYawPitch, ikpd::AimMethod::kCrossProduct, ikpd::AimMethod::kShortestArc}) {
    AimJob options;
    options.settings.method = method;
    options.settings.forward = {0.0f, 1.0f, 0.0f};
    options.settings.up = {0.0f, 0.0f, 1.0f};
    for (PoleMode mode : {PoleMode::kNone, PoleMode::kPoint}) {
      Soa s(1500, 17u + static_cast<unsigned>(method));
      ExpectSameAsSingleCalls(s, options, mode);
    }
  }
}

TEST(BatchAim, MatchesSingleCallsWithHingeAxis) {
  AimJob options;
  options.settings.hingeAxis = glm::vec3(0.0f, 0.0f, 1.0f);
  Soa s(1000, 3u);
  ExpectSameAsSingleCalls(s, options, PoleMode::kNone);
}

TEST(BatchAim, MatchesSingleCallsWithOffset) {
  for (ikpd::AimMethod method :
       {ikpd::AimMethod::kYawPitch, ikpd::AimMethod::kCrossProduct, ikpd::AimMethod::kShortestArc}) {
    AimJob options;
    options.settings.method = method;
    options.settings.offset = {0.3f, 0.6f, -0.2f};  // targets inside its sphere too (unreachable items)
    for (PoleMode mode : {PoleMode::kNone, PoleMode::kPoint}) {
      Soa s(1500, 41u + static_cast<unsigned>(method));
      ExpectSameAsSingleCalls(s, options, mode);
    }
  }
}

TEST(BatchAim, DegenerateItemsInsideLaneGroupsMatchSingleCalls) {
  // Every special case of the kernel sits in the SIMD groups next to ordinary
  // items, with every method and pole mode and the hinge: the lanes must still
  // give exactly the single-call result, a finite unit quaternion.
  const float big = 3e38f;
  Soa s(160, 23u);
  for (std::size_t i = 0; i < 160; ++i) {
    auto set3 = [&](std::vector<float>& f, glm::vec3 v) {
      for (int k = 0; k < 3; ++k) f[3 * i + k] = v[k];
    };
    auto setQ = [&](glm::quat q) {
      s.rotation[4 * i] = q.x, s.rotation[4 * i + 1] = q.y, s.rotation[4 * i + 2] = q.z, s.rotation[4 * i + 3] = q.w;
    };
    switch (i % 16) {
      case 1:  // target exactly behind the forward axis (+Y), identity rotation
        setQ(glm::quat(1, 0, 0, 0));
        set3(s.target, V3(s.position, i) - glm::vec3(0, 2, 0));
        break;
      case 3:  // target on the yaw axis
        setQ(glm::quat(1, 0, 0, 0));
        set3(s.target, V3(s.position, i) + glm::vec3(3, 0, 0));
        break;
      case 5:  // pole on the aim line
        set3(s.pole, V3(s.position, i) + 2.0f * (V3(s.target, i) - V3(s.position, i)));
        break;
      case 7:  // huge coordinates
        set3(s.position, {-big, big, 0});
        set3(s.target, {big, -big, big});
        set3(s.pole, {big, big, big});
        break;
      case 9:  // a tiny but non-zero offset, non-unit rotations
        set3(s.target, V3(s.position, i) + glm::vec3(1e-35f, 0, 0));
        setQ(glm::quat(1e18f, 2e18f, 0, 3e18f));
        break;
      case 11:
        setQ(glm::quat(1e-5f, 0, -2e-5f, 0));
        s.weight[i] = 0.0f;
        break;
      case 13:
        s.weight[i] = 1.0f;
        break;
      default:
        break;
    }
  }
  for (ikpd::AimMethod method :
       {ikpd::AimMethod::kYawPitch, ikpd::AimMethod::kCrossProduct, ikpd::AimMethod::kShortestArc}) {
    for (PoleMode mode : {PoleMode::kNone, PoleMode::kPoint}) {
      for (bool hinge : {false, true}) {
        if (hinge && mode == PoleMode::kPoint) continue;
        AimJob options;
        options.settings.method = method;
        options.settings.forward = {0.0f, 1.0f, 0.0f};
        options.settings.up = {0.0f, 0.0f, 1.0f};
        if (hinge) options.settings.hingeAxis = glm::vec3(1.0f, 0.0f, 0.0f);
        ExpectSameAsSingleCalls(s, options, mode);
        for (std::size_t i = 0; i < s.weight.size(); ++i) {
          const glm::quat r = Q(s.out, i);
          ASSERT_TRUE(ikpd::IsFinite(r)) << i;
          EXPECT_NEAR(glm::length(r), 1.0f, 1e-6f) << i;
        }
      }
    }
  }
}

TEST(BatchAim, NamesTheFirstInvalidItemAndWritesNothing) {
  Soa s(40, 8u);
  for (int k = 0; k < 4; ++k) s.rotation[4 * 12 + k] = 0.0f;
  std::size_t failed = 0;
  AimBatchJob job = s.Job(AimJob{}, PoleMode::kNone);
  job.failedItem = &failed;
  ASSERT_FALSE(job.Run().ok());
  EXPECT_EQ(failed, 12u);
  for (float x : s.out) EXPECT_EQ(x, -7.0f);
}

TEST(BatchAim, ValidatesPoleModeAndPointers) {
  Soa s(4, 1u);
  EXPECT_FALSE(s.Job(AimJob{}, PoleMode::kDirection).Validate().ok());
  AimBatchJob job = s.Job(AimJob{}, PoleMode::kPoint);
  job.pole = nullptr;
  EXPECT_FALSE(job.Validate().ok());
  job = s.Job(AimJob{}, PoleMode::kNone);
  job.outRotation = nullptr;
  EXPECT_FALSE(job.Validate().ok());
  AimJob bad;
  bad.settings.forward = glm::vec3(0.0f);
  EXPECT_FALSE(s.Job(bad, PoleMode::kNone).Validate().ok());
}

}  // namespace

namespace {

// Found by tests/fuzz/batch_fuzz.cc: with poleMode point the batch did not
// apply the pole's checks to the shared options (up parallel to forward, a
// hinge with a pole), which the single call rejects for every item.
TEST(BatchAim, PoleModeAppliesThePolesChecksToTheSharedOptions) {
  for (std::size_t count : {1u, 8u, 11u}) {
    std::vector<float> position(3 * count, 0.0f), rotation, target, pole, out(4 * count, 7.0f);
    for (std::size_t i = 0; i < count; ++i) {
      rotation.insert(rotation.end(), {0, 0, 0, 1});
      target.insert(target.end(), {1, 1, 0.5f});
      pole.insert(pole.end(), {0, 1, 1});
    }
    ikpd::AimBatchJob job;
    job.options.settings.forward = glm::vec3(2, 0, 0);
    job.options.settings.up = glm::vec3(-1, 0, 0);  // parallel to forward
    job.options.settings.method = ikpd::AimMethod::kCrossProduct;
    job.poleMode = ikpd::PoleMode::kPoint;
    job.count = count;
    job.position = position.data();
    job.rotation = rotation.data();
    job.target = target.data();
    job.pole = pole.data();
    job.outRotation = out.data();
    EXPECT_STREQ(job.Run().error, "up: must not be parallel to forward") << count;
    EXPECT_EQ(out[0], 7.0f);
    job.options.settings.up = glm::vec3(0, 1, 0);
    job.options.settings.hingeAxis = glm::vec3(0, 0, 1);
    EXPECT_STREQ(job.Run().error, "pole: cannot be combined with hingeAxis (a hinge cannot roll)") << count;
    job.poleMode = ikpd::PoleMode::kNone;
    EXPECT_TRUE(job.Run().ok()) << count;
  }
}

}  // namespace
