// Pairing one Swiss round (services/matchmaking/tournament). The targets: a Dutch round
// for 200 entrants in <= 0.2 s and for 1,000 in <= 5 s; the fast mode for 10,000 in <= 1 s.
// The events are simulated (tests/services/matchmaking/tournament/swiss_simulation.h): four
// rounds played with rating-based results and 20 % draws, then round 5 is paired.
#include <map>

#include "benchmark/benchmark.h"
#include "services/matchmaking/tournament/dutch.h"
#include "services/matchmaking/tournament/fast_swiss.h"
#include "tests/services/matchmaking/tournament/swiss_simulation.h"

namespace boneyard::tournament {
namespace {

// Events are built once per size (with the fast mode, so building a 10,000 field is quick).
const EventRecord& FourRoundsPlayed(int entrants) {
  static std::map<int, EventRecord> cache;
  auto it = cache.find(entrants);
  if (it == cache.end()) {
    testing::SimulationOptions o;
    o.entrants = entrants;
    o.rounds = 4;
    o.seed = 42;
    auto event = testing::Simulate(o, PairFastSwissRound);
    event->total_rounds = 9;
    for (auto& e : event->entrants) e.rounds.resize(9);
    it = cache.emplace(entrants, *event).first;
  }
  return it->second;
}

void BM_DutchRound(benchmark::State& state) {
  const EventRecord& event = FourRoundsPlayed(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    auto boards = PairDutchRound(event, 5);
    if (!boards.ok()) state.SkipWithError("no pairing");
    benchmark::DoNotOptimize(boards);
  }
}
BENCHMARK(BM_DutchRound)
    ->Arg(50)
    ->Arg(200)
    ->Arg(1000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

void BM_FastRound(benchmark::State& state) {
  const EventRecord& event = FourRoundsPlayed(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    auto boards = PairFastSwissRound(event, 5);
    if (!boards.ok()) state.SkipWithError("no pairing");
    benchmark::DoNotOptimize(boards);
  }
}
BENCHMARK(BM_FastRound)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace boneyard::tournament

BENCHMARK_MAIN();
