// `boneyard games [--json]`: every registered game with its seats, rule options, presets and
// bots, so a user (or a script) can find out what --game, --rules and --seats accept.
#include <ostream>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/bots/bot.h"
#include "engine/cli/args.h"
#include "engine/cli/commands.h"
#include "engine/cli/common.h"
#include "engine/core/registry.h"
#include "nlohmann/json.hpp"

namespace boneyard::cli {
namespace {

using nlohmann::json;

std::string KindName(OptionType type) {
  switch (type) {
    case OptionType::kBool:
      return "bool";
    case OptionType::kInt:
      return "int";
    case OptionType::kChoice:
      return "choice";
  }
  return "";
}

json OptionToJson(const OptionSpec& option) {
  const bool is_int = option.type == OptionType::kInt;
  return {{"name", option.name},
          {"type", option.TypeName()},
          {"kind", KindName(option.type)},
          {"default", OptionValueToJson(option.default_value)},
          {"min", is_int ? json(option.min) : json(nullptr)},
          {"max", is_int ? json(option.max) : json(nullptr)},
          {"choices", option.choices},
          {"description", option.description}};
}

json PresetToJson(const Preset& preset) {
  json values = json::object();
  for (const auto& [name, value] : preset.values) values[name] = OptionValueToJson(value);
  return {{"name", preset.name}, {"description", preset.description}, {"values", values}};
}

// {"search": 5}: the kinds that offer levels 1..N ("kind:level" in --seats).
json BotLevels(const std::string& game) {
  json levels = json::object();
  for (const std::string& bot : DefaultBots().BotsFor(game)) {
    if (int n = DefaultBots().LevelsOf(game, bot); n > 0) levels[bot] = n;
  }
  return levels;
}

// "random, greedy, search (levels 1-5)".
std::string BotsText(const std::string& game) {
  return absl::StrJoin(DefaultBots().BotsFor(game), ", ",
                       [&](std::string* out, const std::string& bot) {
                         absl::StrAppend(out, bot);
                         if (int n = DefaultBots().LevelsOf(game, bot); n > 0)
                           absl::StrAppend(out, " (levels 1-", n, ")");
                       });
}

json GameToJson(const GameSpec& spec) {
  json options = json::array();
  for (const OptionSpec& option : spec.options) options.push_back(OptionToJson(option));
  json presets = json::array();
  for (const Preset& preset : spec.presets) presets.push_back(PresetToJson(preset));
  return {{"name", spec.name},
          {"title", spec.title},
          {"summary", spec.summary},
          {"min_seats", spec.min_seats},
          {"max_seats", spec.max_seats},
          {"options", options},
          {"presets", presets},
          {"bots", DefaultBots().BotsFor(spec.name)},
          {"bot_levels", BotLevels(spec.name)},
          {"default_bot", spec.default_bot}};
}

std::string PresetValuesText(const Preset& preset) {
  return absl::StrJoin(preset.values, ",", [](std::string* out, const auto& kv) {
    absl::StrAppend(out, kv.first, "=", OptionValueToString(kv.second));
  });
}

void PrintGameText(const GameSpec& spec, std::ostream& out) {
  out << spec.name << " — " << spec.title << "\n  " << spec.summary << "\n";
  out << "  seats: "
      << (spec.min_seats == spec.max_seats ? absl::StrCat(spec.min_seats)
                                           : absl::StrCat(spec.min_seats, "-", spec.max_seats))
      << "\n";
  out << "  rule options (--rules name=value,...):\n";
  for (const OptionSpec& option : spec.options) {
    out << "    " << option.name << " (" << option.TypeName() << ", default "
        << OptionValueToString(option.default_value) << "): " << option.description << "\n";
  }
  if (!spec.presets.empty()) {
    out << "  presets (--rules preset=name):\n";
    for (const Preset& preset : spec.presets) {
      out << "    " << preset.name << ": " << preset.description << " [" << PresetValuesText(preset)
          << "]\n";
    }
  }
  out << "  bots: " << BotsText(spec.name) << "; default " << spec.default_bot
      << " (it stands in for a timed-out seat; --seats default)\n";
}

}  // namespace

int RunGames(const std::vector<std::string>& args, Io& io) {
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, {{"json", FlagKind::kSwitch}});
  if (!parsed.ok()) return UsageError(io, parsed.status().message(), kGamesUsage);
  if (parsed->Has("help")) return PrintCommandHelp(io, kGamesUsage);

  const std::vector<const GameSpec*> games = DefaultRegistry().List();
  if (parsed->Has("json")) {
    json all = json::array();
    for (const GameSpec* spec : games) all.push_back(GameToJson(*spec));
    io.out << all.dump(2) << "\n";
    return kExitOk;
  }
  for (size_t i = 0; i < games.size(); ++i) {
    if (i > 0) io.out << "\n";
    PrintGameText(*games[i], io.out);
  }
  return kExitOk;
}

}  // namespace boneyard::cli
