// The tournament service's decisions at scale (services/matchmaking/tournament_plan.h), with no
// database: a Swiss of 10,000 Mexican Train players at tables of four, five rounds played, and
// what the service does with it — the standings (every table's places and points; for a
// duplicate event every hand's comparisons), one round as clients read it, and the director's
// step that seats round 6 and writes its 2,500 games (issue 22's target: table assignment for
// 10,000 entrants in <= 1 s). Arg: 0 plain tables, 1 duplicate. Then an arena of 10,000:
// a pass pairing everyone, and its leaderboard.
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "benchmark/benchmark.h"
#include "services/matchmaking/tournament_plan.h"
#include "tests/services/matchmaking/tournament_facts.h"

namespace boneyard::matchmaking {
namespace {

constexpr int kEntrants = 10'000;
constexpr int kPlayed = 5;

// The event after kPlayed rounds, each seated by the service itself, every game finished with
// seeded pips (fewer wins).
const TournamentData& Played(bool duplicate) {
  static std::map<bool, TournamentData> cache;
  if (auto it = cache.find(duplicate); it != cache.end()) return it->second;
  v1::Tournament settings = Settings(v1::Tournament::SWISS, "mexican_train");
  settings.set_rounds(9);
  settings.set_table_size(4);
  settings.set_duplicate(duplicate);
  settings.add_tiebreaks("GP");
  TournamentData d = Event(settings, kEntrants);
  d.tournament.deal_secret = "a-secret-for-the-benchmark";
  uint64_t state = 42;
  auto play = [&] {
    for (GameRow& g : d.games) {
      if (!g.result.empty()) continue;
      v1::MatchResult r;
      std::vector<int> pips;
      for (int s = 0; s < 4; ++s) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        pips.push_back(static_cast<int>(state >> 33) % 300);
      }
      for (int s = 0; s < 4; ++s) {
        int rank = 1;
        for (int o = 0; o < 4; ++o) rank += pips[o] < pips[s];
        r.add_scores(pips[s]);
        r.add_ranks(rank);
      }
      g.result = r.SerializeAsString();
    }
  };
  absl::StatusOr<TournamentChanges> start = PlanStart(d, kNow);
  if (!start.ok()) return cache[duplicate];
  Apply(d, *start);
  for (int round = 2; round <= kPlayed; ++round) {
    play();
    absl::StatusOr<TournamentChanges> next = PlanStep(d, kNow);
    if (!next.ok()) break;
    Apply(d, *next);
  }
  play();
  return cache.emplace(duplicate, std::move(d)).first->second;
}

void BM_Standings(benchmark::State& state) {
  const TournamentData& d = Played(state.range(0) != 0);
  if (d.tournament.current_round != kPlayed) state.SkipWithError("the event did not build");
  for (auto _ : state) {
    absl::StatusOr<v1::Standings> standings = StandingsOf(d, 0);
    if (!standings.ok()) state.SkipWithError("no standings");
    benchmark::DoNotOptimize(standings);
  }
}
BENCHMARK(BM_Standings)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_RoundAsRead(benchmark::State& state) {
  const TournamentData& d = Played(state.range(0) != 0);
  for (auto _ : state) benchmark::DoNotOptimize(RoundOf(d, kPlayed, std::nullopt));
}
BENCHMARK(BM_RoundAsRead)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The director's step: round 5 is over, so round 6 is seated and its games written.
void BM_NextRound(benchmark::State& state) {
  const TournamentData& d = Played(state.range(0) != 0);
  size_t games = 0;
  for (auto _ : state) {
    absl::StatusOr<TournamentChanges> next = PlanStep(d, kNow);
    if (!next.ok()) state.SkipWithError("no next round");
    games = next->new_games.size();
    benchmark::DoNotOptimize(next);
  }
  state.counters["games"] = static_cast<double>(games);
}
BENCHMARK(BM_NextRound)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);


// An arena of 10,000 Muggins entrants ten passes in (everyone paired each pass, every game over;
// 50,000 games stored): the director's pass that pairs all of them again — 5,000 games — and the
// leaderboard, each entrant's sheet from its games.
TournamentData BuildArena() {
  v1::Tournament settings = Settings(v1::Tournament::ARENA, "muggins");
  settings.mutable_duration()->set_seconds(3600);
  TournamentData d = Event(settings, kEntrants);
  uint64_t state = 7;
  auto play = [&] {
    for (GameRow& g : d.games) {
      if (!g.result.empty()) continue;
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      const int draw = static_cast<int>(state >> 33) % 10 == 0;
      const int winner = static_cast<int>(state >> 40) % 2;
      v1::MatchResult r;
      for (int s = 0; s < 2; ++s) {
        r.add_scores(s == winner ? 50 : 20);
        r.add_ranks(draw ? 1 : s == winner ? 1 : 2);
      }
      g.result = r.SerializeAsString();
    }
  };
  absl::StatusOr<TournamentChanges> start = PlanStart(d, kNow);
  if (start.ok()) Apply(d, *start);
  for (int pass = 2; pass <= 10; ++pass) {
    play();
    absl::StatusOr<TournamentChanges> next = PlanStep(d, kNow + absl::Minutes(pass));
    if (!next.ok()) break;
    Apply(d, *next);
  }
  play();
  return d;
}

const TournamentData& ArenaPlayed() {
  static const TournamentData played = BuildArena();
  return played;
}

void BM_ArenaPass(benchmark::State& state) {
  const TournamentData& d = ArenaPlayed();
  if (d.tournament.current_round != 10) state.SkipWithError("the arena did not build");
  size_t games = 0;
  for (auto _ : state) {
    absl::StatusOr<TournamentChanges> next = PlanStep(d, kNow + absl::Minutes(20));
    if (!next.ok()) state.SkipWithError("no pass");
    games = next->new_games.size();
    benchmark::DoNotOptimize(next);
  }
  state.counters["games"] = static_cast<double>(games);
}
BENCHMARK(BM_ArenaPass)->Unit(benchmark::kMillisecond);

void BM_ArenaLeaderboard(benchmark::State& state) {
  const TournamentData& d = ArenaPlayed();
  for (auto _ : state) {
    absl::StatusOr<v1::Standings> standings = StandingsOf(d, 0);
    if (!standings.ok()) state.SkipWithError("no leaderboard");
    benchmark::DoNotOptimize(standings);
  }
}
BENCHMARK(BM_ArenaLeaderboard)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace boneyard::matchmaking

BENCHMARK_MAIN();
