// Whole Swiss events played out with random results, for the pairing systems' property tests
// and benchmarks: each round is paired by the system under test and its results drawn from the
// entrants' ratings (with draws, and now and then a forfeit or a requested bye).
#ifndef BONEYARD_TESTS_SERVICES_MATCHMAKING_TOURNAMENT_SWISS_SIMULATION_H_
#define BONEYARD_TESTS_SERVICES_MATCHMAKING_TOURNAMENT_SWISS_SIMULATION_H_

#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "services/matchmaking/tournament/event_record.h"

namespace boneyard::tournament::testing {

using PairRound = std::function<absl::StatusOr<std::vector<Board>>(const EventRecord&, int)>;

struct SimulationOptions {
  int entrants = 16;
  int rounds = 7;
  unsigned seed = 1;
  double draw_rate = 0.2;
  double forfeit_rate = 0.0;   // of boards
  double half_bye_rate = 0.0;  // of entrants per round, requested in advance
};

inline EventRecord NewEvent(const SimulationOptions& o) {
  EventRecord event;
  event.total_rounds = o.rounds;
  std::mt19937 rng(o.seed);
  std::vector<int> ratings;
  for (int i = 0; i < o.entrants; ++i) ratings.push_back(1200 + static_cast<int>(rng() % 1400));
  std::sort(ratings.rbegin(), ratings.rend());
  for (int i = 0; i < o.entrants; ++i) {
    Entrant e;
    e.tpn = i + 1;
    e.name = absl::StrCat("P", i + 1);
    e.rating = ratings[i];
    e.rounds.resize(o.rounds);
    event.entrants.push_back(e);
  }
  return event;
}

// Enters `boards` as round r's results, drawn at random.
inline void PlayRound(EventRecord& event, int r, const std::vector<Board>& boards,
                      std::mt19937& rng, const SimulationOptions& o) {
  std::uniform_real_distribution<double> u(0, 1);
  for (const Board& b : boards) {
    Entrant& w = event.ByTpn(b.white);
    if (b.black == 0) {
      w.rounds[r - 1] = {0, Colour::kNone, RoundCode::kPairingBye};
      continue;
    }
    Entrant& k = event.ByTpn(b.black);
    RoundCode wc;
    RoundCode kc;
    if (u(rng) < o.forfeit_rate) {
      const bool white_shows = u(rng) < 0.5;
      wc = white_shows ? RoundCode::kForfeitWin : RoundCode::kForfeitLoss;
      kc = white_shows ? RoundCode::kForfeitLoss : RoundCode::kForfeitWin;
    } else {
      const double expected = 1 / (1 + std::pow(10.0, (k.rating - w.rating) / 400.0));
      const double x = u(rng);
      if (x < o.draw_rate) {
        wc = kc = RoundCode::kDraw;
      } else if (u(rng) < expected) {
        wc = RoundCode::kWin;
        kc = RoundCode::kLoss;
      } else {
        wc = RoundCode::kLoss;
        kc = RoundCode::kWin;
      }
    }
    w.rounds[r - 1] = {b.black, Colour::kWhite, wc};
    k.rounds[r - 1] = {b.white, Colour::kBlack, kc};
  }
}

// Plays `o.rounds` rounds paired by `pair`; stops at the first error and returns it.
inline absl::StatusOr<EventRecord> Simulate(const SimulationOptions& o, const PairRound& pair) {
  EventRecord event = NewEvent(o);
  std::mt19937 rng(o.seed * 7919 + 1);
  std::uniform_real_distribution<double> u(0, 1);
  for (int r = 1; r <= o.rounds; ++r) {
    for (Entrant& e : event.entrants) {
      if (r > 1 && u(rng) < o.half_bye_rate) {
        e.rounds[r - 1] = {0, Colour::kNone, RoundCode::kHalfBye};
      }
    }
    absl::StatusOr<std::vector<Board>> boards = pair(event, r);
    if (!boards.ok()) return boards.status();
    PlayRound(event, r, *boards, rng, o);
  }
  return event;
}

}  // namespace boneyard::tournament::testing

#endif  // BONEYARD_TESTS_SERVICES_MATCHMAKING_TOURNAMENT_SWISS_SIMULATION_H_
