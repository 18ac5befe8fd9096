#include "engine/cli/common.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/core/registry.h"

namespace boneyard::cli {

std::string Usage() {
  return absl::StrCat(
      "usage: boneyard <command> [flags]\n"
      "\n"
      "commands:\n"
      "  games      list the games, their rule options, presets and bots\n"
      "             ", kGamesUsage, "\n",
      "  simulate   play many bot matches and summarise them\n"
      "             ", kSimulateUsage, "\n",
      "  match-bots compare two bots on duplicate deals (seats rotated), with a 95% interval\n"
      "             ", kMatchBotsUsage, "\n",
      "  replay     check a game record and show where it stands\n"
      "             ", kReplayUsage, "\n",
      "  play       play against bots in the terminal\n"
      "             ", kPlayUsage, "\n",
      "  help       this text ('boneyard <command> --help' for one command)\n"
      "\n"
      "exit codes: 0 ok, 1 internal error, 2 bad command line, 3 bad input data\n"
      "docs/cli.md describes every flag and output.\n");
}

int UsageError(Io& io, absl::string_view message, absl::string_view usage) {
  io.err << "boneyard: " << message << "\nusage: " << usage << "\n";
  return kExitUsage;
}

int Fail(Io& io, ExitCode code, absl::string_view message) {
  io.err << "boneyard: " << message << "\n";
  return code;
}

int PrintCommandHelp(Io& io, absl::string_view usage) {
  io.out << "usage: " << usage << "\nSee docs/cli.md for every flag and output field.\n";
  return kExitOk;
}


absl::StatusOr<std::vector<std::string>> ParseSeatList(absl::string_view text) {
  std::vector<std::string> seats;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    part = absl::StripAsciiWhitespace(part);
    if (part.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--seats '", text, "' has an empty entry; list one bot per seat"));
    }
    seats.emplace_back(part);
  }
  return seats;
}

std::vector<std::string> ResolveDefaultBots(const Game& game, std::vector<std::string> seats) {
  const GameSpec* spec = DefaultRegistry().Find(game.name());
  for (std::string& seat : seats) {
    if (seat == kDefaultBot && spec != nullptr) seat = spec->default_bot;
  }
  return seats;
}

namespace {

bool HasOption(const GameSpec& spec, absl::string_view name) {
  for (const OptionSpec& option : spec.options) {
    if (option.name == name) return true;
  }
  return false;
}

bool Overrides(const RuleText& rules, absl::string_view name) {
  for (const auto& [option, value] : rules) {
    if (option == name) return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<std::shared_ptr<const Game>> CreateGameForSeats(absl::string_view game,
                                                               absl::string_view rules_text,
                                                               int num_seats) {
  const GameRegistry& registry = DefaultRegistry();
  const GameSpec* spec = registry.Find(game);
  // The registry's own error lists the games; let it speak.
  if (spec == nullptr) return registry.CreateGame(game, RuleText{}).status();

  // Checked before the rules so "players must be between 2 and 4" never appears for a rule
  // the user did not write.
  if (num_seats < spec->min_seats || num_seats > spec->max_seats) {
    const std::string range = spec->min_seats == spec->max_seats
                                  ? absl::StrCat(spec->min_seats)
                                  : absl::StrCat(spec->min_seats, " to ", spec->max_seats);
    return absl::InvalidArgumentError(absl::StrCat("--seats lists ", num_seats, " seat",
                                                   num_seats == 1 ? "" : "s", "; ", spec->name,
                                                   " is played by ", range));
  }
  absl::StatusOr<RuleText> rules = ParseRuleText(rules_text);
  if (!rules.ok()) return absl::InvalidArgumentError(absl::StrCat("--rules: ", rules.status().message()));
  if (HasOption(*spec, "players") && !Overrides(*rules, "players")) {
    rules->emplace_back("players", absl::StrCat(num_seats));
  }
  absl::StatusOr<std::shared_ptr<const Game>> made = registry.CreateGame(game, *rules);
  if (!made.ok()) return made.status();
  if ((*made)->num_seats() != num_seats) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--seats lists ", num_seats, " seats but ", game, " with ", (*made)->rules().ToString(),
        " has ", (*made)->num_seats()));
  }
  return made;
}

absl::StatusOr<std::string> ReadInput(const std::string& path, std::istream& in) {
  if (path == "-") {
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) return absl::UnavailableError("cannot read standard input");
    return text.str();
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    return absl::NotFoundError(absl::StrCat("cannot open '", path, "': ", std::strerror(errno)));
  }
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (file.bad()) return absl::UnavailableError(absl::StrCat("cannot read '", path, "'"));
  return text;
}

absl::Status WriteTextFile(const std::string& path, absl::string_view contents) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) {
    return absl::UnavailableError(
        absl::StrCat("cannot write '", path, "': ", std::strerror(errno)));
  }
  file.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  file.close();
  if (!file) return absl::UnavailableError(absl::StrCat("cannot write '", path, "'"));
  return absl::OkStatus();
}

}  // namespace boneyard::cli
