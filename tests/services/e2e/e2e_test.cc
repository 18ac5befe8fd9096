// End to end: the execution service as a separate process on its own database. For every
// registered game, many matches are created and played all at once, every player seat by a
// RemotePlayer with a random chooser over a few shared channels, some seats by built-in bots.
// Every match must finish; its resource, its terminal views and its record (replayed by the
// engine's referee) must agree on the result; ListMatches must page through all of them once.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/bots/bot.h"
#include "gtest/gtest.h"
#include "tests/services/e2e/e2e_helpers.h"

namespace boneyard::e2e {
namespace {

// Matches per registered game, all played concurrently.
constexpr int kMatchesPerGame = 150;
// Muggins: every kFourPlayerEvery-th match is the four-player team variant.
constexpr int kFourPlayerEvery = 4;
// In games of two or more seats, every kBotMatchEvery-th match has built-in bots in its odd
// seats (seat 0 is always a remote player).
constexpr int kBotMatchEvery = 3;
// The bound on the whole playing phase (a guard against a hang, not a timing assertion).
constexpr absl::Duration kPlayTimeout = absl::Seconds(600);
constexpr int kListPageSize = 37;

class EndToEndTest : public ServiceTest {};

struct Planned {
  std::string game;
  std::string label;
  std::vector<SeatSpec> seats;
};

TEST_F(EndToEndTest, EveryGameHundredsOfConcurrentMatchesFinishAndReplay) {
  const std::vector<std::string> games = DefaultRegistry().Names();
  ASSERT_FALSE(games.empty());

  // Create every match first, then start every player at once.
  std::vector<Planned> plans;
  std::vector<MatchRun> runs;
  runs.reserve(games.size() * kMatchesPerGame);
  int bot_seats = 0;
  for (const std::string& game : games) {
    const std::vector<Variant> variants = VariantsFor(game);
    ASSERT_GT(variants.front().seats, 0) << game;
    const std::vector<std::string> bots = DefaultBots().BotsFor(game);
    for (int i = 0; i < kMatchesPerGame; ++i) {
      const Variant& variant =
          variants.size() > 1 && i % kFourPlayerEvery == kFourPlayerEvery - 1 ? variants[1]
                                                                                : variants[0];
      Planned plan{game, variant.label, {}};
      const bool with_bots = variant.seats >= 2 && i % kBotMatchEvery == 0 && !bots.empty();
      for (int s = 0; s < variant.seats; ++s) {
        if (with_bots && s % 2 == 1) {
          // Alternate the kinds (greedy, random, ...) over matches and seats.
          plan.seats.push_back(SeatSpec::Bot(bots[(i / kBotMatchEvery + s / 2) % bots.size()]));
          plan.label += absl::StrCat(" seat ", s, "=bot:", plan.seats.back().bot_kind);
          ++bot_seats;
        } else {
          plan.seats.push_back(SeatSpec::Player(absl::StrCat(game, "-", i, "-", s)));
        }
      }
      const v1::CreateMatchRequest request = MatchRequest(game, variant.rules, plan.seats);
      absl::StatusOr<v1::CreateMatchResponse> created =
          CreateMatch(stub(i), operator_token(), request);
      ASSERT_TRUE(created.ok()) << plan.label << ": " << created.status();
      ASSERT_EQ(created->match().state(), v1::Match::ACTIVE);
      ASSERT_EQ(created->match().seats_size(), variant.seats);
      int player_seats = 0;
      for (const SeatSpec& seat : plan.seats) player_seats += seat.bot_kind.empty() ? 1 : 0;
      ASSERT_EQ(created->seat_tokens_size(), player_seats) << plan.label;
      for (const v1::SeatToken& token : created->seat_tokens()) {
        ASSERT_TRUE(plan.seats[token.seat()].bot_kind.empty())
            << plan.label << ": a token for the bot seat " << token.seat();
      }
      runs.push_back(MatchRun{*created, {}, {}, {}});
      AddPlayers(runs.back(), static_cast<int>(runs.size()), stubs(), PlayerSetup{});
      plans.push_back(std::move(plan));
    }
  }
  ASSERT_GT(bot_seats, 0) << "no match had a built-in bot";

  StartAll(runs);
  const std::vector<std::vector<absl::Status>> statuses = WaitAll(runs, kPlayTimeout);

  for (size_t m = 0; m < runs.size(); ++m) {
    MatchRun& run = runs[m];
    const Planned& plan = plans[m];
    SCOPED_TRACE(absl::StrCat(run.name(), " (", plan.label, ")"));

    absl::StatusOr<v1::Match> match = GetMatch(stub(), run.name());
    ASSERT_TRUE(match.ok()) << match.status();
    EXPECT_EQ(match->state(), v1::Match::FINISHED);
    ASSERT_TRUE(match->has_result());
    EXPECT_EQ(match->game(), plan.game);
    EXPECT_TRUE(match->has_end_time());

    absl::StatusOr<v1::Record> record = GetRecord(stub(), run.name());
    ASSERT_TRUE(record.ok()) << record.status();
    EXPECT_EQ(record->name(), run.name() + "/record");
    EXPECT_EQ(record->game(), plan.game);
    absl::StatusOr<std::unique_ptr<State>> state = ReplayProto(*record);
    ASSERT_TRUE(state.ok()) << state.status();
    ASSERT_TRUE((*state)->IsTerminal());
    // Without clocks, every event is an action of the record.
    EXPECT_EQ(static_cast<int64_t>(FlattenActions(*record).size()), match->sequence());

    EXPECT_TRUE(ResultIsEngines(match->result(), **state)) << "Match.result";
    ASSERT_TRUE(record->has_result());
    EXPECT_TRUE(ResultIsEngines(record->result(), **state)) << "Record.result";
    EXPECT_EQ(Ints(record->result().winners()), Ints(match->result().winners()));
    std::vector<int> winners;
    for (int s = 0; s < match->result().ranks_size(); ++s) {
      if (match->result().ranks(s) == 1) winners.push_back(s);
    }
    EXPECT_EQ(Ints(match->result().winners()), winners);
    EXPECT_EQ(match->result().forfeited_seats_size(), 0);
    ASSERT_EQ(match->result().player_ids_size(), static_cast<int>(plan.seats.size()));
    for (size_t s = 0; s < plan.seats.size(); ++s) {
      EXPECT_EQ(match->result().player_ids(static_cast<int>(s)), plan.seats[s].player_id)
          << "seat " << s;
    }

    for (size_t p = 0; p < run.players.size(); ++p) {
      SCOPED_TRACE(absl::StrCat("seat ", run.seats[p]));
      EXPECT_TRUE(statuses[m][p].ok()) << statuses[m][p];
      const std::optional<v1::SeatView> view = run.players[p]->last_view();
      ASSERT_TRUE(view.has_value());
      EXPECT_TRUE(view->terminal());
      EXPECT_EQ(view->current_seat(), kNobody);
      EXPECT_EQ(view->legal_actions_size(), 0);
      EXPECT_EQ(view->seat(), run.seats[p]);
      EXPECT_EQ(view->sequence(), match->sequence());
      ASSERT_TRUE(view->has_result());
      EXPECT_TRUE(SameMessage(view->result(), match->result()))
          << "terminal view's result:\n" << Text(view->result()) << "Match.result:\n"
          << Text(match->result());
      EXPECT_TRUE(ResultIsEngines(view->result(), **state)) << "terminal view's result";
      const client::RemotePlayerStats stats = run.players[p]->stats();
      EXPECT_EQ(stats.error_rejections, 0);
      EXPECT_EQ(stats.reconnects, 0);
    }
  }

  // Every finished match exactly once, newest first, in pages of kListPageSize.
  std::vector<int> page_sizes;
  absl::StatusOr<std::vector<v1::Match>> listed =
      ListAllMatches(stub(), v1::Match::FINISHED, "", kListPageSize, &page_sizes);
  ASSERT_TRUE(listed.ok()) << listed.status();
  std::map<std::string, int> seen;
  for (const v1::Match& match : *listed) {
    ++seen[match.name()];
    EXPECT_EQ(match.state(), v1::Match::FINISHED) << match.name();
  }
  for (const MatchRun& run : runs) {
    EXPECT_EQ(seen[run.name()], 1) << run.name() << " listed " << seen[run.name()] << " times";
  }
  EXPECT_EQ(listed->size(), runs.size());
  EXPECT_EQ(seen.size(), runs.size());
  ASSERT_FALSE(page_sizes.empty());
  for (size_t i = 0; i + 1 < page_sizes.size(); ++i) {
    EXPECT_EQ(page_sizes[i], kListPageSize) << "page " << i;
  }
  EXPECT_GE(page_sizes.back(), 1);
  EXPECT_LE(page_sizes.back(), kListPageSize);
  for (size_t i = 1; i < listed->size(); ++i) {
    const auto& newer = (*listed)[i - 1].create_time();
    const auto& older = (*listed)[i].create_time();
    EXPECT_TRUE(newer.seconds() > older.seconds() ||
                (newer.seconds() == older.seconds() && newer.nanos() >= older.nanos()))
        << "not newest first at " << i;
  }
  // And per game.
  for (const std::string& game : games) {
    absl::StatusOr<std::vector<v1::Match>> of_game =
        ListAllMatches(stub(), v1::Match::FINISHED, game, kListPageSize);
    ASSERT_TRUE(of_game.ok()) << of_game.status();
    EXPECT_EQ(of_game->size(), static_cast<size_t>(kMatchesPerGame)) << game;
    for (const v1::Match& match : *of_game) EXPECT_EQ(match.game(), game);
  }
  // Nothing is still active.
  absl::StatusOr<std::vector<v1::Match>> active =
      ListAllMatches(stub(), v1::Match::ACTIVE, "", kListPageSize);
  ASSERT_TRUE(active.ok()) << active.status();
  EXPECT_TRUE(active->empty()) << active->size() << " matches are still ACTIVE";
}

}  // namespace
}  // namespace boneyard::e2e
