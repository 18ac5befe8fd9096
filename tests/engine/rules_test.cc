// Rule options and the registry: names, types, defaults, ranges, presets, and clear errors.
#include "engine/core/rules.h"

#include "engine/core/registry.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace boneyard {
namespace {

using ::testing::HasSubstr;

std::vector<OptionSpec> Specs() {
  return {OptionSpec::Int("players", 2, 2, 4, "seats"),
          OptionSpec::Bool("teams", false, "partners"),
          OptionSpec::Choice("speed", "slow", {"slow", "fast"}, "pace")};
}
std::vector<Preset> Presets() {
  return {Preset{"big", "four players", {{"players", int64_t{4}}}}};
}

TEST(Rules, DefaultsApplyWhenNothingIsGiven) {
  absl::StatusOr<Rules> r = ResolveRules("g", Specs(), Presets(), RuleText{});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->GetInt("players"), 2);
  EXPECT_FALSE(r->GetBool("teams"));
  EXPECT_EQ(r->GetString("speed"), "slow");
  EXPECT_EQ(r->GetString("preset"), "");
}

TEST(Rules, PresetThenOverrides) {
  absl::StatusOr<Rules> r =
      ResolveRules("g", Specs(), Presets(), RuleText{{"preset", "big"}, {"teams", "true"}});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->GetInt("players"), 4);
  EXPECT_TRUE(r->GetBool("teams"));
  EXPECT_EQ(r->GetString("preset"), "big");
  // An explicit value beats the preset, whatever the order they are written in.
  r = ResolveRules("g", Specs(), Presets(), RuleText{{"players", "3"}, {"preset", "big"}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->GetInt("players"), 3);
}

TEST(Rules, UnknownOptionIsNamed) {
  absl::StatusOr<Rules> r = ResolveRules("g", Specs(), Presets(), RuleText{{"colour", "red"}});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(r.status().message(), HasSubstr("unknown rule option 'colour'"));
  EXPECT_THAT(r.status().message(), HasSubstr("players"));
}

TEST(Rules, OutOfRangeValueIsNamed) {
  absl::StatusOr<Rules> r = ResolveRules("g", Specs(), Presets(), RuleText{{"players", "5"}});
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(r.status().message(), HasSubstr("'players' must be between 2 and 4, got 5"));
}

TEST(Rules, WrongTypesAreNamed) {
  EXPECT_THAT(ResolveRules("g", Specs(), Presets(), RuleText{{"players", "two"}}).status().message(),
              HasSubstr("'players' must be a whole number"));
  EXPECT_THAT(ResolveRules("g", Specs(), Presets(), RuleText{{"teams", "maybe"}}).status().message(),
              HasSubstr("'teams' must be true or false"));
  EXPECT_THAT(ResolveRules("g", Specs(), Presets(), RuleText{{"speed", "warp"}}).status().message(),
              HasSubstr("'speed' must be one of slow, fast"));
  std::map<std::string, OptionValue> typed{{"players", std::string("4")}};
  EXPECT_THAT(ResolveRules("g", Specs(), Presets(), typed).status().message(),
              HasSubstr("'players' must be a whole number"));
}

TEST(Rules, UnknownPresetIsNamed) {
  absl::StatusOr<Rules> r = ResolveRules("g", Specs(), Presets(), RuleText{{"preset", "huge"}});
  EXPECT_THAT(r.status().message(), HasSubstr("unknown preset 'huge'"));
  EXPECT_THAT(r.status().message(), HasSubstr("big"));
}

TEST(Rules, ParseRuleText) {
  absl::StatusOr<RuleText> t = ParseRuleText("players=3, teams=true");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(*t, (RuleText{{"players", "3"}, {"teams", "true"}}));
  EXPECT_TRUE(ParseRuleText("")->empty());
  EXPECT_THAT(ParseRuleText("players").status().message(), HasSubstr("name=value"));
  EXPECT_THAT(ParseRuleText("=3").status().message(), HasSubstr("name=value"));
  EXPECT_THAT(ParseRuleText("players=3,players=4").status().message(), HasSubstr("given twice"));
}

TEST(Registry, ListsTheShippedGames) {
  const GameRegistry& registry = DefaultRegistry();
  EXPECT_THAT(registry.Names(), ::testing::IsSupersetOf({"castle_rock", "muggins"}));
  for (const GameSpec* spec : registry.List()) {
    EXPECT_FALSE(spec->title.empty());
    EXPECT_LE(spec->min_seats, spec->max_seats);
    // Every game can be made with its defaults and with each of its presets.
    EXPECT_TRUE(registry.CreateGame(spec->name, RuleText{}).ok()) << spec->name;
    for (const Preset& p : spec->presets) {
      EXPECT_TRUE(registry.CreateGame(spec->name, RuleText{{"preset", p.name}}).ok())
          << spec->name << " preset " << p.name;
    }
  }
}

TEST(Registry, UnknownGameIsNotFound) {
  auto game = DefaultRegistry().CreateGame("snap", RuleText{});
  EXPECT_EQ(game.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(game.status().message(), HasSubstr("unknown game 'snap'"));
  EXPECT_THAT(game.status().message(), HasSubstr("muggins"));
}

TEST(Registry, RegisteringTwiceFails) {
  GameRegistry registry;
  RegisterAllGames(registry);
  GameSpec again;
  again.name = "muggins";
  EXPECT_EQ(registry.Register(again).code(), absl::StatusCode::kAlreadyExists);
}

}  // namespace
}  // namespace boneyard
