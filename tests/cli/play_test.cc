// `boneyard play` driven through a pipe: numbered and typed answers, bad answers re-prompted,
// quitting, records, and that a person never sees a tile hidden from their seat.
#include <algorithm>
#include <cctype>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/core/registry.h"
#include "engine/records/record.h"
#include "engine/records/referee.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/cli/run_cli.h"

namespace boneyard::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using nlohmann::json;

std::string Repeat(const std::string& line, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += line + "\n";
  return out;
}

int Count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(Play, CastleRockByNumbersUntilTheEnd) {
  const CliResult r = RunCli({"play", "--game", "castle_rock", "--seats", "human"},
                             "take 99\n99\n" + Repeat("1", 200));
  EXPECT_EQ(r.exit_code, 0) << Describe(r);
  EXPECT_EQ(r.err, "");
  EXPECT_THAT(r.out, HasSubstr("castle_rock (players=1,preset=,set=6), seed 1"));
  EXPECT_THAT(r.out, HasSubstr("your actions:\n  1) "));
  // The bad answers are explained (the engine names the rule) and asked again.
  EXPECT_THAT(r.out, HasSubstr("'take 99' is not possible: position 99 is outside the row"));
  EXPECT_THAT(r.out, HasSubstr("no action numbered 99"));
  EXPECT_GE(Count(r.out, "your move> "), 4);
  EXPECT_THAT(r.out, HasSubstr("match over"));
  EXPECT_THAT(r.out, HasSubstr("seat 0 (you): score "));
  EXPECT_THAT(r.out, HasSubstr("\"tiles_left\""));
}

TEST(Play, TypedActionsAreAccepted) {
  // Seed 1's first position has a legal action; typing its text must work like its number.
  auto game = DefaultRegistry().CreateGame("castle_rock", RuleText{});
  ASSERT_TRUE(game.ok());
  auto state = (*game)->NewMatch(1);
  ASSERT_TRUE(state.ok());
  const std::string first = (*state)->LegalActionStrings().at(0);
  const CliResult r = RunCli({"play", "--game", "castle_rock", "--seats", "human", "--seed", "1"},
                             first + "\nquit\n");
  EXPECT_EQ(r.exit_code, 0) << Describe(r);
  EXPECT_EQ(Count(r.out, "your move> "), 2) << r.out;
  EXPECT_THAT(r.out, Not(HasSubstr("is not possible")));
}

TEST(Play, QuitAndEndOfInputLeaveCleanly) {
  for (const std::string& input : {std::string("quit\n"), std::string("")}) {
    const CliResult r = RunCli({"play", "--game", "castle_rock", "--seats", "human"}, input);
    EXPECT_EQ(r.exit_code, 0) << Describe(r);
    EXPECT_THAT(r.out, HasSubstr("You left the match in round 1"));
    EXPECT_EQ(r.err, "");
  }
}

TEST(Play, RecordFollowsTheDocumentedSeed) {
  const std::string path = MakeTempDir() + "/game.json";
  const CliResult r = RunCli({"play", "--game", "castle_rock", "--seats", "human", "--seed", "42",
                              "--record", path},
                             Repeat("1", 200));
  ASSERT_EQ(r.exit_code, 0) << Describe(r);
  EXPECT_THAT(r.out, HasSubstr("record written to " + path));

  // The deal is game->NewMatch(seed)'s, as docs/cli.md promises.
  absl::StatusOr<Record> record = ParseRecord(ReadWholeFile(path));
  ASSERT_TRUE(record.ok()) << record.status();
  auto game = DefaultRegistry().CreateGame("castle_rock", RuleText{});
  ASSERT_TRUE(game.ok());
  auto fresh = (*game)->NewMatch(42);
  ASSERT_TRUE(fresh.ok());
  ASSERT_EQ(record->rounds.size(), 1u);
  EXPECT_EQ(record->rounds[0].deal, (*fresh)->CurrentDeal());
  EXPECT_EQ(record->seed, 42u);
  EXPECT_EQ(record->seats, std::vector<std::string>({"human"}));

  const CliResult replay = RunCli({"replay", "--json", path});
  ASSERT_EQ(replay.exit_code, 0) << Describe(replay);
  EXPECT_EQ(json::parse(replay.out).at("terminal"), true);
}

// The output of round `round` (0-based): from its "=== round N ===" banner to the line that
// ends it ("round N over" or the final view's "(match over)").
std::string RoundText(const std::string& out, int round) {
  const std::string banner = absl::StrCat("=== round ", round + 1, " ===");
  const size_t begin = out.find(banner);
  if (begin == std::string::npos) return "";
  size_t end = out.size();
  for (const std::string& marker : {absl::StrCat("round ", round + 1, " over"),
                                    std::string("(match over)")}) {
    end = std::min(end, out.find(marker, begin));
  }
  return out.substr(begin, end - begin);
}

