// `boneyard simulate`: plays many bot-only matches and summarises them (wins, mean scores,
// decisions per second, game-specific details).
//
// Reproducibility: match i is dealt from DeriveSeed(seed, i) and the bot in seat s of that
// match is seeded with DeriveSeed(match_seed, 1000 + s). Totals are integer sums, which do not
// depend on the order matches finish in, so the summary (apart from timings) is the same for
// every --jobs.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "engine/bots/bot.h"
#include "engine/cli/args.h"
#include "engine/cli/bot_match.h"
#include "engine/cli/commands.h"
#include "engine/cli/common.h"
#include "engine/core/action.h"
#include "engine/core/game.h"
#include "engine/core/rng.h"
#include "engine/records/record.h"
#include "nlohmann/json.hpp"

namespace boneyard::cli {
namespace {

using nlohmann::json;

constexpr int kMaxJobs = 64;
constexpr int64_t kMaxMatches = 1'000'000'000;
// The bound on one match's length is the caller's, not the rules': a match may go on as long as
// its rules say (a random Moon match can drift below zero for ever). --max-actions stops a match
// there and counts it as unfinished.
constexpr int64_t kDefaultMaxActions = 100'000;
constexpr int64_t kMaxMaxActions = 100'000'000;

struct SimulateOptions {
  std::string game;
  std::string rules;
  std::vector<std::string> seats;
  int64_t matches = 0;
  uint64_t seed = 1;
  int jobs = 1;
  int64_t max_actions = kDefaultMaxActions;
  std::optional<std::string> records_dir;
  bool json = false;
};

absl::StatusOr<SimulateOptions> ReadOptions(const ParsedArgs& args) {
  SimulateOptions options;
  const std::optional<std::string> game = args.Value("game");
  if (!game.has_value()) return absl::InvalidArgumentError("--game is required");
  options.game = *game;
  options.rules = args.Value("rules").value_or("");

  const std::optional<std::string> seats = args.Value("seats");
  if (!seats.has_value()) {
    return absl::InvalidArgumentError("--seats is required (one bot name per seat)");
  }
  absl::StatusOr<std::vector<std::string>> seat_list = ParseSeatList(*seats);
  if (!seat_list.ok()) return seat_list.status();
  options.seats = *std::move(seat_list);

  absl::StatusOr<std::optional<int64_t>> matches = args.Int("matches", 1, kMaxMatches);
  if (!matches.ok()) return matches.status();
  if (!matches->has_value()) return absl::InvalidArgumentError("--matches is required");
  options.matches = **matches;

  absl::StatusOr<std::optional<uint64_t>> seed = args.Uint64("seed");
  if (!seed.ok()) return seed.status();
  options.seed = seed->value_or(1);

  absl::StatusOr<std::optional<int64_t>> jobs = args.Int("jobs", 1, kMaxJobs);
  if (!jobs.ok()) return jobs.status();
  options.jobs = static_cast<int>(jobs->value_or(1));

  absl::StatusOr<std::optional<int64_t>> max_actions = args.Int("max-actions", 1, kMaxMaxActions);
  if (!max_actions.ok()) return max_actions.status();
  options.max_actions = max_actions->value_or(kDefaultMaxActions);

  options.records_dir = args.Value("records");
  options.json = args.Has("json");
  return options;
}

// Makes each seat's bot once, so an unknown bot is a command-line error before any match.
absl::Status CheckBots(const Game& game, const std::vector<std::string>& seats) {
  for (const std::string& name : seats) {
    absl::StatusOr<std::unique_ptr<Bot>> bot = DefaultBots().Make(name, game, 0);
    if (!bot.ok()) return bot.status();
  }
  return absl::OkStatus();
}

// Totals over the matches played: integer sums only, so they do not depend on the order in
// which matches finish. Wins, scores and details count finished matches only. Game details are
// summed when they are whole numbers or booleans (true counts 1); other detail values are left
// out of the summary.
struct Totals {
  int64_t matches = 0;     // played, finished or not
  int64_t unfinished = 0;  // stopped at --max-actions
  int64_t decisions = 0;
  std::vector<int64_t> wins;
  std::vector<int64_t> team_wins;
  std::vector<int64_t> score_sums;
  std::map<std::string, int64_t> detail_sums;
  std::map<std::string, bool> detail_is_bool;

