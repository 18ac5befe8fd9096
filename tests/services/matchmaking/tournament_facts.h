// An event's facts held in memory, for the tests and benchmarks of the tournament service's
// decisions (tournament_plan.h): settings, an event in registration, and the changes the logic
// decides applied to the facts as the store applies them. No test framework: the benchmarks use
// it too (tournament_events.h adds the tests' helpers).
#ifndef BONEYARD_TESTS_SERVICES_MATCHMAKING_TOURNAMENT_FACTS_H_
#define BONEYARD_TESTS_SERVICES_MATCHMAKING_TOURNAMENT_FACTS_H_

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "services/matchmaking/tournament_plan.h"

namespace boneyard::matchmaking {

inline const absl::Time kNow = absl::FromUnixSeconds(1'800'000'000);

inline v1::Tournament Settings(v1::Tournament::Format format, const std::string& game = "muggins") {
  v1::Tournament t;
  t.set_display_name("Club night");
  t.set_game(game);
  t.set_format(format);
  if (format == v1::Tournament::SWISS) t.set_rounds(3);
  return t;
}

// The store's Write, in memory.
inline void Apply(TournamentData& d, const TournamentChanges& c) {
  for (int n : c.removed_entrants) {
    std::erase_if(d.entrants, [&](const EntrantRow& e) { return e.number == n; });
  }
  for (EntrantRow& e : d.entrants) {
    if (auto it = c.pairing_numbers.find(e.number); it != c.pairing_numbers.end()) {
      e.pairing_number = it->second;
    }
    if (auto it = c.first_rounds.find(e.number); it != c.first_rounds.end()) {
      e.first_round = it->second;
    }
    if (auto it = c.withdrawals.find(e.number); it != c.withdrawals.end()) {
      e.withdrawn_round = it->second;
    }
  }
  for (const RoundRow& r : c.new_rounds) d.rounds.push_back(r);
  for (const PairingRow& p : c.new_pairings) d.pairings.push_back(p);
  for (const auto& [key, outcome] : c.overrides) {
    for (PairingRow& p : d.pairings) {
      if (p.round == key.first && p.board == key.second) p.override_outcome = outcome;
    }
  }
  for (const GameRow& g : c.new_games) d.games.push_back(g);
  TournamentRow& t = d.tournament;
  if (c.state) t.state = *c.state;
  if (c.current_round) t.current_round = *c.current_round;
  if (c.rounds) t.rounds = *c.rounds;
  if (c.start_time) t.start_time = *c.start_time;
  if (c.end_time) t.end_time = *c.end_time;
}

// An event in registration with `n` entrants: bots, or players "p1".."pn"; ratings descending
// from entrant n (so pairing numbers run opposite to registration).
inline TournamentData Event(const v1::Tournament& settings, int n, bool players = false) {
  TournamentData d;
  d.tournament.tournament_id = "t1";
  d.tournament.game = settings.game();
  d.tournament.settings = NormalizedSettings(settings).SerializeAsString();
  d.tournament.state = kTournamentRegistration;
  for (int i = 1; i <= n; ++i) {
    EntrantRow e;
    e.number = i;
    e.display_name = absl::StrCat("E", i);
    e.rating = 1000 + 10 * i;
    if (players) {
      e.players = {absl::StrCat("p", i)};
    } else {
      v1::Bot bot;
      bot.set_kind("random");
      e.bot = bot.SerializeAsString();
    }
    d.entrants.push_back(e);
  }
  return d;
}

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_TESTS_SERVICES_MATCHMAKING_TOURNAMENT_FACTS_H_
