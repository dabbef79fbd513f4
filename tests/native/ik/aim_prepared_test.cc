// Prepared aim settings (docs/ik/aim.md): Prepare + SolveAim equal the
// all-in-one AimJob::Run bit for bit, Validate has no hidden state, and bad
// settings or frames give the named errors.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "native/ik_test_util.h"
#include "native/status_test_util.h"

using ikpd::AimFrame;
using ikpd::AimJob;
using ikpd::AimMethod;
using ikpd::AimSettings;
using ikpd::AimSetup;
using ikpd::Status;
using iktest::kInf;
using iktest::kNaN;
using iktest::Same;
using statustest::Text;

namespace {

// A random aim job: every option drawn from its range, with or without a pole,
// a hinge axis or an offset.
AimJob RandomAim(iktest::Rng& rng, int i) {
  AimJob job;
  job.frame.position = rng.Vec(-3, 3);
  job.frame.rotation = rng.Rotation() * rng.Uniform(0.5f, 2.0f);
  job.frame.target = i % 50 == 0 ? job.frame.position : rng.Vec(-5, 5);
  job.settings.forward = rng.Direction() * rng.Uniform(0.5f, 2.0f);
  job.settings.method = static_cast<AimMethod>(i % 3);
  const glm::vec3 f = glm::normalize(job.settings.forward);
  if (i % 4 == 3) {
    do job.settings.hingeAxis = rng.Direction(); while (glm::length(glm::cross(f, *job.settings.hingeAxis)) < 0.05f);
  } else {
    if (i % 2 == 1) {
      do job.settings.up = rng.Direction(); while (glm::length(glm::cross(f, job.settings.up)) < 0.05f);
      job.settings.pole = true, job.frame.pole = rng.Vec(-5, 5);
    }
    if (i % 4 == 2) job.settings.offset = rng.Vec(-0.5f, 0.5f);
  }
  job.frame.weight = i % 10 == 0 ? 0.0f : i % 10 < 5 ? 1.0f : rng.Uniform(0.0f, 1.0f);
  return job;
}

}  // namespace

TEST(AimPrepared, EqualsRunBitForBit) {
  iktest::Rng rng(2502);
  for (int i = 0; i < 20000; ++i) {
    AimJob job = RandomAim(rng, i);
    glm::quat viaJob, viaSetup;
    job.result = &viaJob;
    ASSERT_TRUE(job.Run()) << i;
    AimSetup setup;
    ASSERT_TRUE(ikpd::Prepare(job.settings, &setup)) << i;
    ASSERT_TRUE(ikpd::SolveAim(setup, job.frame, &viaSetup)) << i;
    ASSERT_TRUE(Same(viaJob, viaSetup)) << "case " << i;
  }
}

// Validate and Run depend on their own call only (as the two-bone job's).
TEST(AimPrepared, ValidateHasNoHiddenState) {
  iktest::Rng rng(10);
  std::vector<AimJob> jobs;
  for (int k = 0; k < 4; ++k) jobs.push_back(RandomAim(rng, k));
  jobs.push_back(jobs[1]);
  jobs.back().settings.up = jobs[1].settings.forward;  // invalid with its pole
  iktest::ExpectNoHiddenState<AimJob, glm::quat>(jobs, {1, 4, 1, 0, 4, 2, 3, 1, 4, 0});
}

TEST(AimPrepared, BadSettingsAndFramesAreNamed) {
  const auto settingsError = [](auto change) {
    AimSettings s;
    change(s);
    AimSetup setup;
    const Status prepared = ikpd::Prepare(s, &setup);
    EXPECT_EQ(Text(prepared), Text(s.Validate()));
    EXPECT_EQ(setup.prepared(), prepared.ok());
    return Text(prepared);
  };
  EXPECT_EQ(settingsError([](AimSettings&) {}), "ok");
  EXPECT_EQ(settingsError([](AimSettings& s) { s.forward = glm::vec3(0); }), "forward: must be a non-zero finite vector");
  EXPECT_EQ(settingsError([](AimSettings& s) { s.method = static_cast<AimMethod>(9); }),
            "method: must be yawPitch, crossProduct or shortestArc");
  EXPECT_EQ(settingsError([](AimSettings& s) { s.up = glm::vec3(1, 0, 0); }), "ok");  // up is unused without a pole
  EXPECT_EQ(settingsError([](AimSettings& s) { s.pole = true, s.up = glm::vec3(1, 0, 0); }), "up: must not be parallel to forward");
  EXPECT_EQ(settingsError([](AimSettings& s) { s.pole = true, s.up = glm::vec3(0); }), "up: must be a non-zero finite vector");
  EXPECT_EQ(settingsError([](AimSettings& s) { s.pole = true, s.hingeAxis = glm::vec3(0, 0, 1); }),
            "pole: cannot be combined with hingeAxis (a hinge cannot roll)");
  EXPECT_EQ(settingsError([](AimSettings& s) { s.hingeAxis = glm::vec3(-3, 0, 0); }), "hingeAxis: must not be parallel to forward");
  EXPECT_EQ(settingsError([](AimSettings& s) { s.offset = glm::vec3(kInf, 0, 0); }), "offset: must be finite");
  EXPECT_EQ(settingsError([](AimSettings& s) { s.hingeAxis = glm::vec3(0, 0, 1), s.offset = glm::vec3(0, 1, 0); }),
            "offset: cannot be combined with hingeAxis");

  const auto frameError = [](bool pole, auto change) {
    AimSettings s;
    s.pole = pole;
    AimSetup setup;
    EXPECT_TRUE(ikpd::Prepare(s, &setup));
    AimFrame f;
    f.target = glm::vec3(1, 2, 3), f.pole = glm::vec3(0, 1, 0);
    change(f);
    glm::quat r(7, 7, 7, 7);
    const Status status = ikpd::SolveAim(setup, f, &r);
    if (!status) {
      EXPECT_EQ(r.w, 7.0f);
    }
    return Text(status);
  };
  EXPECT_EQ(frameError(true, [](AimFrame&) {}), "ok");
  EXPECT_EQ(frameError(false, [](AimFrame& f) { f.position.y = kNaN; }), "position: must be finite");
  EXPECT_EQ(frameError(false, [](AimFrame& f) { f.rotation = glm::quat(0, 0, 0, 0); }),
            "rotation: must be a non-zero finite quaternion");
  EXPECT_EQ(frameError(false, [](AimFrame& f) { f.target.x = kInf; }), "target: must be finite");
  EXPECT_EQ(frameError(true, [](AimFrame& f) { f.pole.x = kNaN; }), "pole: must be finite");
  EXPECT_EQ(frameError(false, [](AimFrame& f) { f.pole.x = kNaN; }), "ok");
  EXPECT_EQ(frameError(false, [](AimFrame& f) { f.weight = -0.5f; }), "weight: must be in [0, 1]");
  glm::quat r;
  EXPECT_EQ(Text(ikpd::SolveAim(AimSetup{}, AimFrame{}, &r)), "setup: not prepared (call Prepare first)");
  AimSetup setup;
  ASSERT_TRUE(ikpd::Prepare(AimSettings{}, &setup));
  EXPECT_EQ(Text(ikpd::SolveAim(setup, AimFrame{}, nullptr)), "result: output pointer must not be null");
  EXPECT_EQ(Text(ikpd::Prepare(AimSettings{}, nullptr)), "setup: output pointer must not be null");
}
