// Tournaments held in memory for the tests of the service's decisions (tournament_plan.h,
// tournament_import.h): the facts of tournament_facts.h, and games finished with chosen
// results.
#ifndef BONEYARD_TESTS_SERVICES_MATCHMAKING_TOURNAMENT_EVENTS_H_
#define BONEYARD_TESTS_SERVICES_MATCHMAKING_TOURNAMENT_EVENTS_H_

#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "services/matchmaking/tournament_plan.h"
#include "tests/services/matchmaking/tournament_facts.h"

namespace boneyard::matchmaking {

// A finished match in which the side in seat `winner_seat` ranked first (-1: a draw).
inline std::string Result(int seats, int winner_seat, std::vector<int> forfeited = {}) {
  v1::MatchResult r;
  for (int s = 0; s < seats; ++s) {
    r.add_scores(0);
    r.add_ranks(winner_seat < 0 ? 1 : (s % 2 == winner_seat % 2 ? 1 : 2));
  }
  for (int s : forfeited) r.add_forfeited_seats(s);
  return r.SerializeAsString();
}

// Finishes every unfinished game: the lower pairing number wins, unless `draws`.
inline void PlayAll(TournamentData& d, bool draws = false) {
  std::map<int, int> pn;
  for (const EntrantRow& e : d.entrants) pn[e.number] = e.pairing_number;
  for (GameRow& g : d.games) {
    if (!g.result.empty()) continue;
    for (const PairingRow& p : d.pairings) {
      if (p.round != g.round || p.board != g.board) continue;
      const bool white_better = pn[p.white] < pn[p.black];
      // White sits in seat 0 when white_first.
      const int seat = white_better == g.white_first ? 0 : 1;
      g.result = Result(2, draws ? -1 : seat);
    }
  }
}

// An event of `entrants` players (tournament_facts.h) started at `now`; a duplicate event's
// deals from `deal_secret`.
inline TournamentData StartedEvent(const v1::Tournament& settings, int entrants,
                                   absl::Time now = kNow, const std::string& deal_secret = "") {
  TournamentData d = Event(settings, entrants, /*players=*/true);
  d.tournament.deal_secret = deal_secret;
  absl::StatusOr<TournamentChanges> start = PlanStart(d, now);
  EXPECT_TRUE(start.ok()) << start.status();
  if (start.ok()) Apply(d, *start);
  return d;
}

// The director's step at `now`, applied; the changes it made (none when it failed).
inline TournamentChanges StepAt(TournamentData& d, absl::Time now) {
  absl::StatusOr<TournamentChanges> c = PlanStep(d, now);
  EXPECT_TRUE(c.ok()) << c.status();
  if (!c.ok()) return {};
  Apply(d, *c);
  return *c;
}

inline void Step(TournamentData& d) {
  absl::StatusOr<TournamentChanges> c = PlanStep(d, kNow);
  ASSERT_TRUE(c.ok()) << c.status();
  Apply(d, *c);
}

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_TESTS_SERVICES_MATCHMAKING_TOURNAMENT_EVENTS_H_
