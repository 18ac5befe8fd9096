// `boneyard match-bots`: two bots compared on duplicate deals. Each deal (a match seed: every
// round's shuffle comes from it) is played once per arrangement of the two sides over the
// seats, so both sides hold every hand:
//   * partnership games: side A as one team, then as the other;
//   * every seat for itself: A in seat k and B in every other seat, for each k;
//   * solitaire: A plays the deal, then B does.
// A side's result in one match is the share of opposing seats it finished ahead of (a tie
// counts half; solitaire compares the two plays' scores); a deal's result is the mean over its
// arrangements, and the report is the mean over deals with a 95 % confidence interval from the
// deals' spread (a deal's arrangements are not independent of each other, the deals are).
// Reproducible like simulate: deal i is DeriveSeed(seed, i), and its matches are played by
// PlayBotMatch (bot_match.h), which seeds the bots and their worlds from it.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "engine/bots/bot.h"
#include "engine/cli/args.h"
#include "engine/cli/bot_match.h"
#include "engine/cli/commands.h"
#include "engine/cli/common.h"
#include "engine/core/game.h"
#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "nlohmann/json.hpp"

namespace boneyard::cli {
namespace {

using nlohmann::json;

constexpr int kMaxJobs = 64;
constexpr int64_t kMaxDeals = 10'000'000;
constexpr int64_t kMaxActions = 100'000;

struct Options {
  std::string game;
  std::string rules;
  std::string bots[2];
  int players = 0;
  int64_t deals = 0;
  uint64_t seed = 1;
  int jobs = 1;
  bool json = false;
  // Forty-Two: the first bidder (seat 1) must bid this and the others pass; 0: bidding is free.
  int forced_bid = 0;
};

absl::StatusOr<Options> ReadOptions(const ParsedArgs& args) {
  Options options;
  const std::optional<std::string> game = args.Value("game");
  if (!game.has_value()) return absl::InvalidArgumentError("--game is required");
  options.game = *game;
  options.rules = args.Value("rules").value_or("");
  const std::optional<std::string> bots = args.Value("bots");
  if (!bots.has_value()) return absl::InvalidArgumentError("--bots A,B is required");
  absl::StatusOr<std::vector<std::string>> list = ParseSeatList(*bots);
  if (!list.ok()) return list.status();
  if (list->size() != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("--bots lists ", list->size(), " bots; give exactly two, A,B"));
  }
  options.bots[0] = (*list)[0];
  options.bots[1] = (*list)[1];
  absl::StatusOr<std::optional<int64_t>> deals = args.Int("deals", 1, kMaxDeals);
  if (!deals.ok()) return deals.status();
  if (!deals->has_value()) return absl::InvalidArgumentError("--deals is required");
  options.deals = **deals;
  absl::StatusOr<std::optional<int64_t>> players = args.Int("players", 1, 16);
  if (!players.ok()) return players.status();
  options.players = static_cast<int>(players->value_or(0));
  absl::StatusOr<std::optional<uint64_t>> seed = args.Uint64("seed");
  if (!seed.ok()) return seed.status();
  options.seed = seed->value_or(1);
  absl::StatusOr<std::optional<int64_t>> jobs = args.Int("jobs", 1, kMaxJobs);
  if (!jobs.ok()) return jobs.status();
  options.jobs = static_cast<int>(jobs->value_or(1));
  options.json = args.Has("json");
  absl::StatusOr<std::optional<int64_t>> forced = args.Int("forced-bid", 30, 42);
  if (!forced.ok()) return forced.status();
  if (forced->has_value()) {
    if (options.game != "forty_two") {
      return absl::InvalidArgumentError("--forced-bid is Forty-Two's (a bid of 30 to 42)");
    }
    options.forced_bid = static_cast<int>(**forced);
    // One hand a match: the hand the bid was forced in decides it.
    if (options.rules.find("scoring") == std::string::npos) {
      options.rules += std::string(options.rules.empty() ? "" : ",") + "scoring=marks";
    }
    if (options.rules.find("marks_target") == std::string::npos) {
      options.rules += ",marks_target=1";
    }
  }
  return options;
}

// Plays deal `deal_seed` with the sides so seated (0 = A, 1 = B).
absl::StatusOr<MatchOutcome> PlayArrangement(const Game& game, const Options& options,
                                             const std::vector<int>& sides, uint64_t deal_seed) {
  std::vector<std::string> seats;
  for (int side : sides) seats.push_back(options.bots[side]);
  BotMatchOptions play{.max_actions = kMaxActions, .time_seats = true};
  if (options.forced_bid > 0) {
    // Seat 0 shakes the first hand, so seat 1 bids first: it bids, the rest pass.
    play.opening = {absl::StrCat("bid ", options.forced_bid), "pass", "pass", "pass"};
  }
  return PlayBotMatch(game, seats, deal_seed, play);
}

// A's share of the opposing seats it finished ahead of (ties half); 0.5 unfinished.
double ResultForA(const MatchOutcome& play, const std::vector<int>& sides) {
  if (!play.finished) return 0.5;
  double sum = 0;
  int count = 0;
  for (size_t a = 0; a < sides.size(); ++a) {
    if (sides[a] != 0) continue;
    for (size_t b = 0; b < sides.size(); ++b) {
      if (sides[b] != 1) continue;
      sum += play.ranks[a] < play.ranks[b] ? 1.0 : play.ranks[a] == play.ranks[b] ? 0.5 : 0.0;
      ++count;
    }
  }
  return count > 0 ? sum / count : 0.5;
}

struct DealResult {
  double score = 0;  // A's
  int unfinished = 0;
  // With a forced bid: whether each side (A, B) made it in the arrangement where it bid.
  int made[2] = {0, 0};
  int64_t decisions[2] = {0, 0};
  double seconds[2] = {0, 0};
};

absl::StatusOr<DealResult> PlayDeal(const Game& game, const Options& options, int64_t index) {
  const uint64_t deal_seed = DeriveSeed(options.seed, static_cast<uint64_t>(index));
  DealResult result;
  const std::vector<std::vector<int>> arrangements = SideArrangements(game);
  std::vector<MatchOutcome> plays;
  for (const std::vector<int>& sides : arrangements) {
    absl::StatusOr<MatchOutcome> play = PlayArrangement(game, options, sides, deal_seed);
    if (!play.ok()) return play.status();
    result.unfinished += !play->finished;
    for (size_t seat = 0; seat < sides.size(); ++seat) {
      result.decisions[sides[seat]] += play->seat_decisions[seat];
      result.seconds[sides[seat]] += play->seat_seconds[seat];
    }
    // The bidders (seat 1's team) made it when they won the hand's mark.
    if (options.forced_bid > 0 && play->finished && play->ranks[1] == 1) {
      result.made[sides[1]] = 1;
    }
    plays.push_back(*std::move(play));
  }
  if (game.num_seats() == 1) {
    // The two plays of a solitaire deal, compared by score in the game's order.
    const MatchOutcome& a = plays[0];
    const MatchOutcome& b = plays[1];
    if (!a.finished || !b.finished) {
      result.score = 0.5;
    } else {
      const int sign = game.score_order() == ScoreOrder::kHigherWins ? 1 : -1;
      const int diff = sign * (a.scores[0] - b.scores[0]);
      result.score = diff > 0 ? 1.0 : diff == 0 ? 0.5 : 0.0;
    }
    return result;
  }
  for (size_t i = 0; i < plays.size(); ++i) result.score += ResultForA(plays[i], arrangements[i]);
  result.score /= static_cast<double>(plays.size());
  return result;
}

struct Summary {
  int64_t deals = 0;
  double made[2] = {0, 0};  // make rates with a forced bid, A's and B's
  double mean = 0, half_width = 0;
  int64_t won = 0, drawn = 0, lost = 0, unfinished = 0;
  int64_t decisions[2] = {0, 0};
  double seconds[2] = {0, 0};
};

Summary Summarise(const std::vector<DealResult>& results) {
  Summary s;
  s.deals = static_cast<int64_t>(results.size());
  for (const DealResult& r : results) {
    s.mean += r.score;
    s.won += r.score > 0.5;
    s.drawn += r.score == 0.5;
    s.lost += r.score < 0.5;
    s.unfinished += r.unfinished;
    for (int side = 0; side < 2; ++side) s.made[side] += r.made[side];
    for (int side = 0; side < 2; ++side) {
      s.decisions[side] += r.decisions[side];
      s.seconds[side] += r.seconds[side];
    }
  }
  s.mean /= static_cast<double>(s.deals);
  for (double& made : s.made) made /= static_cast<double>(s.deals);
  if (s.deals > 1) {
    double squares = 0;
    for (const DealResult& r : results) squares += (r.score - s.mean) * (r.score - s.mean);
    const double sd = std::sqrt(squares / static_cast<double>(s.deals - 1));
    s.half_width = 1.96 * sd / std::sqrt(static_cast<double>(s.deals));
  }
  return s;
}

// A make rate's 95 % half-width (normal approximation of the binomial; one bid a deal).
double MadeHalfWidth(const Summary& s, int side) {
  const double p = s.made[side];
  return 1.96 * std::sqrt(p * (1 - p) / static_cast<double>(s.deals));
}

// A share's 95 % interval, kept within 0..1 (the normal approximation overshoots near them).
std::pair<double, double> Interval(double share, double half_width) {
  return {std::max(0.0, share - half_width), std::min(1.0, share + half_width)};
}

double MillisPerMove(const Summary& s, int side) {
  return s.decisions[side] > 0 ? 1000.0 * s.seconds[side] / static_cast<double>(s.decisions[side])
                               : 0.0;
}

}  // namespace

