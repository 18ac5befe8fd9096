// Token buckets (services/common/rate_limit.h), on a clock the test moves by hand.
#include "services/common/rate_limit.h"

#include "gtest/gtest.h"

namespace boneyard {
namespace {

const absl::Time kStart = absl::FromUnixSeconds(1'800'000'000);

int TakeAll(TokenBucket& bucket, absl::Time now) {
  int taken = 0;
  while (taken < 1000 && bucket.TryTake(now)) ++taken;
  return taken;
}

TEST(TokenBucket, StartsFullWithItsBurst) {
  TokenBucket bucket({.per_second = 2, .burst = 5}, kStart);
  EXPECT_EQ(TakeAll(bucket, kStart), 5);
  EXPECT_FALSE(bucket.TryTake(kStart));
}

TEST(TokenBucket, RefillsAtItsRateUpToItsBurst) {
  TokenBucket bucket({.per_second = 2, .burst = 5}, kStart);
  TakeAll(bucket, kStart);
  EXPECT_FALSE(bucket.TryTake(kStart + absl::Milliseconds(499)));
  EXPECT_TRUE(bucket.TryTake(kStart + absl::Milliseconds(500)));
  EXPECT_FALSE(bucket.TryTake(kStart + absl::Milliseconds(500)));
  // After a long quiet spell it holds its burst, no more.
  EXPECT_EQ(TakeAll(bucket, kStart + absl::Hours(1)), 5);
}

TEST(TokenBucket, FractionsAccumulateAcrossCalls) {
  TokenBucket bucket({.per_second = 10, .burst = 1}, kStart);
  ASSERT_TRUE(bucket.TryTake(kStart));
  // Two 50 ms refills make the one token that neither makes alone.
  EXPECT_FALSE(bucket.TryTake(kStart + absl::Milliseconds(50)));
  EXPECT_TRUE(bucket.TryTake(kStart + absl::Milliseconds(100)));
}

TEST(TokenBucket, AClockThatGoesBackTakesNothingAway) {
  TokenBucket bucket({.per_second = 1, .burst = 3}, kStart);
  EXPECT_TRUE(bucket.TryTake(kStart - absl::Seconds(10)));
  EXPECT_EQ(TakeAll(bucket, kStart), 2);
}

TEST(TokenBucket, ZeroRateIsUnlimitedAndABurstBelowOneIsOne) {
  TokenBucket unlimited({.per_second = 0, .burst = 1}, kStart);
  EXPECT_EQ(TakeAll(unlimited, kStart), 1000);
  TokenBucket tiny({.per_second = 1, .burst = 0}, kStart);
  EXPECT_EQ(TakeAll(tiny, kStart), 1);
}

}  // namespace
}  // namespace boneyard
