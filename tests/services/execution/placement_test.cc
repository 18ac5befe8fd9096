// Where new matches go (placement.h): to the replica with the fewest live matches, once the
// difference passes the slack, each match sent counted at once so a burst spreads.
#include "services/execution/placement.h"

#include <map>
#include <optional>
#include <string>

#include "gtest/gtest.h"

namespace boneyard::execution {
namespace {

constexpr int64_t kOwn = 1;

TEST(PlacementTest, AloneOrAboutEvenAMatchStaysHere) {
  Placement placement(kOwn);
  EXPECT_EQ(placement.Choose(50), std::nullopt);  // nothing known of others yet
  placement.Update({{kOwn, "me:1", 50}});         // only this replica
  EXPECT_EQ(placement.Choose(50), std::nullopt);
  placement.Update({{kOwn, "me:1", 5}, {2, "b:1", 4}, {3, "c:1", 3}});
  EXPECT_EQ(placement.Choose(5), std::nullopt);  // c has fewer, but within the slack of 2
}

TEST(PlacementTest, AMatchGoesToTheLeastLoadedAndABurstSpreadsOverTheOthers) {
  Placement placement(kOwn);
  placement.Update({{kOwn, "me:1", 10}, {2, "b:1", 0}, {3, "c:1", 1}});
  std::map<std::string, int> sent;
  // Ten matches here all along: the others are filled up to within the slack (8), the least
  // loaded first.
  for (std::optional<std::string> there = placement.Choose(10); there.has_value();
       there = placement.Choose(10)) {
    ++sent[*there];
  }
  EXPECT_EQ(sent["b:1"], 8);
  EXPECT_EQ(sent["c:1"], 7);
  EXPECT_FALSE(sent.contains("me:1"));
}

TEST(PlacementTest, TheSlackGrowsWithTheLoad) {
  Placement placement(kOwn);
  placement.Update({{2, "b:1", 96}});
  EXPECT_EQ(placement.Choose(100), std::nullopt);  // 96 + 100/20 >= 100
  placement.Update({{2, "b:1", 94}});
  EXPECT_EQ(placement.Choose(100), "b:1");
}

TEST(PlacementTest, AReplicaWithoutAnAddressIsNotChosen) {
  Placement placement(kOwn);
  placement.Update({{2, "", 0}, {3, "c:1", 50}});
  EXPECT_EQ(placement.Choose(40), std::nullopt);
  EXPECT_EQ(placement.Choose(60), "c:1");
}

}  // namespace
}  // namespace boneyard::execution
