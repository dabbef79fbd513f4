#include <gtest/gtest.h>

#include <limits>

#include "ikpd/ikpd.h"

TEST(Common, VersionMatchesPackage) { EXPECT_STREQ(ikpd::Version(), "0.1.0"); }

TEST(Common, StatusNamesParameter) {
  EXPECT_TRUE(ikpd::Ok().ok());
  const ikpd::Status s = ikpd::Error("weight: must be in [0, 1]");
  EXPECT_FALSE(s.ok());
  EXPECT_STREQ(s.error, "weight: must be in [0, 1]");
}

TEST(Common, RotationUsability) {
  EXPECT_TRUE(ikpd::IsUsableRotation(glm::quat(2.0f, 0.0f, 0.0f, 0.0f)));
  EXPECT_FALSE(ikpd::IsUsableRotation(glm::quat(0.0f, 0.0f, 0.0f, 0.0f)));
  EXPECT_FALSE(ikpd::IsUsableRotation(glm::quat(std::numeric_limits<float>::quiet_NaN(), 0.0f, 0.0f, 0.0f)));
}
