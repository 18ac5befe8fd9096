// Matchmaking passes (services/matchmaking/matching/pass.h): explicit queues for each format,
// then properties over large random queues.
#include "services/matchmaking/matching/pass.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace boneyard::matchmaking {
namespace {

using ::testing::ElementsAre;

const absl::Time kStart = absl::FromUnixSeconds(1'800'000'000);

Ticket Player(const std::string& id, double mu, absl::Duration waited = absl::ZeroDuration(),
              double sigma = 2) {
  return {.id = id,
          .members = {{.player_id = id, .rating = {.mu = mu, .sigma = sigma}}},
          .enqueued = kStart - waited};
}

Ticket Party(const std::string& id, std::vector<double> mus,
             absl::Duration waited = absl::ZeroDuration()) {
  Ticket ticket{.id = id, .members = {}, .enqueued = kStart - waited};
  for (size_t i = 0; i < mus.size(); ++i) {
    ticket.members.push_back(
        {.player_id = absl::StrCat(id, "-", i), .rating = {.mu = mus[i], .sigma = 2}});
  }
  return ticket;
}

QueueRules HeadToHead() { return QueueRules{}; }

QueueRules Teams(int teams, int size) {
  QueueRules rules;
  rules.format = {.kind = FormatKind::kTeams, .teams = teams, .team_size = size};
  return rules;
}

QueueRules FreeForAll(int min_players, int max_players) {
  QueueRules rules;
  rules.format = {.kind = FormatKind::kFreeForAll,
                  .min_players = min_players,
                  .max_players = max_players,
                  .short_table_after = absl::Seconds(30)};
  return rules;
}

std::vector<std::string> Ids(const std::vector<Ticket>& tickets, const FormedMatch& match) {
  std::vector<std::string> ids;
  for (int t : match.tickets) ids.push_back(tickets[t].id);
  return ids;
}

// ----- Head-to-head ---------------------------------------------------------------------------

TEST(HeadToHead, PairsRatingNeighbours) {
  const std::vector<Ticket> tickets = {Player("a", 31), Player("b", 10), Player("c", 30),
                                       Player("d", 11)};
  std::vector<FormedMatch> matches = RunPass(HeadToHead(), tickets, kStart);
  ASSERT_EQ(matches.size(), 2u);
  EXPECT_THAT(Ids(tickets, matches[0]), ElementsAre("b", "d"));
  EXPECT_THAT(Ids(tickets, matches[1]), ElementsAre("a", "c"));
  for (const FormedMatch& match : matches) {
    ASSERT_EQ(match.sides.size(), 2u);
    EXPECT_EQ(match.bots(), 0);
    EXPECT_NEAR(match.win_chance[0] + match.win_chance[1], 1.0, 1e-12);
  }
}

TEST(HeadToHead, TheWindowWidensWithWaiting) {
  // 10 apart: beyond the initial window of 3; after 40 s both windows are 3 + 0.25 * 40 = 13.
  std::vector<Ticket> tickets = {Player("a", 10), Player("b", 20)};
  EXPECT_TRUE(RunPass(HeadToHead(), tickets, kStart).empty());
  tickets = {Player("a", 10, absl::Seconds(40)), Player("b", 20, absl::Seconds(40))};
  EXPECT_EQ(RunPass(HeadToHead(), tickets, kStart).size(), 1u);
  // One who waited long does not pull in a newcomer beyond the newcomer's own window.
  tickets = {Player("a", 10, absl::Minutes(10)), Player("b", 20)};
  EXPECT_TRUE(RunPass(HeadToHead(), tickets, kStart).empty());
}

TEST(HeadToHead, ABotPlaysWhoWaitedTooLongAlone) {
  QueueRules rules = HeadToHead();
  rules.bot_fill = {.enabled = true, .after = absl::Seconds(60)};
  const std::vector<Ticket> tickets = {Player("a", 10, absl::Seconds(61)),
                                       Player("b", 40, absl::Seconds(5))};
  std::vector<FormedMatch> matches = RunPass(rules, tickets, kStart);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_THAT(Ids(tickets, matches[0]), ElementsAre("a"));
  EXPECT_EQ(matches[0].bots(), 1);
  EXPECT_TRUE(matches[0].sides[1][0].bot());
  EXPECT_DOUBLE_EQ(matches[0].win_chance[0], 0.5);  // the bot is rated as the player it meets
}

// ----- Teams ----------------------------------------------------------------------------------

TEST(Teams, FormsEvenPartnershipsFromNearbyPlayers) {
  const std::vector<Ticket> tickets = {Player("a", 28), Player("b", 22), Player("c", 25),
                                       Player("d", 26), Player("far", 60)};
  std::vector<FormedMatch> matches = RunPass(Teams(2, 2), tickets, kStart);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_THAT(Ids(tickets, matches[0]), ElementsAre("a", "b", "c", "d"));
  ASSERT_EQ(matches[0].sides.size(), 2u);
  // a (28) with b (22) against c (25) and d (26): 50 to 51 in skill, the closest to even.
  std::vector<std::string> first;
  for (const SeatFill& seat : matches[0].sides[0]) first.push_back(tickets[seat.ticket].id);
  std::sort(first.begin(), first.end());
  EXPECT_TRUE(first == (std::vector<std::string>{"a", "b"}) ||
              first == (std::vector<std::string>{"c", "d"}));
  // 50 against 51: the chance the model gives that split, from either side.
  auto rated = [](double mu) { return ratings::SkillRating{.mu = mu, .sigma = 2}; };
  const double ab = (*ratings::PredictWin(QueueRules().model,
                                          std::vector<std::vector<ratings::SkillRating>>{
                                              {rated(28), rated(22)}, {rated(25), rated(26)}}))[0];
  EXPECT_NEAR(std::min(matches[0].win_chance[0], matches[0].win_chance[1]), ab, 1e-12);
}

TEST(Teams, APartyIsAPartnership) {
  const std::vector<Ticket> tickets = {Party("duo", {25, 25}), Player("x", 24), Player("y", 26)};
  std::vector<FormedMatch> matches = RunPass(Teams(2, 2), tickets, kStart);
  ASSERT_EQ(matches.size(), 1u);
  for (const std::vector<SeatFill>& side : matches[0].sides) {
    ASSERT_EQ(side.size(), 2u);
    EXPECT_EQ(side[0].ticket == 0, side[1].ticket == 0) << "the party is split";
  }
}

TEST(Teams, RecentPartnersAreSeatedApartWhenTheQueueAllows) {
  std::vector<Ticket> tickets = {Player("ann", 25), Player("bob", 25), Player("cat", 25),
                                 Player("dan", 25)};
  tickets[0].members[0].recent_partners = {"bob", "cat"};
  std::vector<FormedMatch> matches = RunPass(Teams(2, 2), tickets, kStart);
  ASSERT_EQ(matches.size(), 1u);
  for (const std::vector<SeatFill>& side : matches[0].sides) {
    std::vector<std::string> ids;
    for (const SeatFill& seat : side) ids.push_back(tickets[seat.ticket].id);
    std::sort(ids.begin(), ids.end());
    EXPECT_TRUE(ids == (std::vector<std::string>{"ann", "dan"}) ||
                ids == (std::vector<std::string>{"bob", "cat"}))
        << ids[0] << " with " << ids[1];
  }
}

TEST(Teams, APartyTooLargeForATeamIsNeverMatched) {
  std::vector<Ticket> tickets = {Party("trio", {25, 25, 25}), Player("x", 25)};
  EXPECT_TRUE(RunPass(Teams(2, 2), tickets, kStart).empty());
}

TEST(Teams, BotsFillTheEmptySeatsAfterTheWait) {
  QueueRules rules = Teams(2, 2);
  rules.bot_fill = {.enabled = true, .after = absl::Seconds(60)};
  std::vector<Ticket> tickets = {Player("a", 25, absl::Seconds(20)), Player("b", 27)};
  EXPECT_TRUE(RunPass(rules, tickets, kStart).empty());
  tickets[0].enqueued = kStart - absl::Seconds(61);
  std::vector<FormedMatch> matches = RunPass(rules, tickets, kStart);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(matches[0].bots(), 2);
  EXPECT_EQ(matches[0].tickets.size(), 2u);
  EXPECT_NEAR(matches[0].win_chance[0], 0.5, 0.1);
}

// ----- Free-for-all ---------------------------------------------------------------------------

TEST(FreeForAll, AFullTableFormsAtOnceAShortOneAfterItsWait) {
  std::vector<Ticket> tickets = {Player("a", 25), Player("b", 26), Player("c", 24)};
  EXPECT_TRUE(RunPass(FreeForAll(2, 4), tickets, kStart).empty());  // 3 of 4, just arrived
  tickets.push_back(Player("d", 25));
  std::vector<FormedMatch> matches = RunPass(FreeForAll(2, 4), tickets, kStart);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(matches[0].sides.size(), 4u);

  tickets = {Player("a", 25, absl::Seconds(31)), Player("b", 26), Player("c", 24)};
  matches = RunPass(FreeForAll(2, 4), tickets, kStart);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(matches[0].sides.size(), 3u);
  double total = 0;
  for (double chance : matches[0].win_chance) total += chance;
  EXPECT_NEAR(total, 1.0, 1e-12);
}

TEST(FreeForAll, NeverBelowTheMinimumWithoutBots) {
  QueueRules rules = FreeForAll(3, 8);
  std::vector<Ticket> tickets = {Player("a", 25, absl::Hours(1)), Player("b", 25, absl::Hours(1))};
  EXPECT_TRUE(RunPass(rules, tickets, kStart).empty());
  rules.bot_fill = {.enabled = true, .after = absl::Seconds(60)};
  std::vector<FormedMatch> matches = RunPass(rules, tickets, kStart);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(matches[0].sides.size(), 3u);  // bots up to the minimum, not to a full table
  EXPECT_EQ(matches[0].bots(), 1);
}

// A table of one (Castle Rock): every ticket is seated alone, at once, whatever the ratings.
TEST(FreeForAll, ASolitaireTableSeatsEachTicketAloneAtOnce) {
  const QueueRules rules = FreeForAll(1, 1);
  ASSERT_TRUE(ValidateRules(rules).ok()) << ValidateRules(rules);
  const std::vector<Ticket> tickets = {Player("a", 25), Player("b", 40), Player("c", 10)};
  const std::vector<FormedMatch> matches = RunPass(rules, tickets, kStart);
  ASSERT_EQ(matches.size(), 3u);
  for (const FormedMatch& m : matches) {
    EXPECT_EQ(m.tickets.size(), 1u);
    EXPECT_EQ(m.sides.size(), 1u);
    EXPECT_EQ(m.bots(), 0);
  }
  QueueRules none = FreeForAll(0, 1);
  EXPECT_EQ(ValidateRules(none).code(), absl::StatusCode::kInvalidArgument);
}

// ----- Properties over large random queues ----------------------------------------------------

double Window(const QueueRules& rules, const Ticket& ticket, absl::Time now) {
  return rules.widening.At(now - ticket.enqueued);
}

// Every ticket is seated at most once; every match has the format's seats (or a short table's,
// with bots as the rules allow); every pairing respects both windows; parties stay whole.
void CheckPass(const QueueRules& rules, const std::vector<Ticket>& tickets, absl::Time now) {
  const std::vector<FormedMatch> matches = RunPass(rules, tickets, now);
  std::vector<int> seated(tickets.size(), 0);
  for (const FormedMatch& match : matches) {
    int seats = 0;
    std::map<int, int> members_of;
    for (size_t s = 0; s < match.sides.size(); ++s) {
      for (const SeatFill& seat : match.sides[s]) {
        ++seats;
        if (!seat.bot()) members_of[seat.ticket] += 1;
      }
    }
    for (int t : match.tickets) {
      ASSERT_EQ(members_of[t], tickets[t].size()) << "ticket " << t << " seated whole";
      ++seated[t];
    }
    if (rules.format.kind == FormatKind::kTeams) {
      ASSERT_EQ(seats, rules.format.seats());
      for (const std::vector<SeatFill>& side : match.sides) {
        ASSERT_EQ(static_cast<int>(side.size()), rules.format.team_size);
        for (const SeatFill& seat : side) {
          if (seat.bot()) continue;
          for (const std::vector<SeatFill>& other : match.sides) {
            if (&other == &side) continue;
            for (const SeatFill& o : other) ASSERT_NE(o.ticket, seat.ticket) << "party split";
          }
        }
      }
    } else {
      ASSERT_GE(seats, rules.format.kind == FormatKind::kHeadToHead ? 2 : rules.format.min_players);
      ASSERT_LE(seats, rules.format.seats());
    }
    // Some ticket of the match (the one it was formed around) has every other within both
    // windows.
    bool anchored = false;
    for (int anchor : match.tickets) {
      bool all = true;
      for (int t : match.tickets) {
        const double gap = std::abs(tickets[t].Skill() - tickets[anchor].Skill());
        all = all && gap <= std::min(Window(rules, tickets[t], now),
                                     Window(rules, tickets[anchor], now)) + 1e-9;
      }
      anchored = anchored || all;
    }
    ASSERT_TRUE(anchored) << "a match beyond its windows";
  }
  for (size_t t = 0; t < tickets.size(); ++t) ASSERT_LE(seated[t], 1) << "ticket " << t;
}

std::vector<Ticket> RandomQueue(std::mt19937& random, int n, int max_party) {
  std::normal_distribution<double> skill(25, 6);
  std::uniform_int_distribution<int> wait_seconds(0, 120);
  std::uniform_int_distribution<int> party(1, max_party);
  std::uniform_int_distribution<int> solo_or_party(0, 9);
  std::vector<Ticket> tickets;
  for (int i = 0; i < n; ++i) {
    const int size = solo_or_party(random) == 0 ? party(random) : 1;
    std::vector<double> mus;
    for (int m = 0; m < size; ++m) mus.push_back(skill(random));
    tickets.push_back(Party(absl::StrCat("t", i), mus, absl::Seconds(wait_seconds(random))));
  }
  return tickets;
}

TEST(PassProperties, HoldOnLargeRandomQueuesOfEveryFormat) {
  std::mt19937 random(2026);
  std::vector<QueueRules> all = {HeadToHead(), Teams(2, 2), Teams(2, 3), Teams(2, 4),
                                 FreeForAll(2, 8), FreeForAll(3, 4)};
  for (QueueRules rules : all) {
    for (bool bots : {false, true}) {
      rules.bot_fill = {.enabled = bots, .after = absl::Seconds(90)};
      const std::vector<Ticket> tickets = RandomQueue(random, 3000, rules.format.max_party());
      CheckPass(rules, tickets, kStart);
    }
  }
}

TEST(PassProperties, TeamMatchesAreCloseToEvenInAFullQueue) {
  std::mt19937 random(99);
  for (QueueRules rules : {Teams(2, 2), Teams(2, 4)}) {
    const std::vector<Ticket> tickets = RandomQueue(random, 2000, 1);
    const std::vector<FormedMatch> matches = RunPass(rules, tickets, kStart);
    ASSERT_FALSE(matches.empty());
    int even = 0;
    for (const FormedMatch& match : matches) {
      even += match.win_chance[0] >= 0.45 && match.win_chance[0] <= 0.55;
    }
    // The target: at least 95 % within [0.45, 0.55] when 100 or more tickets wait.
    EXPECT_GE(even, 0.95 * matches.size()) << even << " of " << matches.size();
  }
}

TEST(PassProperties, TheSameQueueGivesTheSameMatches) {
  std::mt19937 random(5);
  const std::vector<Ticket> tickets = RandomQueue(random, 500, 2);
  const std::vector<FormedMatch> first = RunPass(Teams(2, 2), tickets, kStart);
  const std::vector<FormedMatch> second = RunPass(Teams(2, 2), tickets, kStart);
  ASSERT_EQ(first.size(), second.size());
  for (size_t i = 0; i < first.size(); ++i) EXPECT_EQ(first[i].tickets, second[i].tickets);
}

}  // namespace
}  // namespace boneyard::matchmaking
