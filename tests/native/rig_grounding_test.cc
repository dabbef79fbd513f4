// The grounding constraint (docs/grounding.md): a standing character on flat
// ground, slopes and steps, with every bone-axis convention and scaled or
// rotated parents; bad input; Probe.
#include <gtest/gtest.h>

#include "grounding_test_util.h"

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
    const float offset = s.soleOffsets.empty() ? (r.toes ? 0.03f : 0.1f) : s.soleOffsets[i];
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

}  // namespace
