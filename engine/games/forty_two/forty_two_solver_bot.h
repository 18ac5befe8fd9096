// Levels 4 and 5 of Forty-Two's "search" bot: a perfect-information Monte Carlo player. Each
// decision samples worlds (State::Determinize — never the live state) and solves them with
// every hand open (PlaySolver, forty_two_solver.h). Level 5 does so everywhere below; level 4
// only in play, bidding and naming trumps as the shared search does (that split is what makes
// 5 beat 4: 24 or 64 worlds alone were one strength, docs/bots.md):
//   * bidding: the least bid there is, when most worlds make it with some trump led by this
//     seat and SearchBiddingRule allows it (never over a partner, never past the hand's
//     estimate and a tenth), else pass (a higher bid scores nothing more);
//   * naming trumps: the trump that makes the bid in the most worlds (ties: the hand's
//     strongest suit by EstimatePoints);
//   * play: each legal tile's worlds solved, scored for the bidders as making the bid first,
//     then the points taken (1 for made plus taken / 420, so no number of points outweighs
//     making it), negated for the defenders; the best average played.
// Marks bids, plunge, splash, nello and sevens, and other tables (Eighty-Four), are left to the
// shared search bot (search_bot.h) with the table's bidding rule.
//
// The worlds are the level's (SolverWorldsFor), or as many as the deadline allows, at least
// one: a first lead with seven tiles to try costs ~8 ms a world on one core, a bid or a trump
// ~0.6 ms a trump tried.
#ifndef BONEYARD_ENGINE_GAMES_FORTY_TWO_FORTY_TWO_SOLVER_BOT_H_
#define BONEYARD_ENGINE_GAMES_FORTY_TWO_FORTY_TWO_SOLVER_BOT_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>

#include "engine/bots/bot.h"
#include "engine/bots/search_bot.h"
#include "engine/core/rng.h"
#include "engine/games/forty_two/forty_two.h"
#include "engine/games/forty_two/forty_two_solver.h"

namespace boneyard::forty_two {

// The worlds a level solves per decision in play (0: this level does not use the solver).
int SolverWorldsFor(int level);

class SolverSearchBot : public Bot {
 public:
  // `solve_auction`: bid and name trumps by solved worlds too (else the search bot does).
  SolverSearchBot(uint64_t seed, SearchLevel level, int worlds, bool solve_auction = true);

  Action ChooseAction(const View& view, std::span<const Action> legal) override {
    return search_.ChooseAction(view, legal);
  }
  bool SearchesWorlds() const override { return true; }
  Action ChooseWithWorlds(const View& view, std::span<const Action> legal, const Worlds& worlds,
                          std::chrono::steady_clock::time_point deadline) override;

  // Worlds sampled for the last decision (0 when the search bot chose).
  int last_worlds() const { return last_worlds_; }

 private:
  // Each phase's choice, or nothing where the search bot chooses instead.
  std::optional<Action> Bid(const FortyTwoView& v, std::span<const Action> legal,
                            const Worlds& worlds, std::chrono::steady_clock::time_point deadline);
  std::optional<Action> NameTrumps(const FortyTwoView& v, std::span<const Action> legal,
                                   const Worlds& worlds,
                                   std::chrono::steady_clock::time_point deadline);
  std::optional<Action> Play(const FortyTwoView& v, std::span<const Action> legal,
                             const Worlds& worlds, std::chrono::steady_clock::time_point deadline);
  static PlaySolver& Solver();

  SearchBot search_;
  Rng rng_;
  int worlds_;
  bool solve_auction_;
  int last_worlds_ = 0;
};

}  // namespace boneyard::forty_two

#endif  // BONEYARD_ENGINE_GAMES_FORTY_TWO_FORTY_TWO_SOLVER_BOT_H_
