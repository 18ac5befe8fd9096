#include "engine/games/forty_two/forty_two_solver_bot.h"

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <vector>

#include "engine/bots/worlds.h"
#include "engine/games/forty_two/forty_two.h"
#include "engine/games/forty_two/forty_two_bots.h"
#include "engine/games/tricks/trick_bots.h"

namespace boneyard::forty_two {

int SolverWorldsFor(int level) {
  switch (level) {
    case 4:
      return 24;
    case 5:
      return 64;
    default:
      return 0;
  }
}

SolverSearchBot::SolverSearchBot(uint64_t seed, SearchLevel level, int worlds, bool solve_auction)
    : search_(seed, level, SearchBiddingRule),
      rng_(seed ^ 0x9e3779b97f4a7c15ull),
      worlds_(worlds),
      solve_auction_(solve_auction) {}

namespace {

// The trumps a declarer may name in an ordinary hand under `options`, the most promising for
// `hand` first (so a search for one that makes stops early).
std::vector<int> TrumpsToTry(const Options& options, tricks::Hand hand) {
  std::vector<int> trumps;
  for (int pip = 0; pip < tricks::kPipSuits; ++pip) trumps.push_back(pip);
  std::stable_sort(trumps.begin(), trumps.end(), [hand](int a, int b) {
    return EstimatePoints(hand, a) > EstimatePoints(hand, b);
  });
  if (options.doubles_trump) trumps.push_back(tricks::kTrumpDoubles);
  if (options.follow_me) trumps.push_back(tricks::kNoTrump);
  return trumps;
}

bool IsPip(Action contract) {
  return contract >= kTrumpBase && contract < kTrumpBase + tricks::kPipSuits;
}

int TrumpOf(Action contract) {
  if (contract == kTrumpDoublesAction) return tricks::kTrumpDoubles;
  if (contract == kTrumpNoneAction) return tricks::kNoTrump;
  return static_cast<int>(contract - kTrumpBase);
}

bool Expired(int world, std::chrono::steady_clock::time_point deadline) {
  return world > 0 && std::chrono::steady_clock::now() >= deadline;
}

}  // namespace

Action SolverSearchBot::ChooseWithWorlds(const View& view, std::span<const Action> legal,
                                         const Worlds& worlds,
                                         std::chrono::steady_clock::time_point deadline) {
  last_worlds_ = 0;
  if (legal.size() == 1) return legal.front();
  const auto* v = dynamic_cast<const FortyTwoView*>(&view);
  std::optional<Action> chosen;
  if (v != nullptr && v->table == kFortyTwoTable) {
    switch (v->phase) {
      case FortyTwoView::Phase::kBidding:
        if (solve_auction_) chosen = Bid(*v, legal, worlds, deadline);
        break;
      case FortyTwoView::Phase::kDeclaring:
        if (solve_auction_) chosen = NameTrumps(*v, legal, worlds, deadline);
        break;
      case FortyTwoView::Phase::kPlaying:
        chosen = Play(*v, legal, worlds, deadline);
        break;
      case FortyTwoView::Phase::kOver:
        break;
    }
  }
  return chosen.has_value() ? *chosen : search_.ChooseWithWorlds(view, legal, worlds, deadline);
}

std::optional<Action> SolverSearchBot::Bid(const FortyTwoView& v, std::span<const Action> legal,
                                           const Worlds& worlds,
                                           std::chrono::steady_clock::time_point deadline) {
  // A higher bid scores nothing more (made: the points taken; marks: one), so the only
  // question is whether to bid the least there is: yes when most worlds make it with some
  // trump, and the shared rule allows it (SearchBiddingRule: never over a partner, never past
  // the hand's estimate and a tenth).
  const bool may_pass = std::find(legal.begin(), legal.end(), kPass) != legal.end();
  Action lowest = kPass;
  for (Action a : legal) {
    if (IsPointBid(a)) {
      lowest = a;
      break;
    }
  }
  if (lowest == kPass) return std::nullopt;  // only contracts' bids: the search's
  if (may_pass && !SearchBiddingRule(v, lowest)) return kPass;
  if (!may_pass) return lowest;
  const std::vector<int> trumps = TrumpsToTry(v.options, tricks::HandOf(v));
  const int bid = static_cast<int>(lowest - kBidBase);
  int makes = 0;
  for (int w = 0; w < worlds_ && !Expired(w, deadline); ++w) {
    const std::unique_ptr<State> world = worlds.Sample(rng_);
    const auto& state = static_cast<const FortyTwoState&>(*world);
    for (int trump : trumps) {
      if (Solver().BiddersMake(FirstLead(state, v.seat, trump, bid))) {
        ++makes;
        break;
      }
    }
    ++last_worlds_;
  }
  return 2 * makes >= last_worlds_ ? lowest : kPass;
}

std::optional<Action> SolverSearchBot::NameTrumps(const FortyTwoView& v,
                                                  std::span<const Action> legal,
                                                  const Worlds& worlds,
                                                  std::chrono::steady_clock::time_point deadline) {
  // Nello and sevens are the search's to judge: where they may be called it chooses.
  for (Action a : legal) {
    if (a == kNello || a == kSevens) return std::nullopt;
  }
  std::vector<int> makes(legal.size());
  for (int w = 0; w < worlds_ && !Expired(w, deadline); ++w) {
    const std::unique_ptr<State> world = worlds.Sample(rng_);
    const auto& state = static_cast<const FortyTwoState&>(*world);
    const int need = std::min(state.bid_points(), kHandPoints);
    for (size_t i = 0; i < legal.size(); ++i) {
      makes[i] += Solver().BiddersMake(FirstLead(state, v.declarer, TrumpOf(legal[i]), need));
    }
    ++last_worlds_;
  }
  // Equal counts (every world made, or none): the trump the hand reads strongest in.
  const tricks::Hand hand = tricks::HandOf(v);
  size_t best = 0;
  for (size_t i = 1; i < legal.size(); ++i) {
    const bool pips = IsPip(legal[i]) && IsPip(legal[best]);
    if (makes[i] > makes[best] ||
        (makes[i] == makes[best] && pips &&
         EstimatePoints(hand, TrumpOf(legal[i])) > EstimatePoints(hand, TrumpOf(legal[best])))) {
      best = i;
    }
  }
  return legal[best];
}

std::optional<Action> SolverSearchBot::Play(const FortyTwoView& v, std::span<const Action> legal,
                                            const Worlds& worlds,
                                            std::chrono::steady_clock::time_point deadline) {
  std::array<int, kHandSize> tiles{};
  std::array<int, kHandSize> values{};
  std::array<double, kHandSize> total{};
  const size_t n = std::min(legal.size(), tiles.size());
  for (size_t i = 0; i < n; ++i) tiles[i] = static_cast<int>(legal[i]);
  for (int w = 0; w < worlds_ && !Expired(w, deadline); ++w) {
    const std::unique_ptr<State> world = worlds.Sample(rng_);
    const std::optional<OpenHand> hand = OpenHandOf(static_cast<const FortyTwoState&>(*world));
    if (!hand.has_value()) return std::nullopt;  // nello and sevens: the search's
    Solver().SolveEach(*hand, std::span(tiles.data(), n), std::span(values.data(), n));
    const int team = hand->bidding_team;
    const double sign = v.seat % 2 == team ? 1.0 : -1.0;
    for (size_t i = 0; i < n; ++i) {
      const int taken = hand->taken[team] + values[i];
      total[i] += sign * ((taken >= hand->bid ? 1.0 : 0.0) + taken / 420.0);
    }
    ++last_worlds_;
  }
  size_t best = 0;
  for (size_t i = 1; i < n; ++i) {
    if (total[i] > total[best]) best = i;
  }
  return legal[best];
}

PlaySolver& SolverSearchBot::Solver() {
  // One solver a thread, not a bot: its table is 0.8 MB and a host keeps a bot per seat of
  // every match it runs, but thinks on a few threads.
  thread_local PlaySolver solver;
  return solver;
}

}  // namespace boneyard::forty_two
