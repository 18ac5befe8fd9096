#include "engine/cli/bot_match.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/bots/bot.h"
#include "engine/core/action.h"
#include "engine/core/rng.h"

namespace boneyard::cli {

std::vector<std::vector<int>> SideArrangements(const Game& game) {
  const int seats = game.num_seats();
  std::vector<std::vector<int>> out;
  if (seats == 1) return {{0}, {1}};
  if (!game.teams().empty()) {
    for (int a_team = 0; a_team < static_cast<int>(game.teams().size()); ++a_team) {
      std::vector<int> sides(seats, 1);
      for (int s : game.teams()[a_team]) sides[s] = 0;
      out.push_back(sides);
    }
    return out;
  }
  for (int k = 0; k < seats; ++k) {
    std::vector<int> sides(seats, 1);
    sides[k] = 0;
    out.push_back(sides);
  }
  return out;
}

absl::Status ForEachIndex(int64_t count, int jobs,
                          const std::function<absl::Status(int64_t)>& work) {
  std::atomic<int64_t> next{0};
  std::atomic<bool> failed{false};
  absl::Status first_error;
  std::atomic_flag error_taken = ATOMIC_FLAG_INIT;
  auto run = [&] {
    for (int64_t i; !failed.load() && (i = next.fetch_add(1)) < count;) {
      if (absl::Status s = work(i); !s.ok()) {
        if (!error_taken.test_and_set()) first_error = s;
        failed.store(true);
        return;
      }
    }
  };
  std::vector<std::thread> workers;
  const int threads = static_cast<int>(std::min<int64_t>(std::max(jobs, 1), count));
  for (int t = 0; t < threads; ++t) workers.emplace_back(run);
  for (std::thread& w : workers) w.join();
  return failed.load() ? first_error : absl::OkStatus();
}

absl::StatusOr<MatchOutcome> PlayBotMatch(const Game& game, const std::vector<std::string>& seats,
                                          uint64_t match_seed, const BotMatchOptions& options) {
  absl::StatusOr<std::unique_ptr<State>> made = game.NewMatch(match_seed);
  if (!made.ok()) return made.status();
  std::unique_ptr<State> state = *std::move(made);

  std::vector<std::unique_ptr<Bot>> bots;
  for (int s = 0; s < static_cast<int>(seats.size()); ++s) {
    absl::StatusOr<std::unique_ptr<Bot>> bot =
        DefaultBots().Make(seats[s], game, DeriveSeed(match_seed, kBotSeedStream + s));
    if (!bot.ok()) return bot.status();
    bots.push_back(*std::move(bot));
  }
  std::optional<RecordBuilder> builder;
  if (options.keep_record) builder.emplace(*state, match_seed, seats);

  MatchOutcome outcome;
  outcome.seat_decisions.assign(seats.size(), 0);
  outcome.seat_seconds.assign(seats.size(), 0.0);
  ActionList legal;
  for (const std::string& text : options.opening) {
    absl::StatusOr<Action> action = state->ParseAction(text);
    if (!action.ok()) return action.status();
    legal.clear();
    state->LegalActions(legal);
    if (!legal.Contains(*action)) {
      return absl::InvalidArgumentError(
          absl::StrCat("the opening action '", text, "' is not legal for seat ",
                       state->CurrentSeat(), " in match with seed ", match_seed));
    }
    if (builder.has_value()) builder->Add(*state, *action);
    state->Apply(*action);
  }
  while (!state->IsTerminal() && outcome.decisions < options.max_actions) {
    const int seat = state->CurrentSeat();
    legal.clear();
    state->LegalActions(legal);
    if (legal.empty()) {
      return absl::InternalError(absl::StrCat("seat ", seat,
                                              " has no legal action in match with seed ",
                                              match_seed, " but the match is not over"));
    }
    std::chrono::steady_clock::time_point start;
    if (options.time_seats) start = std::chrono::steady_clock::now();
    const Action action =
        AskBot(*bots[seat], *state, seat, legal.span(),
               DeriveSeed(match_seed, kWorldSeedStream + static_cast<uint64_t>(outcome.decisions)));
    if (options.time_seats) {
      outcome.seat_seconds[seat] +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    if (!legal.Contains(action)) {
      return absl::InternalError(absl::StrCat("bot '", seats[seat], "' in seat ", seat,
                                              " chose an illegal action (code ", action,
                                              ") in match with seed ", match_seed));
    }
    if (builder.has_value()) builder->Add(*state, action);
    state->Apply(action);
    ++outcome.decisions;
    ++outcome.seat_decisions[seat];
  }
  if (builder.has_value()) outcome.record = builder->Build(*state);
  outcome.finished = state->IsTerminal();
  if (!outcome.finished) return outcome;
  outcome.scores = state->Scores();
  outcome.ranks = state->Ranks();
  outcome.details = state->ResultDetails();
  return outcome;
}

}  // namespace boneyard::cli
