// Random playouts per game through the generic State interface (LegalActions into a fixed
// buffer, Apply), as decisions per second on one core. tests/bench/run.sh runs this next to
// block_reference (the shared yardstick, same flags) and prints the ratios.
#include <benchmark/benchmark.h>

#include "engine/bots/observed_match.h"
#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "engine/games/forty_two/forty_two.h"
#include "engine/games/forty_two/forty_two_solver.h"

namespace boneyard {
namespace {

void RandomPlayouts(benchmark::State& bench, const char* game_name, const char* rules) {
  auto game = DefaultRegistry().CreateGame(game_name, *ParseRuleText(rules));
  if (!game.ok()) {
    bench.SkipWithError(std::string(game.status().message()).c_str());
    return;
  }
  Rng rng(1);
  ActionList legal;
  int64_t decisions = 0;
  int64_t forced = 0;  // decisions with a single legal action (a forced draw or pass)
  int64_t matches = 0;
  uint64_t seed = 0;
  for (auto _ : bench) {
    std::unique_ptr<State> state = *(*game)->NewMatch(seed++);
    while (!state->IsTerminal()) {
      legal.clear();
      state->LegalActions(legal);
      state->Apply(legal[rng.Below(legal.size())]);
      ++decisions;
      forced += legal.size() == 1;
    }
    ++matches;
  }
  bench.counters["decisions_per_s"] = benchmark::Counter(static_cast<double>(decisions),
                                                         benchmark::Counter::kIsRate);
  bench.counters["forced_fraction"] =
      static_cast<double>(forced) / static_cast<double>(decisions ? decisions : 1);
  bench.counters["decisions_per_match"] =
      static_cast<double>(decisions) / static_cast<double>(matches ? matches : 1);
}

void Clone(benchmark::State& bench, const char* game_name, const char* rules) {
  auto game = DefaultRegistry().CreateGame(game_name, *ParseRuleText(rules));
  std::unique_ptr<State> state = *(*game)->NewMatch(7);
  ActionList legal;
  for (int i = 0; i < 10 && !state->IsTerminal(); ++i) {
    legal.clear();
    state->LegalActions(legal);
    state->Apply(legal[0]);
  }
  for (auto _ : bench) benchmark::DoNotOptimize(state->Clone());
}

// Forty-Two's open-hand solver (forty_two_solver.h) on whole hands: random deals, bidding and
// trumps by random play, solved from the first lead (the worst case: seven tricks to go).
void FortyTwoOpenSolve(benchmark::State& bench) {
  auto game = *DefaultRegistry().CreateGame("forty_two", *ParseRuleText("scoring=marks"));
  std::vector<forty_two::OpenHand> hands;
  Rng rng(3);
  ActionList legal;
  for (uint64_t seed = 0; hands.size() < 64; ++seed) {
    std::unique_ptr<State> state = *game->NewMatch(seed);
    const auto& s = static_cast<const forty_two::FortyTwoState&>(*state);
    while (!s.playing() && !state->IsTerminal()) {
      legal.clear();
      state->LegalActions(legal);
      state->Apply(legal[rng.Below(legal.size())]);
    }
    if (auto h = forty_two::OpenHandOf(s)) hands.push_back(*h);
  }
  forty_two::PlaySolver solver;
  size_t i = 0;
  // Arg 1: only whether the bidders make their bid (a null-window search).
  const bool make_only = bench.range(0) == 1;
  for (auto _ : bench) {
    const forty_two::OpenHand& hand = hands[i++ % hands.size()];
    if (make_only) {
      benchmark::DoNotOptimize(solver.BiddersMake(hand));
    } else {
      benchmark::DoNotOptimize(solver.Solve(hand));
    }
  }
  bench.counters["nodes_per_solve"] =
      static_cast<double>(solver.nodes()) / static_cast<double>(bench.iterations());
}
BENCHMARK(FortyTwoOpenSolve)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// A remote bot's cost of following a match (ObservedMatch): one seat rebuilding a whole random
// match from its views, event by event.
void RebuildFromViews(benchmark::State& bench, const char* game_name, const char* rules) {
  auto game = *DefaultRegistry().CreateGame(game_name, *ParseRuleText(rules));
  // The events and views of a few random matches, recorded first.
  struct Seen {
    int actor;
    std::string action;
    nlohmann::json view;
  };
  std::vector<std::pair<nlohmann::json, std::vector<Seen>>> matches;
  Rng rng(5);
  ActionList legal;
  for (uint64_t seed = 0; seed < 4; ++seed) {
    std::unique_ptr<State> state = *game->NewMatch(seed);
    std::vector<Seen> seen;
    const nlohmann::json first = state->ViewFor(0)->ToJson();
    for (int step = 0; step < 2000 && !state->IsTerminal(); ++step) {
      legal.clear();
      state->LegalActions(legal);
      const Action a = legal[rng.Below(legal.size())];
      const int actor = state->CurrentSeat();
      std::string text = state->PublicActionToString(a);
      state->Apply(a);
      seen.push_back({actor, std::move(text), state->ViewFor(0)->ToJson()});
    }
    matches.emplace_back(first, std::move(seen));
  }
  int64_t events = 0;
  size_t i = 0;
  for (auto _ : bench) {
    const auto& [first, seen] = matches[i++ % matches.size()];
    ObservedMatch observed(game, 0, i);
    if (!observed.Start(first).ok()) {
      bench.SkipWithError("start");
      return;
    }
    for (const Seen& e : seen) {
      if (!observed.Observe(e.actor, e.action, e.view).ok()) {
        bench.SkipWithError("observe");
        return;
      }
    }
    events += static_cast<int64_t>(seen.size());
  }
  // Time per match over events per match is the time per event.
  bench.counters["events_per_match"] =
      static_cast<double>(events) / static_cast<double>(bench.iterations());
}
BENCHMARK_CAPTURE(RebuildFromViews, muggins_2p, "muggins", "players=2,target=61")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(RebuildFromViews, forty_two, "forty_two", "scoring=marks,marks_target=2")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(RebuildFromViews, mexican_train_d9_4p, "mexican_train",
                  "preset=classic_double_9,players=4,rounds=2")
    ->Unit(benchmark::kMillisecond);

BENCHMARK_CAPTURE(RandomPlayouts, muggins_2p, "muggins", "players=2");
BENCHMARK_CAPTURE(RandomPlayouts, muggins_4p_teams, "muggins", "players=4,teams=true");
BENCHMARK_CAPTURE(RandomPlayouts, castle_rock_d6, "castle_rock", "set=6");
BENCHMARK_CAPTURE(RandomPlayouts, castle_rock_d18, "castle_rock", "set=18");
BENCHMARK_CAPTURE(RandomPlayouts, forty_two, "forty_two", "");
BENCHMARK_CAPTURE(RandomPlayouts, forty_two_all_contracts, "forty_two",
                  "nello=true,plunge=true,splash=true,sevens=true,mark_bidding=true");
BENCHMARK_CAPTURE(RandomPlayouts, eighty_four_8p, "eighty_four", "players=8");
BENCHMARK_CAPTURE(RandomPlayouts, eighty_four_6p, "eighty_four", "players=6");
// Uniformly random Moon rarely reaches the target (the rules set no other end): the old
// default limit of 30 hands keeps the figure comparable with earlier runs.
BENCHMARK_CAPTURE(RandomPlayouts, moon, "moon", "max_hands=30");
BENCHMARK_CAPTURE(RandomPlayouts, mexican_train_classic_4p, "mexican_train",
                  "preset=classic,players=4");
BENCHMARK_CAPTURE(RandomPlayouts, mexican_train_classic_d9_4p, "mexican_train",
                  "preset=classic_double_9,players=4");
BENCHMARK_CAPTURE(RandomPlayouts, mexican_train_first_turn_strings_4p, "mexican_train",
                  "preset=first_turn_strings,players=4");
BENCHMARK_CAPTURE(RandomPlayouts, mexican_train_house_4p, "mexican_train",
                  "preset=house,players=4");
BENCHMARK_CAPTURE(RandomPlayouts, mexican_train_classic_8p, "mexican_train",
                  "preset=classic,players=8");
BENCHMARK_CAPTURE(RandomPlayouts, chickenfoot_d9_4p, "chickenfoot", "players=4");
BENCHMARK_CAPTURE(RandomPlayouts, chickenfoot_d12_6p, "chickenfoot", "set=12,players=6");
BENCHMARK_CAPTURE(Clone, muggins_2p, "muggins", "players=2");
BENCHMARK_CAPTURE(Clone, castle_rock_d18, "castle_rock", "set=18");
BENCHMARK_CAPTURE(Clone, forty_two, "forty_two", "");
BENCHMARK_CAPTURE(Clone, mexican_train_classic_8p, "mexican_train", "preset=classic,players=8");

}  // namespace
}  // namespace boneyard

BENCHMARK_MAIN();
