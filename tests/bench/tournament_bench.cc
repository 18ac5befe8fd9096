// Pairing one Swiss round (services/matchmaking/tournament). The targets: a Dutch round
// for 200 entrants in <= 0.2 s and for 1,000 in <= 5 s; the fast mode for 10,000 in <= 1 s;
// Swiss tables (N-player games) for 10,000 in <= 1 s; a partner-rotation schedule for up to 64
// players in <= 1 s (issue 22).
// The events are simulated (tests/services/matchmaking/tournament/swiss_simulation.h): four
// rounds played with rating-based results and 20 % draws, then round 5 is paired.
#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "benchmark/benchmark.h"
#include "services/matchmaking/tournament/dutch.h"
#include "services/matchmaking/tournament/fast_swiss.h"
#include "services/matchmaking/tournament/partner_rotation.h"
#include "services/matchmaking/tournament/swiss_tables.h"
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

// Swiss tables (issue 22's target: 10,000 entrants in <= 1 s): round 5 of a field at tables of
// four, the four rounds before seated by the same function with seeded results.
const SwissTablesSpec& SwissTablesRound5(int entrants) {
  static std::map<int, SwissTablesSpec> cache;
  auto it = cache.find(entrants);
  if (it != cache.end()) return it->second;
  std::vector<int> points(entrants + 1, 0);
  std::vector<std::pair<int, int>> met;
  uint64_t state = 42;
  SwissTablesSpec spec;
  for (int round = 1; round <= 5; ++round) {
    spec = SwissTablesSpec{};
    spec.table_size = 4;
    std::vector<int> order(entrants);
    for (int i = 0; i < entrants; ++i) order[i] = i + 1;
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return points[a] > points[b]; });
    for (int id : order) spec.standings.push_back({.id = id});
    spec.met = met;
    if (round == 5) break;
    const absl::StatusOr<SwissTablesRound> seated = PairSwissTables(spec);
    if (!seated.ok()) break;
    for (const std::vector<int>& table : seated->tables) {
      for (size_t i = 0; i < table.size(); ++i) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        points[table[i]] += static_cast<int>(state >> 33) % 4;
        for (size_t j = i + 1; j < table.size(); ++j) met.emplace_back(table[i], table[j]);
      }
    }
  }
  return cache.emplace(entrants, std::move(spec)).first->second;
}

void BM_SwissTables(benchmark::State& state) {
  const SwissTablesSpec& spec = SwissTablesRound5(static_cast<int>(state.range(0)));
  int64_t repeats = 0;
  for (auto _ : state) {
    auto round = PairSwissTables(spec);
    if (!round.ok()) state.SkipWithError("no seating");
    repeats = round->repeats;
    benchmark::DoNotOptimize(round);
  }
  state.counters["repeats"] = static_cast<double>(repeats);
}
BENCHMARK(BM_SwissTables)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

// A whole partner-rotation schedule of the default length: (players, team size). 64, 44 and 8/4
// are stored designs, 63 the design for 64 less one; 62, 30 and 16/4 are searched (the search's
// whole budget where it finds no perfect schedule). Counters: the most times a pair partners and opposes.
void BM_PartnerRotation(benchmark::State& state) {
  const PartnerRotationSpec spec{.players = static_cast<int>(state.range(0)),
                                 .team_size = static_cast<int>(state.range(1)),
                                 .rounds = 0,
                                 .seed = 1};
  absl::StatusOr<PartnerSchedule> schedule;
  for (auto _ : state) {
    schedule = PartnerRotationSchedule(spec);
    if (!schedule.ok()) state.SkipWithError("no schedule");
    benchmark::DoNotOptimize(schedule);
  }
  if (!schedule.ok()) return;
  const PairCounts counts = CountPairs(spec.players, schedule->rounds);
  int partners = 0, opponents = 0;
  for (int a = 1; a <= spec.players; ++a) {
    for (int b = a + 1; b <= spec.players; ++b) {
      partners = std::max(partners, counts.partners(a, b));
      opponents = std::max(opponents, counts.opponents(a, b));
    }
  }
  state.counters["max_partners"] = partners;
  state.counters["max_opponents"] = opponents;
  state.counters["rounds"] = static_cast<double>(schedule->rounds.size());
}
BENCHMARK(BM_PartnerRotation)
    ->Args({64, 2})
    ->Args({63, 2})
    ->Args({62, 2})
    ->Args({57, 2})
    ->Args({44, 2})
    ->Args({30, 2})
    ->Args({8, 4})
    ->Args({16, 4})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace boneyard::tournament

BENCHMARK_MAIN();