int RunMatchBots(const std::vector<std::string>& args, Io& io) {
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, {{"game", FlagKind::kValue},
                                                       {"rules", FlagKind::kValue},
                                                       {"bots", FlagKind::kValue},
                                                       {"players", FlagKind::kValue},
                                                       {"deals", FlagKind::kValue},
                                                       {"seed", FlagKind::kValue},
                                                       {"jobs", FlagKind::kValue},
                                                       {"forced-bid", FlagKind::kValue},
                                                       {"json", FlagKind::kSwitch}});
  if (!parsed.ok()) return UsageError(io, parsed.status().message(), kMatchBotsUsage);
  if (parsed->Has("help")) return PrintCommandHelp(io, kMatchBotsUsage);
  absl::StatusOr<Options> options = ReadOptions(*parsed);
  if (!options.ok()) return UsageError(io, options.status().message(), kMatchBotsUsage);
  const GameSpec* spec = DefaultRegistry().Find(options->game);
  const int players = options->players > 0 ? options->players
                      : spec != nullptr    ? spec->min_seats
                                           : 2;
  absl::StatusOr<std::shared_ptr<const Game>> game =
      CreateGameForSeats(options->game, options->rules, players);
  if (!game.ok()) {
    return UsageError(io,
                      absl::StrCat(absl::StrReplaceAll(game.status().message(),
                                                       {{"--seats lists", "--players is"}})),
                      kMatchBotsUsage);
  }
  for (std::string& bot : options->bots) {
    if (bot == kDefaultBot && spec != nullptr) bot = spec->default_bot;
    if (absl::StatusOr<std::unique_ptr<Bot>> made = DefaultBots().Make(bot, **game, 0);
        !made.ok()) {
      return UsageError(io, absl::StrCat("--bots: ", made.status().message()), kMatchBotsUsage);
    }
  }

  std::vector<DealResult> results(static_cast<size_t>(options->deals));
  const auto start = std::chrono::steady_clock::now();
  const absl::Status played =
      ForEachIndex(options->deals, options->jobs, [&](int64_t i) -> absl::Status {
        absl::StatusOr<DealResult> result = PlayDeal(**game, *options, i);
        if (!result.ok()) return result.status();
        results[static_cast<size_t>(i)] = *result;
        return absl::OkStatus();
      });
  if (!played.ok()) return Fail(io, kExitInternal, played.message());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const Summary s = Summarise(results);
  const int matches_per_deal = static_cast<int>(SideArrangements(**game).size());
  if (options->json) {
    json out = {{"game", (*game)->name()},
                {"rules", (*game)->rules().ToString()},
                {"bots", {options->bots[0], options->bots[1]}},
                {"seed", options->seed},
                {"deals", s.deals},
                {"matches", s.deals * matches_per_deal},
                {"unfinished", s.unfinished},
                {"score", s.mean},
                {"ci95", Interval(s.mean, s.half_width)},
                {"deals_won", s.won},
                {"deals_drawn", s.drawn},
                {"deals_lost", s.lost},
                {"ms_per_move", {MillisPerMove(s, 0), MillisPerMove(s, 1)}},
                {"seconds", seconds}};
    if (options->forced_bid > 0) {
      out["forced_bid"] = options->forced_bid;
      out["made"] = {s.made[0], s.made[1]};
      out["made_ci95"] = {Interval(s.made[0], MadeHalfWidth(s, 0)),
                          Interval(s.made[1], MadeHalfWidth(s, 1))};
    }
    io.out << out.dump(2) << "\n";
    return kExitOk;
  }
  const std::pair<double, double> interval = Interval(s.mean, s.half_width);
  io.out << "game:     " << (*game)->name() << " (" << (*game)->rules().ToString() << ")\n"
         << "deals:    " << s.deals << " (seed " << options->seed << "), "
         << s.deals * matches_per_deal << " matches, each deal with the sides swapped over "
         << matches_per_deal << " arrangements\n"
         << absl::StrFormat("A %-12s scores %.1f%% against B (95%% CI %.1f%% to %.1f%%)\n",
                            options->bots[0], 100 * s.mean, 100 * interval.first,
                            100 * interval.second)
         << absl::StrFormat("deals:    A better %d, even %d, B better %d\n", s.won, s.drawn, s.lost)
         << absl::StrFormat("time:     A %.2f ms/move, B %s %.2f ms/move; %.1f s in all\n",
                            MillisPerMove(s, 0), options->bots[1], MillisPerMove(s, 1), seconds);
  if (options->forced_bid > 0) {
    for (int side = 0; side < 2; ++side) {
      io.out << absl::StrFormat(
          "forced:   %s made %.1f%% of its forced %d bids (95%% CI %.1f%% to %.1f%%)\n",
          options->bots[side], 100 * s.made[side], options->forced_bid,
          100 * Interval(s.made[side], MadeHalfWidth(s, side)).first,
          100 * Interval(s.made[side], MadeHalfWidth(s, side)).second);
    }
  }
  if (s.unfinished > 0) {
    io.out << "unfinished: " << s.unfinished << " matches stopped at " << kMaxActions
           << " actions (counted as even)\n";
  }
  return kExitOk;
}

}  // namespace boneyard::cli
