// Bots see exactly what a seat may know: ViewFor(seat) and that seat's legal actions, never
// the State. So a bot cannot cheat, and the same bot can later run as a remote client.
// A search bot also gets Worlds: states sampled by State::Determinize(seat), where every tile
// hidden from the seat is dealt anew at random, so what it searches holds nothing the seat
// could not know (engine/bots/worlds.h).
// Bots are seeded and deterministic: the same seed, view and legal actions give the same move
// (a search bot: unless its deadline stops it before its work budget).
#ifndef BONEYARD_ENGINE_BOTS_BOT_H_
#define BONEYARD_ENGINE_BOTS_BOT_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

#include "absl/status/statusor.h"
#include "engine/core/action.h"
#include "engine/core/game.h"
#include "engine/core/rng.h"
#include "engine/bots/worlds.h"
#include "engine/core/view.h"

namespace boneyard {

class Bot {
 public:
  virtual ~Bot() = default;
  // `legal` is never empty; the result must be one of its elements.
  virtual Action ChooseAction(const View& view, std::span<const Action> legal) = 0;

  // Whether the bot searches sampled worlds; a host then calls ChooseWithWorlds instead.
  virtual bool SearchesWorlds() const { return false; }
  // The same, with the seat's worlds and a time to answer by (a safety stop: the bot's own
  // work budget normally ends the search first, and keeps it deterministic).
  virtual Action ChooseWithWorlds(const View& view, std::span<const Action> legal,
                                  const Worlds& /*worlds*/,
                                  std::chrono::steady_clock::time_point /*deadline*/) {
    return ChooseAction(view, legal);
  }
};

// Asks `bot` for `seat`'s move in `state`: with worlds sampled from the state (seeded by
// `seed`) when the bot searches them, with the view alone otherwise. For hosts that hold the
// state on the thread that asks (the CLI); the execution service builds the worlds on its
// strand instead.
Action AskBot(Bot& bot, const State& state, int seat, std::span<const Action> legal,
              uint64_t seed,
              std::chrono::steady_clock::time_point deadline =
                  std::chrono::steady_clock::time_point::max());

// Uniform over the legal actions.
class RandomBot : public Bot {
 public:
  explicit RandomBot(uint64_t seed) : rng_(seed) {}
  Action ChooseAction(const View& view, std::span<const Action> legal) override;

 private:
  Rng rng_;
};

// `level` is 1..the kind's levels, or 0 for the kind's default.
using BotFactory =
    std::function<std::unique_ptr<Bot>(const Game& game, uint64_t seed, int level)>;

// Bot kinds by name, per game; "random" works for every game. A kind may offer strength
// levels 1..N; 0 always means its default.
class BotRegistry {
 public:
  void Register(std::string game, std::string bot, BotFactory factory, int levels = 0);
  // NOT_FOUND naming the bots this game has; INVALID_ARGUMENT for a level the kind does not
  // offer. `bot` may also be written "kind:level" (the CLI's seats), when `level` is 0.
  absl::StatusOr<std::unique_ptr<Bot>> Make(absl::string_view bot, const Game& game,
                                            uint64_t seed, int level = 0) const;
  std::vector<std::string> BotsFor(absl::string_view game) const;
  // The levels a kind offers (1..N); 0 when it has only its default, or is unknown.
  int LevelsOf(absl::string_view game, absl::string_view bot) const;
  // INVALID_ARGUMENT naming the bot when it does not offer `level` (negative, or above its
  // levels); what Make, CreateMatch and tournament entries refuse.
  absl::Status CheckLevel(absl::string_view game, absl::string_view bot, int level) const;
  // The game's default bot (GameSpec::default_bot in DefaultRegistry()).
  absl::StatusOr<std::unique_ptr<Bot>> MakeDefault(const Game& game, uint64_t seed) const;

 private:
  struct Kind {
    BotFactory factory;
    int levels = 0;
  };
  std::map<std::string, std::map<std::string, Kind, std::less<>>, std::less<>> factories_;
};

// Every built-in bot (engine/games/register_all.cc).
void RegisterAllBots(BotRegistry& registry);
const BotRegistry& DefaultBots();

}  // namespace boneyard

#endif  // BONEYARD_ENGINE_BOTS_BOT_H_