// Where `tile` ("6-4") first appears, written either way round, as a whole tile.
size_t FirstMention(const std::string& text, const Tile& tile) {
  size_t first = std::string::npos;
  for (const std::string& written : {absl::StrCat(tile.hi, "-", tile.lo),
                                     absl::StrCat(tile.lo, "-", tile.hi)}) {
    for (size_t at = text.find(written); at != std::string::npos;
         at = text.find(written, at + 1)) {
      const bool digit_before = at > 0 && std::isdigit(static_cast<unsigned char>(text[at - 1]));
      const size_t after = at + written.size();
      const bool digit_after =
          after < text.size() && std::isdigit(static_cast<unsigned char>(text[after]));
      if (!digit_before && !digit_after) {
        first = std::min(first, at);
        break;
      }
    }
  }
  return first;
}

std::string LineAt(const std::string& text, size_t at) {
  const size_t start = text.rfind('\n', at);
  const size_t begin = start == std::string::npos ? 0 : start + 1;
  return text.substr(begin, text.find('\n', at) - begin);
}

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

// Every tile hidden from the person at the deal (the bot's hand, the boneyard) may first be
// named only when the bot plays it or when it is in the person's own hand (drawn).
void ExpectNoHiddenTileShown(const std::string& round_text, const Deal& deal, int person) {
  std::vector<Tile> hidden = deal.boneyard;
  for (int s = 0; s < static_cast<int>(deal.hands.size()); ++s) {
    if (s != person) hidden.insert(hidden.end(), deal.hands[s].begin(), deal.hands[s].end());
  }
  const std::string own_hand = absl::StrCat("your hand (seat ", person, "): ");
  for (const Tile& tile : hidden) {
    const size_t at = FirstMention(round_text, tile);
    if (at == std::string::npos) continue;
    const std::string line = LineAt(round_text, at);
    const bool played = StartsWith(line, "seat ") && line.find(" plays " + tile.ToString()) !=
                                                         std::string::npos;
    EXPECT_TRUE(played || StartsWith(line, own_hand))
        << "hidden tile " << tile.ToString() << " shown in \"" << line << "\"\n" << round_text;
  }
}

TEST(Play, MugginsNeverShowsAHiddenTile) {
  for (const uint64_t seed : {1u, 2u, 3u}) {
    SCOPED_TRACE(seed);
    const std::string path = MakeTempDir() + "/game.json";
    const CliResult r = RunCli({"play", "--game", "muggins", "--seats", "human,greedy", "--seed",
                                std::to_string(seed), "--record", path},
                               Repeat("1", 2000));
    ASSERT_EQ(r.exit_code, 0) << Describe(r);
    EXPECT_THAT(r.out, HasSubstr("match over"));
    absl::StatusOr<Record> record = ParseRecord(ReadWholeFile(path));
    ASSERT_TRUE(record.ok()) << record.status();

    // Round 1 is game->NewMatch(seed)'s deal, as docs/cli.md promises, so the bot's hand is
    // known in-process too.
    auto game = DefaultRegistry().CreateGame("muggins", RuleText{{"players", "2"}});
    ASSERT_TRUE(game.ok());
    auto fresh = (*game)->NewMatch(seed);
    ASSERT_TRUE(fresh.ok());
    const Deal first_deal = (*fresh)->CurrentDeal();
    ASSERT_FALSE(record->rounds.empty());
    EXPECT_EQ(record->rounds[0].deal, first_deal);
    const std::string round1 = RoundText(r.out, 0);
    ASSERT_THAT(round1, HasSubstr("seat 1 plays "));
    for (const Tile& tile : first_deal.hands[1]) {
      const size_t at = FirstMention(round1, tile);
      if (at == std::string::npos) continue;
      EXPECT_THAT(LineAt(round1, at), ::testing::StartsWith("seat 1 plays " + tile.ToString()))
          << "tile " << tile.ToString() << " of the bot's hand shown early:\n" << round1;
    }

    // Every round, with the deals the record holds.
    for (int round = 0; round < static_cast<int>(record->rounds.size()); ++round) {
      SCOPED_TRACE(round + 1);
      ASSERT_TRUE(record->rounds[round].deal.has_value());
      const std::string text = RoundText(r.out, round);
      ASSERT_FALSE(text.empty());
      ExpectNoHiddenTileShown(text, *record->rounds[round].deal, /*person=*/0);
    }
  }
}

TEST(Play, MugginsBotMovesNeverNameADrawnTile) {
  const CliResult r = RunCli({"play", "--game", "muggins", "--seats", "greedy,human", "--seed", "7"},
                             Repeat("1", 400));
  ASSERT_EQ(r.exit_code, 0) << Describe(r);
  std::istringstream lines(r.out);
  std::string line;
  int bot_lines = 0;
  while (std::getline(lines, line)) {
    if (line.rfind("seat 0 plays ", 0) != 0) continue;
    ++bot_lines;
    const std::string action = line.substr(13);
    if (action.rfind("draw", 0) == 0) {
      EXPECT_EQ(action, "draw");
    }
  }
  EXPECT_GT(bot_lines, 0);
}

}  // namespace
}  // namespace boneyard::testing
