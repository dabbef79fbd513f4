// GainOptions: the library's rules for stating PD gains (settleTime or kp,
// damping or kd, 1 s critical default), shared by C++ and the JS API.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <numbers>

#include "ikpd/pd/gain_options.h"

namespace ikpd::pd {
namespace {

bool StartsWith(const Status& s, const char* prefix) {
  return !s && std::strncmp(s.error, prefix, std::strlen(prefix)) == 0;
}

TEST(PdGainOptions, DefaultIsOneSecondCritical) {
  PdSettings s;
  s.kp = s.kd = -1.0;
  ASSERT_TRUE(GainOptions{}.Resolve(&s));
  EXPECT_DOUBLE_EQ(s.kp, std::pow(2.0 * std::numbers::pi, 2.0));
  EXPECT_DOUBLE_EQ(s.kd, 2.0 * std::sqrt(s.kp));
  EXPECT_DOUBLE_EQ(PdSettings{}.kp, s.kp);  // the struct's defaults are the same rule
}

TEST(PdGainOptions, KpWithDampingRatioAndKdOverride) {
  PdSettings s;
  GainOptions g;
  g.kp = 100.0;
  g.damping = 0.5;
  ASSERT_TRUE(g.Resolve(&s));
  EXPECT_DOUBLE_EQ(s.kp, 100.0);
  EXPECT_DOUBLE_EQ(s.kd, 10.0);
  GainOptions h;
  h.settleTime = 0.5;
  h.kd = 3.0;
  ASSERT_TRUE(h.Resolve(&s));
  EXPECT_DOUBLE_EQ(s.kp, std::pow(2.0 * std::numbers::pi / 0.5, 2.0));
  EXPECT_DOUBLE_EQ(s.kd, 3.0);
}

TEST(PdGainOptions, ConflictsAndBadValuesNameTheOptionAndChangeNothing) {
  PdSettings s;
  s.kp = 7.0;
  s.kd = 8.0;
  GainOptions both;
  both.kp = 1.0;
  both.settleTime = 1.0;
  EXPECT_TRUE(StartsWith(both.Resolve(&s), "settleTime: give either settleTime or kp"));
  GainOptions damping;
  damping.kd = 1.0;
  damping.damping = 1.0;
  EXPECT_TRUE(StartsWith(damping.Resolve(&s), "damping: give either damping or kd"));
  GainOptions bad;
  bad.kp = -1.0;
  EXPECT_TRUE(StartsWith(bad.Resolve(&s), "kp:"));
  GainOptions nan;
  nan.settleTime = std::nan("");
  EXPECT_FALSE(nan.Resolve(&s));
  EXPECT_EQ(s.kp, 7.0);
  EXPECT_EQ(s.kd, 8.0);
}

}  // namespace
}  // namespace ikpd::pd
