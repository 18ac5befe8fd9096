// "search": information-set Monte Carlo tree search (single-observer ISMCTS, after Cowling,
// Powley and Whitehouse 2012), the same for every game. The bot sees its seat's view and
// legal actions, and worlds sampled by State::Determinize (engine/bots/worlds.h); it never
// sees the live state.
//
// One tree over the seat's information set: each iteration draws a world, walks down the tree
// choosing among the actions legal in that world by UCB1 with availability counts (an action
// is a candidate only in the worlds where it is legal), adds one node, plays the rest of the
// round out at random, and credits each node to the seat that chose it. The search never looks
// past the end of the round it is in — a world keeps the match's seed, hence the later rounds'
// real shuffles — so a playout is scored when the round changes or the match ends: each seat's
// gain in match score since the root (negated where lower scores win; a team's score is on
// each member), less the mean gain of the seats not on its team. Rewards are scaled to [0, 1]
// by the lowest and highest margins the search has seen.
//
// Levels trade strength for time: a budget of iterations and of milliseconds (whichever ends
// first; the iterations normally do, which keeps the bot deterministic for its seed), and at
// level 1 the move is drawn in proportion to the root's visit counts rather than taken as the
// most visited.
#ifndef BONEYARD_ENGINE_BOTS_SEARCH_BOT_H_
#define BONEYARD_ENGINE_BOTS_SEARCH_BOT_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "engine/bots/bot.h"
#include "engine/core/rng.h"

namespace boneyard {

struct SearchLevel {
  int iterations = 0;
  std::chrono::milliseconds think{0};
  bool proportional = false;  // draw the move by visit counts instead of the most visited
};

inline constexpr int kSearchLevels = 5;
inline constexpr int kDefaultSearchLevel = 3;

// Level 1..kSearchLevels; 0 is kDefaultSearchLevel.
SearchLevel SearchLevelFor(int level);

// The shared level (its time cap; level 1 drawn by visits) with a game's own iterations, for
// the games whose uniform playouts stop gaining well below the shared budgets: spread under
// that point, the levels stay apart (Muggins, the train games, Castle Rock, Eighty-Four;
// docs/bots.md).
SearchLevel SearchLevelWithIterations(int level, std::span<const int, kSearchLevels> iterations);

// What the last search did, for benchmarks and tests.
struct SearchStats {
  int iterations = 0;
  int nodes = 0;
  bool stopped_by_deadline = false;
};

// A game's rule for the searching seat's own choices, applied before the search: whether
// `action` may be chosen now. Where it allows nothing, every legal action stays. (Forty-Two's
// and Eighty-Four's: never outbid your own partner, forty_two_bots.h.)
using RootRule = std::function<bool(const View& view, Action action)>;

// A game's choice for the playouts in place of a uniform one (Muggins': score where it can,
// muggins_bots.h). It runs on sampled worlds only, so it may read the world's whole state.
using PlayoutPolicy =
    std::function<Action(const State& world, std::span<const Action> legal, Rng& rng)>;

// Registers the shared search as `game`'s "search" at the game's own iterations per level
// (SearchLevelWithIterations), level 5's playouts by `top_playout` when one is given.
// `iterations` must outlive the registry (a static table).
void RegisterSearchLevels(BotRegistry& registry, const std::string& game,
                          std::span<const int, kSearchLevels> iterations,
                          PlayoutPolicy top_playout = nullptr);

class SearchBot : public Bot {
 public:
  SearchBot(uint64_t seed, SearchLevel level, RootRule rule = nullptr,
            PlayoutPolicy playout = nullptr)
      : rng_(seed), level_(level), rule_(std::move(rule)), playout_(std::move(playout)) {}

  // Without worlds there is nothing to search: the first legal action (hosts that know the
  // bot searches call ChooseWithWorlds).
  Action ChooseAction(const View& view, std::span<const Action> legal) override;
  bool SearchesWorlds() const override { return true; }
  Action ChooseWithWorlds(const View& view, std::span<const Action> legal, const Worlds& worlds,
                          std::chrono::steady_clock::time_point deadline) override;

  const SearchStats& last_search() const { return stats_; }

 private:
  struct Node {
    Action action = 0;
    int mover = 0;  // the seat that chose `action`
    int parent = -1;
    int first_child = -1;
    int next_sibling = -1;
    int visits = 0;
    int available = 0;  // iterations in which this node's action was legal at its parent
    double total = 0;   // the mover's summed margins
  };

  int AddChild(int parent, Action action, int mover);
  // Writes the actions of `legal` that have no child of `parent` yet; returns how many.
  int Untried(int parent, std::span<const Action> legal, Action* out) const;
  int Select(int parent, std::span<const Action> legal);
  // Plays `world` out to the end of `round` (or the match) at random, or by the game's
  // playout policy; the margins per seat.
  void Playout(State& world, int round, std::span<const int> start_scores,
               std::vector<double>& margins);

  Rng rng_;
  SearchLevel level_;
  RootRule rule_;
  PlayoutPolicy playout_;
  std::vector<Node> nodes_;
  double low_ = 0, high_ = 0;  // the margins seen, for scaling
  SearchStats stats_;
};

}  // namespace boneyard

#endif  // BONEYARD_ENGINE_BOTS_SEARCH_BOT_H_