  Totals(int num_seats, int num_teams)
      : wins(num_seats), team_wins(num_teams), score_sums(num_seats) {}

  int64_t finished() const { return matches - unfinished; }

  void Add(const MatchOutcome& outcome, const Game& game) {
    ++matches;
    decisions += outcome.decisions;
    if (!outcome.finished) {
      ++unfinished;
      return;
    }
    for (size_t s = 0; s < outcome.ranks.size(); ++s) {
      if (outcome.ranks[s] == 1) ++wins[s];  // tied seats all count a win
      score_sums[s] += outcome.scores[s];
    }
    for (size_t t = 0; t < game.teams().size(); ++t) {
      const std::vector<int>& members = game.teams()[t];
      if (!members.empty() && outcome.ranks[members[0]] == 1) ++team_wins[t];
    }
    if (!outcome.details.is_object()) return;
    for (const auto& [key, value] : outcome.details.items()) {
      if (value.is_boolean()) {
        detail_sums[key] += value.get<bool>() ? 1 : 0;
        detail_is_bool[key] = true;
      } else if (value.is_number_integer()) {
        detail_sums[key] += value.get<int64_t>();
        detail_is_bool[key] = false;
      }
    }
  }
};

std::string RecordPath(const std::string& dir, int64_t index) {
  return (std::filesystem::path(dir) / absl::StrCat("match-", index, ".json")).string();
}

// Plays the matches on `jobs` threads that take match indices from a shared counter, and
// draws a progress bar while they run.
class Simulation {
 public:
  Simulation(const SimulateOptions& options, std::shared_ptr<const Game> game)
      : options_(options),
        game_(std::move(game)),
        totals_(game_->num_seats(), static_cast<int>(game_->teams().size())) {}

  // The first error of any match (the others stop soon after it), or OK.
  absl::Status Run(Io& io) ABSL_LOCKS_EXCLUDED(mu_) {
    const auto start = std::chrono::steady_clock::now();
    const int threads = static_cast<int>(std::min<int64_t>(options_.jobs, options_.matches));
    {
      absl::MutexLock lock(&mu_);
      running_ = threads;
    }
    std::vector<std::thread> workers;
    for (int i = 0; i < threads; ++i) workers.emplace_back([this] { Work(); });
    WaitAndShowProgress(io, start);
    for (std::thread& worker : workers) worker.join();
    seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    absl::MutexLock lock(&mu_);
    return first_error_;
  }

  Totals totals() const ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    return totals_;
  }
  double seconds() const { return seconds_; }

 private:
  void Work() ABSL_LOCKS_EXCLUDED(mu_) {
    while (!stop_.load(std::memory_order_relaxed)) {
      const int64_t index = next_match_.fetch_add(1, std::memory_order_relaxed);
      if (index >= options_.matches) break;
      if (absl::Status s = PlayOne(index); !s.ok()) {
        stop_.store(true, std::memory_order_relaxed);
        absl::MutexLock lock(&mu_);
        if (first_error_.ok()) first_error_ = s;
        break;
      }
    }
    absl::MutexLock lock(&mu_);
    --running_;
  }

  absl::Status PlayOne(int64_t index) ABSL_LOCKS_EXCLUDED(mu_) {
    const uint64_t match_seed = DeriveSeed(options_.seed, static_cast<uint64_t>(index));
    const bool keep_record = options_.records_dir.has_value();
    absl::StatusOr<MatchOutcome> outcome = PlayBotMatch(
        *game_, options_.seats, match_seed,
        {.max_actions = options_.max_actions, .keep_record = keep_record});
    if (!outcome.ok()) {
      return absl::InternalError(absl::StrCat("match ", index, ": ", outcome.status().message()));
    }
    if (keep_record) {
      // Written outside the lock: each match has its own file.
      const std::string path = RecordPath(*options_.records_dir, index);
      if (absl::Status s = WriteTextFile(path, RecordToJson(*outcome->record).dump(2) + "\n");
          !s.ok()) {
        return s;
      }
    }
    absl::MutexLock lock(&mu_);
    totals_.Add(*outcome, *game_);
    return absl::OkStatus();
  }

