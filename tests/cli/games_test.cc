// `boneyard games`: the text listing and the shape of --json.
#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "engine/bots/bot.h"
#include "engine/core/registry.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/cli/run_cli.h"

namespace boneyard::testing {
namespace {

using ::testing::HasSubstr;
using nlohmann::json;

json GamesJson() {
  const CliResult r = RunCli({"games", "--json"});
  EXPECT_EQ(r.exit_code, 0) << Describe(r);
  EXPECT_EQ(r.err, "");
  json j = json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(j.is_discarded()) << r.out;
  return j;
}

TEST(Games, JsonListsEveryRegisteredGame) {
  const json games = GamesJson();
  ASSERT_TRUE(games.is_array());
  std::set<std::string> names;
  for (const json& g : games) names.insert(g.at("name").get<std::string>());
  EXPECT_TRUE(names.contains("castle_rock"));
  EXPECT_TRUE(names.contains("muggins"));
  const std::vector<std::string> registered = DefaultRegistry().Names();
  EXPECT_EQ(names, std::set<std::string>(registered.begin(), registered.end()));
}

TEST(Games, JsonShape) {
  for (const json& g : GamesJson()) {
    SCOPED_TRACE(g.dump());
    EXPECT_TRUE(g.at("title").is_string());
    EXPECT_TRUE(g.at("summary").is_string());
    EXPECT_TRUE(g.at("min_seats").is_number_integer());
    EXPECT_LE(g.at("min_seats").get<int>(), g.at("max_seats").get<int>());
    ASSERT_TRUE(g.at("options").is_array());
    for (const json& o : g.at("options")) {
      for (const char* key : {"name", "type", "kind", "default", "min", "max", "choices", "description"}) {
        EXPECT_TRUE(o.contains(key)) << key;
      }
      EXPECT_TRUE(o.at("choices").is_array());
    }
    ASSERT_TRUE(g.at("presets").is_array());
    for (const json& p : g.at("presets")) {
      EXPECT_TRUE(p.at("name").is_string());
      EXPECT_TRUE(p.at("description").is_string());
      EXPECT_TRUE(p.at("values").is_object());
    }
    ASSERT_TRUE(g.at("bots").is_array());
    EXPECT_EQ(g.at("bots").get<std::vector<std::string>>(),
              DefaultBots().BotsFor(g.at("name").get<std::string>()));
    // Every game names a default bot, one of its own, stronger than random.
    const std::vector<std::string> bots = g.at("bots").get<std::vector<std::string>>();
    const std::string default_bot = g.at("default_bot").get<std::string>();
    EXPECT_NE(std::find(bots.begin(), bots.end(), default_bot), bots.end()) << default_bot;
    EXPECT_NE(default_bot, "random");
    // The search bot offers levels 1-5 in every game; the others none.
    EXPECT_EQ(g.at("bot_levels"), json({{"search", 5}}));
  }
}

// The trick games' stand-in is their heuristic bot, the others' their greedy one.
TEST(Games, DefaultBots) {
  std::map<std::string, std::string> defaults;
  for (const json& g : GamesJson()) defaults[g.at("name")] = g.at("default_bot");
  EXPECT_EQ(defaults, (std::map<std::string, std::string>{{"castle_rock", "greedy"},
                                                          {"chickenfoot", "greedy"},
                                                          {"eighty_four", "heuristic"},
                                                          {"forty_two", "heuristic"},
                                                          {"mexican_train", "greedy"},
                                                          {"moon", "heuristic"},
                                                          {"muggins", "greedy"}}));
}

TEST(Games, CastleRockOptionsAndPresets) {
  for (const json& g : GamesJson()) {
    if (g.at("name") != "castle_rock") continue;
    const json& set = g.at("options").at(1);
    EXPECT_EQ(set.at("name"), "set");
    EXPECT_EQ(set.at("type"), "int 6..18");
    EXPECT_EQ(set.at("kind"), "int");
    EXPECT_EQ(set.at("default"), 6);
    EXPECT_EQ(set.at("min"), 6);
    EXPECT_EQ(set.at("max"), 18);
    EXPECT_EQ(g.at("presets").at(0).at("values"), json({{"set", 6}}));
    return;
  }
  FAIL() << "castle_rock missing";
}

TEST(Games, TextNamesOptionsPresetsAndBots) {
  const CliResult r = RunCli({"games"});
  EXPECT_EQ(r.exit_code, 0) << Describe(r);
  EXPECT_THAT(r.out, HasSubstr("castle_rock"));
  EXPECT_THAT(r.out, HasSubstr("muggins"));
  EXPECT_THAT(r.out, HasSubstr("set (int 6..18, default 6)"));
  EXPECT_THAT(r.out, HasSubstr("double-9"));
  EXPECT_THAT(r.out, HasSubstr("bots: random, greedy, search (levels 1-5); default greedy"));
  EXPECT_THAT(r.out, HasSubstr("bots: random, heuristic, search (levels 1-5); default heuristic"));
}

}  // namespace
}  // namespace boneyard::testing
