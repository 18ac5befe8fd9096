// `boneyard rate-bots --game G --bots A,B,C,... --deals N`: the bots' strengths on one Weng-Lin
// scale (the ratings service's model, services/ratings/model), from a round robin on duplicate
// deals — what gives a ladder's levels a known strength (docs/bots.md, "The level ladder").
//
// Every pair of bots plays every deal (deal i is DeriveSeed(seed, i)) once per arrangement of
// the two over the seats (the partnership games: each as either team; two seats: each in either
// seat), so both hold every hand. The matches are then rated one after another in a fixed order
// — deal by deal, pair by pair, arrangement by arrangement — each bot a player starting at the
// model's initial rating, each match one game between the two sides at their ranks. The order
// is fixed whatever --jobs says, so the table is reproducible. Two-sided games only (two seats,
// or two teams): with more seats a bot would hold several seats of one match.
//
// Not a service command (it plays the engine's bots in-process), but here, above the engine,
// because the rating model is the services'.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "engine/bots/bot.h"
#include "engine/cli/args.h"
#include "engine/cli/bot_match.h"
#include "engine/cli/common.h"
#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "nlohmann/json.hpp"
#include "services/client/command_common.h"
#include "services/ratings/model/weng_lin.h"

namespace boneyard::client {
namespace {

using nlohmann::json;

constexpr int kMaxBots = 16;
constexpr int64_t kMaxDeals = 1'000'000;
constexpr int64_t kMaxActions = 100'000;

// One match of the round robin, and how it ended for the pair's first bot.
struct Played {
  int first = 0, second = 0;  // the bots, by index
  double first_rank = 1, second_rank = 1;
  bool finished = false;
  int64_t decisions[2] = {0, 0};
  double seconds[2] = {0, 0};
};

}  // namespace

int RunRateBots(const std::vector<std::string>& args, cli::Io& io) {
  absl::StatusOr<cli::ParsedArgs> parsed = cli::ParseArgs(args, {{"game", cli::FlagKind::kValue},
                                                                 {"rules", cli::FlagKind::kValue},
                                                                 {"bots", cli::FlagKind::kValue},
                                                                 {"deals", cli::FlagKind::kValue},
                                                                 {"seed", cli::FlagKind::kValue},
                                                                 {"jobs", cli::FlagKind::kValue},
                                                                 {"json", cli::FlagKind::kSwitch}});
  if (!parsed.ok()) return cli::UsageError(io, parsed.status().message(), kRateBotsUsage);
  if (parsed->Has("help")) return cli::PrintCommandHelp(io, kRateBotsUsage);
  const std::optional<std::string> game_name = parsed->Value("game");
  if (!game_name.has_value()) return cli::UsageError(io, "--game is required", kRateBotsUsage);
  const std::optional<std::string> bot_list = parsed->Value("bots");
  if (!bot_list.has_value()) {
    return cli::UsageError(io, "--bots A,B,... is required", kRateBotsUsage);
  }
  absl::StatusOr<std::vector<std::string>> bots = cli::ParseSeatList(*bot_list);
  if (!bots.ok()) return cli::UsageError(io, bots.status().message(), kRateBotsUsage);
  if (bots->size() < 2 || bots->size() > kMaxBots) {
    return cli::UsageError(
        io, absl::StrCat("--bots lists ", bots->size(), " bots; give 2 to ", kMaxBots),
        kRateBotsUsage);
  }
  absl::StatusOr<std::optional<int64_t>> deals = parsed->Int("deals", 1, kMaxDeals);
  if (!deals.ok()) return cli::UsageError(io, deals.status().message(), kRateBotsUsage);
  if (!deals->has_value()) return cli::UsageError(io, "--deals is required", kRateBotsUsage);
  absl::StatusOr<std::optional<uint64_t>> seed = parsed->Uint64("seed");
  if (!seed.ok()) return cli::UsageError(io, seed.status().message(), kRateBotsUsage);
  absl::StatusOr<std::optional<int64_t>> jobs = parsed->Int("jobs", 1, 64);
  if (!jobs.ok()) return cli::UsageError(io, jobs.status().message(), kRateBotsUsage);

  const GameSpec* spec = DefaultRegistry().Find(*game_name);
  absl::StatusOr<std::shared_ptr<const Game>> game = cli::CreateGameForSeats(
      *game_name, parsed->Value("rules").value_or(""), spec != nullptr ? spec->min_seats : 2);
  if (!game.ok()) return cli::UsageError(io, game.status().message(), kRateBotsUsage);
  const bool two_sided =
      (*game)->teams().empty() ? (*game)->num_seats() == 2 : (*game)->teams().size() == 2;
  if (!two_sided) {
    return cli::UsageError(io,
                           absl::StrCat(*game_name,
                                        " under these rules is not played by two "
                                        "sides; rate-bots rates two-sided games"),
                           kRateBotsUsage);
  }
  for (std::string& bot : *bots) {
    if (bot == cli::kDefaultBot && spec != nullptr) bot = spec->default_bot;
    if (absl::StatusOr<std::unique_ptr<Bot>> made = DefaultBots().Make(bot, **game, 0);
        !made.ok()) {
      return cli::UsageError(io, absl::StrCat("--bots: ", made.status().message()), kRateBotsUsage);
    }
  }
  const int n = static_cast<int>(bots->size());
  std::vector<std::pair<int, int>> pairs;
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) pairs.emplace_back(a, b);
  }
  const std::vector<std::vector<int>> arrangements = cli::SideArrangements(**game);
  const int64_t per_deal = static_cast<int64_t>(pairs.size() * arrangements.size());
  const int64_t total = **deals * per_deal;

  // Played in parallel, each match into its own slot; rated afterwards in slot order.
  std::vector<Played> played(static_cast<size_t>(total));
  const uint64_t base_seed = seed->value_or(1);
  const auto start = std::chrono::steady_clock::now();
  auto play = [&](int64_t i) -> absl::Status {
    const int64_t deal = i / per_deal;
    const auto [first, second] = pairs[static_cast<size_t>((i % per_deal) / arrangements.size())];
    const std::vector<int>& sides = arrangements[static_cast<size_t>(i % arrangements.size())];
    std::vector<std::string> seats;
    for (int side : sides) seats.push_back((*bots)[side == 0 ? first : second]);
    absl::StatusOr<cli::MatchOutcome> outcome =
        cli::PlayBotMatch(**game, seats, DeriveSeed(base_seed, static_cast<uint64_t>(deal)),
                          {.max_actions = kMaxActions, .time_seats = true, .opening = {}});
    if (!outcome.ok()) return outcome.status();
    Played& p = played[static_cast<size_t>(i)];
    p.first = first;
    p.second = second;
    p.finished = outcome->finished;
    for (size_t seat = 0; seat < sides.size(); ++seat) {
      const int side = sides[seat];
      if (outcome->finished) (side == 0 ? p.first_rank : p.second_rank) = outcome->ranks[seat];
      p.decisions[side] += outcome->seat_decisions[seat];
      p.seconds[side] += outcome->seat_seconds[seat];
    }
    return absl::OkStatus();
  };
  const absl::Status played_all =
      cli::ForEachIndex(total, static_cast<int>(jobs->value_or(1)), play);
  if (!played_all.ok()) return cli::Fail(io, cli::kExitInternal, played_all.message());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const ratings::RatingModelConfig model;
  std::vector<ratings::SkillRating> rating(n, ratings::InitialRating(model));
  std::vector<double> points(n, 0), games(n, 0), think(n, 0);
  std::vector<int64_t> moves(n, 0);
  std::vector<std::vector<double>> score(n, std::vector<double>(n, 0));
  std::vector<std::vector<double>> met(n, std::vector<double>(n, 0));
  int64_t unfinished = 0;
  for (const Played& p : played) {
    for (int side = 0; side < 2; ++side) {
      const int bot = side == 0 ? p.first : p.second;
      moves[bot] += p.decisions[side];
      think[bot] += p.seconds[side];
    }
    if (!p.finished) {
      ++unfinished;
      continue;
    }
    const double first_points = p.first_rank < p.second_rank    ? 1.0
                                : p.first_rank == p.second_rank ? 0.5
                                                                : 0.0;
    points[p.first] += first_points;
    points[p.second] += 1 - first_points;
    games[p.first] += 1;
    games[p.second] += 1;
    score[p.first][p.second] += first_points;
    score[p.second][p.first] += 1 - first_points;
    met[p.first][p.second] += 1;
    met[p.second][p.first] += 1;
    const std::vector<std::vector<ratings::SkillRating>> teams = {{rating[p.first]},
                                                                  {rating[p.second]}};
    const std::vector<double> ranks = {p.first_rank, p.second_rank};
    absl::StatusOr<std::vector<std::vector<ratings::SkillRating>>> after =
        ratings::Rate(model, teams, ranks);
    if (!after.ok()) return cli::Fail(io, cli::kExitInternal, after.status().message());
    rating[p.first] = (*after)[0][0];
    rating[p.second] = (*after)[1][0];
  }
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return rating[a].Ordinal() > rating[b].Ordinal(); });

  if (parsed->Has("json")) {
    json out = {{"game", (*game)->name()}, {"rules", (*game)->rules().ToString()},
                {"seed", base_seed},       {"deals", **deals},
                {"matches", total},        {"unfinished", unfinished},
                {"seconds", seconds},      {"bots", json::array()}};
    for (int i : order) {
      json line = {{"bot", (*bots)[i]},
                   {"mu", rating[i].mu},
                   {"sigma", rating[i].sigma},
                   {"ordinal", rating[i].Ordinal()},
                   {"score", games[i] > 0 ? points[i] / games[i] : 0.0},
                   {"ms_per_move", moves[i] > 0 ? 1000 * think[i] / moves[i] : 0.0},
                   {"against", json::object()}};
      for (int j = 0; j < n; ++j) {
        if (j != i && met[i][j] > 0) line["against"][(*bots)[j]] = score[i][j] / met[i][j];
      }
      out["bots"].push_back(line);
    }
    io.out << out.dump(2) << "\n";
    return cli::kExitOk;
  }
  io.out << "game:    " << (*game)->name() << " (" << (*game)->rules().ToString() << ")\n"
         << "matches: " << total << " (" << **deals << " deals x " << pairs.size() << " pairs x "
         << arrangements.size() << " arrangements, seed " << base_seed << "), " << unfinished
         << " unfinished, " << absl::StrFormat("%.0f s", seconds) << "\n"
         << absl::StrFormat("%-14s %7s %6s %8s %7s %9s\n", "bot", "mu", "sigma", "ordinal", "score",
                            "ms/move");
  for (int i : order) {
    io.out << absl::StrFormat("%-14s %7.2f %6.2f %8.2f %6.1f%% %9.2f\n", (*bots)[i], rating[i].mu,
                              rating[i].sigma, rating[i].Ordinal(),
                              games[i] > 0 ? 100 * points[i] / games[i] : 0.0,
                              moves[i] > 0 ? 1000 * think[i] / moves[i] : 0.0);
  }
  return cli::kExitOk;
}

}  // namespace boneyard::client