  bool Finished() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return running_ == 0; }

  void WaitAndShowProgress(Io& io, std::chrono::steady_clock::time_point start)
      ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    // At most ten redraws a second: the bar is for a person, not a log.
    while (!mu_.AwaitWithTimeout(absl::Condition(this, &Simulation::Finished),
                                 absl::Milliseconds(100))) {
      if (io.err_is_tty) DrawProgress(io, start);
    }
    if (io.err_is_tty) io.err << "\r\033[K" << std::flush;  // clear the bar
  }

  void DrawProgress(Io& io, std::chrono::steady_clock::time_point start)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    constexpr int kWidth = 30;
    const double done = static_cast<double>(totals_.matches) / static_cast<double>(options_.matches);
    const int filled = static_cast<int>(done * kWidth);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    io.err << "\r[" << std::string(filled, '#') << std::string(kWidth - filled, ' ') << "] "
           << totals_.matches << "/" << options_.matches << " matches, "
           << absl::StrFormat("%.0f", seconds > 0 ? totals_.decisions / seconds : 0.0)
           << " decisions/s" << std::flush;
  }

  const SimulateOptions& options_;
  const std::shared_ptr<const Game> game_;
  std::atomic<int64_t> next_match_{0};
  std::atomic<bool> stop_{false};
  double seconds_ = 0;  // written by Run's thread only, after the workers are joined

  mutable absl::Mutex mu_;
  Totals totals_ ABSL_GUARDED_BY(mu_);
  absl::Status first_error_ ABSL_GUARDED_BY(mu_);
  int running_ ABSL_GUARDED_BY(mu_) = 0;
};

double Mean(int64_t sum, int64_t count) {
  return count == 0 ? 0.0 : static_cast<double>(sum) / static_cast<double>(count);
}

// "won" reads better as a win rate; other booleans become "<key>_rate", numbers "mean_<key>".
std::string DetailName(const std::string& key, bool is_bool) {
  if (is_bool) return key == "won" ? "win_rate" : key + "_rate";
  return "mean_" + key;
}

json DetailsJson(const Totals& totals) {
  json details = json::object();
  for (const auto& [key, sum] : totals.detail_sums) {
    details[DetailName(key, totals.detail_is_bool.at(key))] = Mean(sum, totals.finished());
  }
  return details;
}

std::vector<double> MeanScores(const Totals& totals) {
  std::vector<double> means;
  for (int64_t sum : totals.score_sums) means.push_back(Mean(sum, totals.finished()));
  return means;
}

json SummaryJson(const SimulateOptions& options, const Game& game, const Totals& totals,
                 double seconds) {
  json out = {{"game", game.name()},
              {"rules", RulesToJson(game.rules().values())},
              {"matches", totals.matches},
              {"unfinished", totals.unfinished},
              {"max_actions", options.max_actions},
              {"seed", options.seed},
              {"jobs", options.jobs},
              {"seats", options.seats},
              {"wins", totals.wins}};
  if (!game.teams().empty()) {
    out["teams"] = game.teams();
    out["team_wins"] = totals.team_wins;
  }
  out["mean_scores"] = MeanScores(totals);
  out["decisions"] = totals.decisions;
  out["mean_decisions"] = Mean(totals.decisions, totals.matches);
  out["seconds"] = seconds;
  out["decisions_per_second"] = seconds > 0 ? totals.decisions / seconds : 0.0;
  out["details"] = DetailsJson(totals);
  return out;
}

std::string Percent(int64_t part, int64_t whole) {
  return absl::StrFormat("%.1f%%", 100.0 * Mean(part, whole));
}

