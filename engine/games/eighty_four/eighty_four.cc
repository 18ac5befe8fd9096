#include "engine/games/eighty_four/eighty_four.h"

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"

#include "engine/games/forty_two/forty_two_bots.h"

namespace boneyard::eighty_four {

GameSpec Spec() {
  GameSpec spec;
  spec.name = "eighty_four";
  spec.title = "Eighty-Four";
  spec.summary =
      "Forty-Two for 8 or 6 players in two alternating teams with two double-6 sets: bid "
      "60-84, name trumps, take tricks and counts; first team to 250 (or 7 marks) wins.";
  spec.min_seats = 6;
  spec.max_seats = 8;
  spec.default_bot = "heuristic";
  spec.options = {
      OptionSpec::Int("players", 8, 6, 8,
                      "8: two teams of 4, 7 tiles each, 2 points a trick; 6: two teams of 3, "
                      "9 tiles each (2 left out), tricks worth nothing, 1 point a double"),
      OptionSpec::Choice("scoring", "points", {"points", "marks"},
                         "points: game to `target`; marks: one mark per hand won, first to "
                         "`marks_target`"),
      OptionSpec::Int("target", 250, 84, 2000, "points that win the game (scoring=points)"),
      OptionSpec::Int("marks_target", 7, 1, 21, "marks that win the game (scoring=marks)"),
      OptionSpec::Bool("shaker_must_bid", false,
                       "when everyone before the shaker passes, the shaker must bid"),
      OptionSpec::Bool("left_out_to_last_trick", true,
                       "players=6: the counts and doubles of the 2 tiles left out go to the team "
                       "taking the last trick (so every hand is worth 84); false: to nobody"),
      OptionSpec::Bool("doubles_trump", false, "\"trump doubles\": the 14 doubles form the trump suit"),
      OptionSpec::Bool("follow_me", false, "\"trump none\": play a hand without trumps"),
  };
  spec.presets = {
      Preset{"eight", "8 players in two teams of 4 (sheet 001)", {}},
      Preset{"six", "6 players in two teams of 3 (sheet 001)", {{"players", int64_t{6}}}},
      Preset{"marks", "8 players, one mark per hand won, first to 7 marks",
             {{"scoring", std::string("marks")}}},
  };
  spec.factory = [](const Rules& rules) -> absl::StatusOr<std::shared_ptr<const Game>> {
    const int64_t players = rules.GetInt("players");
    if (players != 6 && players != 8) {
      return absl::InvalidArgumentError(absl::StrCat(
          "rule option 'players' must be 8 (two teams of 4) or 6 (two teams of 3), got ",
          players));
    }
    forty_two::Options o;
    o.scoring = rules.GetString("scoring") == "marks" ? forty_two::Scoring::kMarks
                                                      : forty_two::Scoring::kPoints;
    o.target = static_cast<int>(rules.GetInt("target"));
    o.marks_target = static_cast<int>(rules.GetInt("marks_target"));
    o.shaker_must_bid = rules.GetBool("shaker_must_bid");
    o.left_out_to_last_trick = rules.GetBool("left_out_to_last_trick");
    o.doubles_trump = rules.GetBool("doubles_trump");
    o.follow_me = rules.GetBool("follow_me");
    return std::make_shared<forty_two::FortyTwoGame>(rules, o, "eighty_four",
                                                     players == 8 ? kEightPlayers : kSixPlayers);
  };
  return spec;
}

void RegisterBots(BotRegistry& registry) { forty_two::RegisterBots(registry, "eighty_four"); }

}  // namespace boneyard::eighty_four
