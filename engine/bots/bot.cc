#include "engine/bots/bot.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/core/registry.h"

namespace boneyard {

Action RandomBot::ChooseAction(const View& view, std::span<const Action> legal) {
  return legal[rng_.Below(static_cast<uint32_t>(legal.size()))];
}

Action AskBot(Bot& bot, const State& state, int seat, std::span<const Action> legal,
              uint64_t seed, std::chrono::steady_clock::time_point deadline) {
  const std::unique_ptr<View> view = state.ViewFor(seat);
  if (!bot.SearchesWorlds()) return bot.ChooseAction(*view, legal);
  const SeatWorlds worlds(state, seat, seed);
  return bot.ChooseWithWorlds(*view, legal, worlds, deadline);
}

void BotRegistry::Register(std::string game, std::string bot, BotFactory factory, int levels) {
  factories_[std::move(game)][std::move(bot)] = Kind{std::move(factory), levels};
}

int BotRegistry::LevelsOf(absl::string_view game, absl::string_view bot) const {
  auto it = factories_.find(game);
  if (it == factories_.end()) return 0;
  auto kind = it->second.find(bot);
  return kind == it->second.end() ? 0 : kind->second.levels;
}

absl::Status BotRegistry::CheckLevel(absl::string_view game, absl::string_view bot,
                                     int level) const {
  const int levels = LevelsOf(game, bot);
  if (level >= 0 && level <= levels) return absl::OkStatus();
  return absl::InvalidArgumentError(
      levels == 0 ? absl::StrCat("bot '", bot, "' offers only its default level 0, not ", level)
                  : absl::StrCat("bot '", bot, "' offers levels 1 to ", levels,
                                 " (0 for its default), not ", level));
}

std::vector<std::string> BotRegistry::BotsFor(absl::string_view game) const {
  std::vector<std::string> out{"random"};
  auto it = factories_.find(game);
  if (it != factories_.end()) {
    for (const auto& [name, f] : it->second) {
      if (name != "random") out.push_back(name);
    }
  }
  return out;
}

absl::StatusOr<std::unique_ptr<Bot>> BotRegistry::Make(absl::string_view bot, const Game& game,
                                                       uint64_t seed, int level) const {
  if (const size_t colon = bot.find(':'); colon != absl::string_view::npos && level == 0) {
    int parsed = 0;
    if (!absl::SimpleAtoi(bot.substr(colon + 1), &parsed) || parsed <= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("bot '", bot, "': the level after ':' must be a positive whole number"));
    }
    return Make(bot.substr(0, colon), game, seed, parsed);
  }
  auto it = factories_.find(game.name());
  const Kind* kind = nullptr;
  if (it != factories_.end()) {
    if (auto f = it->second.find(bot); f != it->second.end()) kind = &f->second;
  }
  if (kind == nullptr && bot != "random") {
    return absl::NotFoundError(absl::StrCat("unknown bot '", bot, "' for ", game.name(),
                                            " (bots: ", absl::StrJoin(BotsFor(game.name()), ", "),
                                            ")"));
  }
  if (absl::Status s = CheckLevel(game.name(), bot, level); !s.ok()) return s;
  if (kind != nullptr) return kind->factory(game, seed, level);
  return std::make_unique<RandomBot>(seed);
}

absl::StatusOr<std::unique_ptr<Bot>> BotRegistry::MakeDefault(const Game& game,
                                                              uint64_t seed) const {
  const GameSpec* spec = DefaultRegistry().Find(game.name());
  if (spec == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("no default bot: '", game.name(), "' is not registered"));
  }
  return Make(spec->default_bot, game, seed);
}

const BotRegistry& DefaultBots() {
  static const BotRegistry* registry = [] {
    auto* r = new BotRegistry;
    RegisterAllBots(*r);
    return r;
  }();
  return *registry;
}

}  // namespace boneyard