void PrintSummaryText(const SimulateOptions& options, const Game& game, const Totals& totals,
                      double seconds, std::ostream& out) {
  out << "game:      " << game.name() << "\n"
      << "rules:     " << game.rules().ToString() << "\n"
      << "matches:   " << totals.matches << " (seed " << options.seed << ", jobs " << options.jobs
      << ")\n";
  if (totals.unfinished > 0) {
    out << "unfinished: " << totals.unfinished << " stopped at --max-actions "
        << options.max_actions << " (no result; wins and means count the "
        << totals.finished() << " finished)\n";
  }
  const std::vector<double> means = MeanScores(totals);
  // A solitaire seat is always ranked first; its game-specific win rate is in the details.
  const bool solitaire = options.seats.size() == 1;
  for (size_t s = 0; s < options.seats.size(); ++s) {
    const std::string wins =
        solitaire ? "" : absl::StrCat("wins ", totals.wins[s], " (",
                                      Percent(totals.wins[s], totals.finished()), ")");
    out << absl::StrFormat("seat %d:    %-10s %-20s mean score %.2f\n", s, options.seats[s],
                           wins, means[s]);
  }
  for (size_t t = 0; t < game.teams().size(); ++t) {
    out << absl::StrFormat("team %d:    seats %-4s wins %d (%s)\n", t,
                           absl::StrJoin(game.teams()[t], "+"), totals.team_wins[t],
                           Percent(totals.team_wins[t], totals.finished()));
  }
  out << absl::StrFormat("decisions: %d total, %.2f per match\n", totals.decisions,
                         Mean(totals.decisions, totals.matches));
  out << absl::StrFormat("time:      %.3f s, %.0f decisions/s\n", seconds,
                         seconds > 0 ? totals.decisions / seconds : 0.0);
  if (totals.detail_sums.empty()) return;
  out << "details:\n";
  for (const auto& [key, sum] : totals.detail_sums) {
    out << absl::StrFormat("  %-20s %.4f\n", DetailName(key, totals.detail_is_bool.at(key)),
                           Mean(sum, totals.finished()));
  }
}

absl::Status PrepareRecordsDir(const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) {
    return absl::UnavailableError(
        absl::StrCat("cannot create records directory '", dir, "': ", error.message()));
  }
  if (!std::filesystem::is_directory(dir, error)) {
    return absl::UnavailableError(absl::StrCat("--records '", dir, "' is not a directory"));
  }
  return absl::OkStatus();
}

}  // namespace

int RunSimulate(const std::vector<std::string>& args, Io& io) {
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, {{"game", FlagKind::kValue},
                                                       {"rules", FlagKind::kValue},
                                                       {"seats", FlagKind::kValue},
                                                       {"matches", FlagKind::kValue},
                                                       {"seed", FlagKind::kValue},
                                                       {"jobs", FlagKind::kValue},
                                                       {"max-actions", FlagKind::kValue},
                                                       {"records", FlagKind::kValue},
                                                       {"json", FlagKind::kSwitch}});
  if (!parsed.ok()) return UsageError(io, parsed.status().message(), kSimulateUsage);
  if (parsed->Has("help")) return PrintCommandHelp(io, kSimulateUsage);

  absl::StatusOr<SimulateOptions> options = ReadOptions(*parsed);
  if (!options.ok()) return UsageError(io, options.status().message(), kSimulateUsage);
  absl::StatusOr<std::shared_ptr<const Game>> game =
      CreateGameForSeats(options->game, options->rules, static_cast<int>(options->seats.size()));
  if (!game.ok()) return UsageError(io, game.status().message(), kSimulateUsage);
  options->seats = ResolveDefaultBots(**game, std::move(options->seats));
  if (absl::Status s = CheckBots(**game, options->seats); !s.ok()) {
    return UsageError(io, s.message(), kSimulateUsage);
  }
  if (options->records_dir.has_value()) {
    if (absl::Status s = PrepareRecordsDir(*options->records_dir); !s.ok()) {
      return Fail(io, kExitBadInput, s.message());
    }
  }

  Simulation simulation(*options, *game);
  if (absl::Status s = simulation.Run(io); !s.ok()) {
    const bool file_problem = s.code() == absl::StatusCode::kUnavailable;
    return Fail(io, file_problem ? kExitBadInput : kExitInternal, s.message());
  }
  const Totals totals = simulation.totals();
  if (options->json) {
    io.out << SummaryJson(*options, **game, totals, simulation.seconds()).dump(2) << "\n";
  } else {
    PrintSummaryText(*options, **game, totals, simulation.seconds(), io.out);
  }
  return kExitOk;
}

}  // namespace boneyard::cli
