// Weng-Lin rating updates per second, per model kind, for the two shapes the issue quotes:
// 2v2 (Forty-Two, team Muggins) and an 8-player free-for-all (Mexican Train). The same
// matches, by the same formula, are timed through the openskill npm package by
// tests/ratings/fixtures/bench.mjs, which runs this program first and prints the ratios.
#include <benchmark/benchmark.h>

#include <vector>

#include "services/ratings/model/weng_lin.h"

namespace boneyard::ratings {
namespace {

using Teams = std::vector<std::vector<SkillRating>>;

constexpr int kMatches = 64;  // cycled, so the inputs vary as in a re-rating run

struct Match {
  Teams teams;
  std::vector<double> ranks;
};

// Priors and places from plain integer formulas that bench.mjs repeats exactly.
std::vector<Match> Matches(int team_count, int team_size) {
  std::vector<Match> matches(kMatches);
  for (int m = 0; m < kMatches; ++m) {
    for (int t = 0; t < team_count; ++t) {
      std::vector<SkillRating>& team = matches[m].teams.emplace_back();
      for (int p = 0; p < team_size; ++p) {
        const int k = t * team_size + p;
        team.push_back({.mu = 25.0 + ((m * 7 + k * 13) % 21 - 10),
                        .sigma = 1.0 + ((m * 5 + k * 3) % 15) * 0.5});
      }
      matches[m].ranks.push_back((t + m) % team_count + 1);
    }
  }
  return matches;
}

// The allocation-free path: results into storage the caller keeps.
void RateUncheckedBench(benchmark::State& bench, ModelKind kind, int team_count, int team_size) {
  RatingModelConfig config;
  config.kind = kind;
  const std::vector<Match> matches = Matches(team_count, team_size);
  Teams out = matches[0].teams;
  size_t m = 0;
  for (auto _ : bench) {
    RateUnchecked(config, matches[m].teams, matches[m].ranks, out);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
    m = (m + 1) % kMatches;
  }
  bench.counters["updates_per_s"] =
      benchmark::Counter(static_cast<double>(bench.iterations()), benchmark::Counter::kIsRate);
}

// Rate(): validation and a freshly allocated result, as a service handler calls it.
void RateBench(benchmark::State& bench, ModelKind kind, int team_count, int team_size) {
  RatingModelConfig config;
  config.kind = kind;
  const std::vector<Match> matches = Matches(team_count, team_size);
  size_t m = 0;
  for (auto _ : bench) {
    benchmark::DoNotOptimize(Rate(config, matches[m].teams, matches[m].ranks));
    m = (m + 1) % kMatches;
  }
  bench.counters["updates_per_s"] =
      benchmark::Counter(static_cast<double>(bench.iterations()), benchmark::Counter::kIsRate);
}

// Wall-clock rates, as bench.mjs measures openskill: on a shared machine both pay the same.
#define BONEYARD_RATINGS_BENCH(name, kind)                                                 \
  BENCHMARK_CAPTURE(RateUncheckedBench, name##_2v2, ModelKind::kind, 2, 2)->UseRealTime(); \
  BENCHMARK_CAPTURE(RateUncheckedBench, name##_ffa8, ModelKind::kind, 8, 1)->UseRealTime()

BONEYARD_RATINGS_BENCH(plackett_luce, kPlackettLuce);
BONEYARD_RATINGS_BENCH(thurstone_mosteller_full, kThurstoneMostellerFull);
BONEYARD_RATINGS_BENCH(thurstone_mosteller_part, kThurstoneMostellerPart);
BONEYARD_RATINGS_BENCH(bradley_terry_full, kBradleyTerryFull);
BONEYARD_RATINGS_BENCH(bradley_terry_part, kBradleyTerryPart);
BENCHMARK_CAPTURE(RateBench, plackett_luce_2v2, ModelKind::kPlackettLuce, 2, 2)->UseRealTime();
BENCHMARK_CAPTURE(RateBench, plackett_luce_ffa8, ModelKind::kPlackettLuce, 8, 1)->UseRealTime();

}  // namespace
}  // namespace boneyard::ratings

BENCHMARK_MAIN();
