#include "engine/bots/search_bot.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "engine/core/action.h"
#include "engine/core/game.h"

namespace boneyard {
namespace {

// UCB1's exploration constant, for rewards in [0, 1].
constexpr double kExploration = 0.7;
// A playout longer than this is scored where it stands (no round of any game comes close).
constexpr int kMaxPlayoutActions = 4'000;

}  // namespace

SearchLevel SearchLevelFor(int level) {
  using std::chrono::milliseconds;
  switch (level == 0 ? kDefaultSearchLevel : level) {
    case 1:
      return {50, milliseconds(20), true};
    case 2:
      return {300, milliseconds(50), false};
    case 3:
      return {1'500, milliseconds(100), false};
    case 4:
      return {6'000, milliseconds(200), false};
    default:
      return {20'000, milliseconds(400), false};
  }
}

SearchLevel SearchLevelWithIterations(int level, std::span<const int, kSearchLevels> iterations) {
  SearchLevel shared = SearchLevelFor(level);
  shared.iterations = iterations[(level == 0 ? kDefaultSearchLevel : level) - 1];
  return shared;
}

void RegisterSearchLevels(BotRegistry& registry, const std::string& game,
                          std::span<const int, kSearchLevels> iterations,
                          PlayoutPolicy top_playout) {
  registry.Register(
      game, "search",
      [iterations, top_playout](const Game&, uint64_t seed, int level) {
        return std::make_unique<SearchBot>(seed, SearchLevelWithIterations(level, iterations),
                                           nullptr, level == kSearchLevels ? top_playout : nullptr);
      },
      kSearchLevels);
}

Action SearchBot::ChooseAction(const View&, std::span<const Action> legal) { return legal.front(); }

int SearchBot::AddChild(int parent, Action action, int mover) {
  Node child;
  child.action = action;
  child.mover = mover;
  child.parent = parent;
  child.next_sibling = nodes_[parent].first_child;
  nodes_.push_back(child);
  const int index = static_cast<int>(nodes_.size()) - 1;
  nodes_[parent].first_child = index;
  return index;
}

int SearchBot::Untried(int parent, std::span<const Action> legal, Action* out) const {
  int count = 0;
  for (Action a : legal) {
    bool has = false;
    for (int c = nodes_[parent].first_child; c >= 0 && !has; c = nodes_[c].next_sibling) {
      has = nodes_[c].action == a;
    }
    if (!has) out[count++] = a;
  }
  return count;
}

// Among the children legal in this world (all of them have one: Untried found none), the one
// with the best upper bound. Every legal child counts as available this iteration.
int SearchBot::Select(int parent, std::span<const Action> legal) {
  const double span = high_ - low_;
  int best = -1;
  double best_value = -std::numeric_limits<double>::infinity();
  for (int c = nodes_[parent].first_child; c >= 0; c = nodes_[c].next_sibling) {
    Node& child = nodes_[c];
    if (std::find(legal.begin(), legal.end(), child.action) == legal.end()) continue;
    ++child.available;
    const double mean = child.total / child.visits;
    const double scaled = span > 0 ? (mean - low_) / span : 0.5;
    const double value =
        scaled +
        kExploration * std::sqrt(std::log(static_cast<double>(child.available)) / child.visits);
    if (value > best_value) best_value = value, best = c;
  }
  return best;
}

void SearchBot::Playout(State& world, int round, std::span<const int> start_scores,
                        std::vector<double>& margins) {
  ActionList legal;
  for (int i = 0; i < kMaxPlayoutActions && !world.IsTerminal() && world.Round() == round; ++i) {
    legal.clear();
    world.LegalActions(legal);
    world.Apply(playout_ ? playout_(world, legal.span(), rng_)
                         : legal[rng_.Below(static_cast<uint32_t>(legal.size()))]);
  }
  const Game& game = world.game();
  const std::vector<int> scores = world.Scores();
  const int seats = game.num_seats();
  const double sign = game.score_order() == ScoreOrder::kHigherWins ? 1.0 : -1.0;
  margins.assign(seats, 0.0);
  for (int s = 0; s < seats; ++s) {
    const double gain = sign * (scores[s] - start_scores[s]);
    double others = 0;
    int count = 0;
    for (int t = 0; t < seats; ++t) {
      if (game.TeamOf(t) == game.TeamOf(s)) continue;
      others += sign * (scores[t] - start_scores[t]);
      ++count;
    }
    margins[s] = count > 0 ? gain - others / count : gain;
  }
}

Action SearchBot::ChooseWithWorlds(const View& view, std::span<const Action> legal,
                                   const Worlds& worlds,
                                   std::chrono::steady_clock::time_point deadline) {
  stats_ = {};
  std::vector<Action> allowed;
  if (rule_) {
    for (Action a : legal) {
      if (rule_(view, a)) allowed.push_back(a);
    }
    if (!allowed.empty()) legal = allowed;
  }
  if (legal.size() == 1) return legal.front();
  deadline = std::min(deadline, std::chrono::steady_clock::now() + level_.think);
  nodes_.clear();
  nodes_.reserve(static_cast<size_t>(level_.iterations) + 1);
  nodes_.push_back(Node{});
  low_ = high_ = 0;
  bool seen = false;
  std::vector<double> margins;
  std::vector<int> start_scores;
  ActionList world_legal;
  Action candidates[ActionList::kCapacity];
  int iteration = 0;
  for (; iteration < level_.iterations; ++iteration) {
    if (std::chrono::steady_clock::now() >= deadline) {
      stats_.stopped_by_deadline = true;
      break;
    }
    std::unique_ptr<State> world = worlds.Sample(rng_);
    const int round = world->Round();
    if (start_scores.empty()) start_scores = world->Scores();
    int node = 0;
    while (!world->IsTerminal() && world->Round() == round) {
      const int mover = world->CurrentSeat();
      std::span<const Action> here;
      if (node == 0) {
        here = legal;  // the seat's own choice: the same in every world
      } else {
        world_legal.clear();
        world->LegalActions(world_legal);
        here = world_legal.span();
      }
      const int untried = Untried(node, here, candidates);
      if (untried == 0) {
        node = Select(node, here);
        world->Apply(nodes_[node].action);
        continue;
      }
      // Expand one untried action, at random.
      const Action action = candidates[rng_.Below(static_cast<uint32_t>(untried))];
      node = AddChild(node, action, mover);
      nodes_[node].available = 1;
      world->Apply(action);
      break;
    }
    Playout(*world, round, start_scores, margins);
    for (double m : margins) {
      if (!seen || m < low_) low_ = m;
      if (!seen || m > high_) high_ = m;
      seen = true;
    }
    for (int n = node; n > 0; n = nodes_[n].parent) {
      ++nodes_[n].visits;
      nodes_[n].total += margins[nodes_[n].mover];
    }
  }
  stats_.iterations = iteration;
  stats_.nodes = static_cast<int>(nodes_.size());

  // The most visited of the root's children (ties: the better mean, then the lower action),
  // or at level 1 one drawn in proportion to visits.
  int best = -1;
  int64_t total_visits = 0;
  for (int c = nodes_[0].first_child; c >= 0; c = nodes_[c].next_sibling) {
    total_visits += nodes_[c].visits;
    if (best < 0) {
      best = c;
      continue;
    }
    // A node is visited in the iteration that adds it, so every child has visits > 0.
    const Node& a = nodes_[c];
    const Node& b = nodes_[best];
    const double mean_a = a.total / a.visits;
    const double mean_b = b.total / b.visits;
    if (a.visits > b.visits ||
        (a.visits == b.visits && (mean_a > mean_b || (mean_a == mean_b && a.action < b.action)))) {
      best = c;
    }
  }
  if (best < 0) return legal.front();  // the deadline passed before the first iteration
  if (level_.proportional) {
    int64_t pick = rng_.Below(static_cast<uint32_t>(total_visits));
    for (int c = nodes_[0].first_child; c >= 0; c = nodes_[c].next_sibling) {
      pick -= nodes_[c].visits;
      if (pick < 0) return nodes_[c].action;
    }
  }
  return nodes_[best].action;
}

}  // namespace boneyard
