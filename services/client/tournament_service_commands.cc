// The `boneyard tournament` subcommands that talk to the tournament service
// (proto/boneyard/v1/tournament.proto). The matchmaking service serves it, so they reach it and
// authenticate exactly as the matchmaking commands do: --matchmaking-target, the player's token
// (--player-token-file or $BONEYARD_PLAYER_TOKEN) for registering and withdrawing, the operator
// token for creating, starting and advancing, and --json for the API's own answer.
//
// Every argument is checked before a token is read or a call made, so a bad command line is
// exit 2 whether or not a service is running.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/types/span.h"
#include "boneyard/v1/tournament.grpc.pb.h"
#include "boneyard/v1/tournament.pb.h"
#include "engine/cli/args.h"
#include "engine/cli/common.h"
#include "services/client/command_common.h"
#include "services/common/engine_proto.h"
#include "services/matchmaking/tournament/trf.h"

namespace boneyard::client {
namespace {

using Stub = v1::TournamentService::Stub;
using Tournament = v1::Tournament;
using EntrantNames = std::map<int32_t, std::string>;

// Entrant and round numbers are int32 in the API.
constexpr int64_t kMaxNumber = std::numeric_limits<int32_t>::max();

template <class Enum>
using Choices = absl::Span<const std::pair<absl::string_view, Enum>>;

// The words --format takes, which are also how the text output names the formats.
constexpr std::pair<absl::string_view, Tournament::Format> kFormats[] = {
    {"swiss", Tournament::SWISS},
    {"round-robin", Tournament::ROUND_ROBIN},
    {"knockout", Tournament::KNOCKOUT},
    {"partner-rotation", Tournament::PARTNER_ROTATION},
    {"arena", Tournament::ARENA},
    {"league", Tournament::LEAGUE}};

absl::string_view FormatWord(Tournament::Format format) {
  for (const auto& [word, value] : kFormats) {
    if (value == format) return word;
  }
  return "?";
}

template <class Enum>
absl::StatusOr<Enum> ParseChoice(const Choices<Enum>& choices, absl::string_view flag,
                                 absl::string_view text) {
  const std::string lower = absl::AsciiStrToLower(text);
  std::vector<absl::string_view> words;
  for (const auto& [word, value] : choices) {
    if (word == lower) return value;
    words.push_back(word);
  }
  const absl::string_view last = words.back();
  words.pop_back();
  return absl::InvalidArgumentError(absl::StrCat(flag, " must be ", absl::StrJoin(words, ", "),
                                                 " or ", last, ", got '", text, "'"));
}

std::unique_ptr<Stub> NewTournamentStub(const cli::ParsedArgs& args) {
  return v1::TournamentService::NewStub(MatchmakingChannel(args));
}

// The operator's token for the operator's calls (none is a usage error), else whatever token
// CallToken finds; nullopt and `token` set, or the exit code.
std::optional<int> GetToken(const cli::ParsedArgs& args, cli::Io& io, TokenUse use,
                            std::string& token) {
  if (use == TokenUse::kOperator) return GetOperatorToken(args, io, kTournamentUsage, token);
  absl::StatusOr<std::string> found = CallToken(args);
  if (!found.ok()) return cli::Fail(io, cli::kExitBadInput, found.status().message());
  token = *std::move(found);
  return std::nullopt;
}

// "tournaments/ID" from the word after the subcommand, which may have at most `extra` words
// after it.
absl::StatusOr<std::string> TournamentArg(const cli::ParsedArgs& args, size_t extra) {
  const std::vector<std::string>& words = args.positional();
  if (words.size() < 2 || absl::StripAsciiWhitespace(words[1]).empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("tournament ", words[0], " needs a tournament id"));
  }
  if (words.size() > 2 + extra) {
    return absl::InvalidArgumentError(absl::StrCat("unexpected argument '", words[2 + extra], "'"));
  }
  return Named("tournaments", absl::StripAsciiWhitespace(words[1]));
}

// The positive number in word `index`, if there is one; `what` names it in the error.
absl::StatusOr<std::optional<int32_t>> NumberArg(const cli::ParsedArgs& args, size_t index,
                                                 absl::string_view what) {
  if (args.positional().size() <= index) return std::optional<int32_t>();
  absl::StatusOr<int64_t> number = cli::ParseInt(args.positional()[index], what, 1, kMaxNumber);
  if (!number.ok()) return number.status();
  return std::optional<int32_t>(static_cast<int32_t>(*number));
}

// "2,3" → {2, 3}, for --bye-rounds.
absl::StatusOr<std::vector<int32_t>> ParseRounds(absl::string_view text, absl::string_view flag) {
  std::vector<int32_t> rounds;
  for (absl::string_view word : absl::StrSplit(text, ',')) {
    absl::StatusOr<int64_t> round =
        cli::ParseInt(absl::StripAsciiWhitespace(word), flag, 1, kMaxNumber);
    if (!round.ok()) return round.status();
    rounds.push_back(static_cast<int32_t>(*round));
  }
  return rounds;
}

std::vector<std::string> ParseList(absl::string_view text) {
  std::vector<std::string> items;
  for (absl::string_view item : absl::StrSplit(text, ',', absl::SkipWhitespace())) {
    items.emplace_back(absl::StripAsciiWhitespace(item));
  }
  return items;
}

// ----- text ---------------------------------------------------------------------------------

std::string FormatText(const Tournament& t) {
  std::string text(FormatWord(t.format()));
  if (t.double_round_robin()) absl::StrAppend(&text, " (double)");
  if (t.elimination() == Tournament::DOUBLE) absl::StrAppend(&text, ", double elimination");
  if (t.best_of() > 1) absl::StrAppend(&text, ", best of ", t.best_of());
  // An arena's rounds are its pairing passes so far, not a length.
  if (t.rounds() > 0 && t.format() != Tournament::ARENA) {
    absl::StrAppend(&text, ", ", t.rounds(), t.rounds() == 1 ? " round" : " rounds");
  }
  if (t.team_size() > 1) absl::StrAppend(&text, ", teams of ", t.team_size());
  if (t.table_size() > 0) absl::StrAppend(&text, ", tables of ", t.table_size());
  if (t.duplicate()) absl::StrAppend(&text, ", duplicate deals");
  if (t.has_duration()) {
    absl::StrAppend(&text, ", ", absl::FormatDuration(FromDuration(t.duration())));
  }
  if (t.has_league()) {
    const v1::LeagueSettings& league = t.league();
    if (league.division_size() > 0) {
      absl::StrAppend(&text, ", divisions of ", league.division_size());
    }
    absl::StrAppend(&text, ", a round every ",
                    absl::FormatDuration(FromDuration(league.round_interval())));
    if (league.promotion() > 0) absl::StrAppend(&text, ", ", league.promotion(), " up and down");
    if (!league.previous_season().empty()) {
      absl::StrAppend(&text, ", after ", league.previous_season());
    }
  }
  return text;
}

std::string TournamentLine(const Tournament& t) {
  std::string state = Tournament::State_Name(t.state());
  if (t.state() == Tournament::RUNNING) {
    // A knockout's rounds are known only once its bracket is decided.
    absl::StrAppend(&state, " round ", t.current_round());
    if (t.rounds() > 0 && t.format() != Tournament::ARENA) {
      absl::StrAppend(&state, " of ", t.rounds());
    }
  }
  return absl::StrCat(t.name(), "  ", t.game(), "  ", FormatText(t), "  ", state, "  ",
                      t.entrant_count(), t.entrant_count() == 1 ? " entrant  " : " entrants  ",
                      t.rated() ? "rated" : "casual", t.tiebreaks().empty() ? "" : "  tie-breaks ",
                      absl::StrJoin(t.tiebreaks(), ","), t.manual_rounds() ? "  manual rounds" : "",
                      "  \"", t.display_name(), "\"\n");
}

std::string EntrantLine(const v1::Entrant& e) {
  std::string line = absl::StrCat(e.name(), "  \"", e.display_name(), "\"  ",
                                  e.player_ids().empty() ? absl::StrCat("bot ", e.bot().kind())
                                                         : absl::StrJoin(e.player_ids(), ", "),
                                  absl::StrFormat("  rating %.1f", e.rating()));
  if (!e.bye_rounds().empty()) {
    absl::StrAppend(&line, "  byes ", absl::StrJoin(e.bye_rounds(), ","));
  }
  if (e.withdrawn()) absl::StrAppend(&line, "  withdrawn from round ", e.withdrawn_round());
  return line + "\n";
}

// ASCII, the way cross tables write them ("½" as 1/2).
absl::string_view OutcomeText(v1::Outcome outcome) {
  switch (outcome) {
    case v1::WHITE_WON:
      return "1-0";
    case v1::BLACK_WON:
      return "0-1";
    case v1::DRAWN:
      return "1/2-1/2";
    case v1::BLACK_FORFEITED:
      return "+--";
    case v1::WHITE_FORFEITED:
      return "--+";
    case v1::BOTH_FORFEITED:
      return "----";
    case v1::BYE:
      return "bye";
    default:
      return "playing";
  }
}

std::string EntrantName(const EntrantNames& names, int32_t number) {
  const auto it = names.find(number);
  return it == names.end() ? absl::StrCat("#", number) : it->second;
}

// "board  [tie]  white  result  black  [series W-B]", the columns aligned over the round.
// A table of a round robin at tables: its entrants in seat order, each with "#place points"
// once the game is over ("Ann #1 2  Bo #2 1  Cy #3 0"); one entrant alone "sits out".
// A partner rotation's table is its two teams (seats alternate between them) and, once played,
// each team's points: "Ann & Cy  vs  Bo & Di  1-0".
std::string TableText(const v1::Pairing& p, const EntrantNames& names, bool partners) {
  if (p.outcome() == v1::BYE) return absl::StrCat(EntrantName(names, p.table(0)), "  sits out");
  if (partners) {
    std::vector<std::string> teams[2];
    for (int seat = 0; seat < p.table_size(); ++seat) {
      teams[seat % 2].push_back(EntrantName(names, p.table(seat)));
    }
    return absl::StrCat(
        absl::StrJoin(teams[0], " & "), "  vs  ", absl::StrJoin(teams[1], " & "),
        p.points_size() >= 2 ? absl::StrFormat("  %.3g-%.3g", p.points(0), p.points(1))
                             : "  playing");
  }
  std::vector<std::string> seats;
  for (int seat = 0; seat < p.table_size(); ++seat) {
    std::string text = EntrantName(names, p.table(seat));
    if (seat < p.places_size() && seat < p.points_size()) {
      absl::StrAppend(&text, absl::StrFormat(" #%d %.3g", p.places(seat), p.points(seat)));
    }
    seats.push_back(std::move(text));
  }
  return absl::StrCat(absl::StrJoin(seats, "  "), p.places_size() == 0 ? "  playing" : "");
}

// A finished duplicate round: its seed, then each hand's holders best first, as
// "seat 2 of 4:" and "  1.00  Ann (board 2) #1 12", one holder a line.
std::string ComparisonsText(const v1::Round& round, const EntrantNames& names) {
  if (!round.has_seed()) return "";
  std::string text = absl::StrCat("seed ", round.seed(), "\n");
  for (const v1::HandComparison& c : round.comparisons()) {
    absl::StrAppend(&text, "seat ", c.seat() + 1, " of ", c.table_size(), ":\n");
    for (const v1::HandResult& r : c.results()) {
      absl::StrAppend(&text, absl::StrFormat("  %4.2f  %s (board %d) #%d %g", r.matchpoints(),
                                             EntrantName(names, r.entrant()), r.board(),
                                             r.place(), r.score()));
      if (r.pips_left() > 0) absl::StrAppend(&text, " (", r.pips_left(), " pips left)");
      text += "\n";
    }
  }
  return text;
}

std::string PairingsText(const v1::Round& round, const EntrantNames& names, bool series,
                         bool partners) {
  size_t name_width = 0;
  size_t tie_width = 0;
  for (const v1::Pairing& p : round.pairings()) {
    name_width = std::max(
        {name_width, EntrantName(names, p.white()).size(), EntrantName(names, p.black()).size()});
    tie_width = std::max(tie_width, p.tie().size());
  }
  std::string text = absl::StrCat(round.name(), "  ", v1::Round::State_Name(round.state()));
  if (round.has_deadline()) {  // a league's round: its dates
    absl::StrAppend(&text, "  opens ", absl::FormatTime(FromTimestamp(round.start_time())),
                    "  closes ", absl::FormatTime(FromTimestamp(round.deadline())));
  }
  text += "\n";
  for (const v1::Pairing& p : round.pairings()) {
    absl::StrAppend(&text, absl::StrFormat("%3d  ", p.board()));
    if (p.table_size() > 0) {
      absl::StrAppend(&text, TableText(p, names, partners), "\n");
      continue;
    }
    if (tie_width > 0) absl::StrAppend(&text, absl::StrFormat("%-*s  ", tie_width, p.tie()));
    const std::string white = EntrantName(names, p.white());
    if (p.black() == 0) {
      absl::StrAppend(&text, white, "  bye\n");
      continue;
    }
    absl::StrAppend(&text,
                    absl::StrFormat("%-*s  %-7s  ", name_width, white, OutcomeText(p.outcome())));
    if (series) {
      absl::StrAppend(
          &text, absl::StrFormat("%-*s  series %d-%d", name_width, EntrantName(names, p.black()),
                                 p.white_wins(), p.black_wins()));
    } else {
      absl::StrAppend(&text, EntrantName(names, p.black()));
    }
    text += "\n";
  }
  absl::StrAppend(&text, ComparisonsText(round, names));
  return text;
}

// Partner rotation's matrix: "partners/opponents" for each pair, rows and columns by entrant
// number.
std::string PairCountsText(const v1::Standings& standings) {
  const v1::PairCounts& c = standings.pair_counts();
  const int n = c.entrants_size();
  if (c.partners_size() != n * n || c.opponents_size() != n * n) return "";
  std::string text = "partners/opponents\n     ";
  for (int j = 0; j < n; ++j) absl::StrAppend(&text, absl::StrFormat(" %5d", c.entrants(j)));
  text += "\n";
  for (int i = 0; i < n; ++i) {
    absl::StrAppend(&text, absl::StrFormat("%5d", c.entrants(i)));
    for (int j = 0; j < n; ++j) {
      absl::StrAppend(&text, i == j
                                 ? absl::StrFormat(" %5s", "-")
                                 : absl::StrFormat(" %5s", absl::StrCat(c.partners(i * n + j), "/",
                                                                        c.opponents(i * n + j))));
    }
    text += "\n";
  }
  return text;
}

// An arena's games shown on a leaderboard line: the latest; an hour's arena plays hundreds.
constexpr int kSheetGames = 20;

// Laid out like the offline `standings`: points with one decimal, tie-breaks with two; an
// arena's sheet (each game's points, the last kSheetGames of them) last.
std::string StandingsText(const v1::Standings& standings) {
  std::string text = absl::StrFormat("%-5s %-24s", "rank", "name");
  for (const std::string& column : standings.columns()) {
    absl::StrAppend(&text, absl::StrFormat(" %6s", column));
  }
  text += "\n";
  int division = 0;
  for (const v1::StandingRow& row : standings.rows()) {
    if (row.division() != division) {  // a league's divisions, each ranked on its own
      division = row.division();
      absl::StrAppend(&text, "division ", division, "\n");
    }
    absl::StrAppend(&text,
                    absl::StrFormat("%-5d %-24s", row.rank(), row.display_name().substr(0, 24)));
    for (int k = 0; k < row.values_size(); ++k) {
      // Both arms string_view: a mixed conditional would make a temporary std::string.
      const absl::string_view column =
          k < standings.columns_size() ? absl::string_view(standings.columns(k)) : "";
      // An arena's counts are whole numbers.
      const bool count = column == "GAMES" || column == "WINS" || column == "STREAK";
      const int decimals = column == "PTS" ? 1 : count ? 0 : 2;
      absl::StrAppend(&text, absl::StrFormat(" %6.*f", decimals, row.values(k)));
    }
    if (row.sheet_size() > 0) {
      const int from = std::max(0, row.sheet_size() - kSheetGames);
      absl::StrAppend(&text, from > 0 ? "  ... " : "  ",
                      absl::StrJoin(row.sheet().begin() + from, row.sheet().end(), " "));
    }
    absl::StrAppend(&text, row.withdrawn() ? "  withdrawn\n" : "\n");
  }
  if (standings.has_pair_counts()) absl::StrAppend(&text, "\n", PairCountsText(standings));
  return text;
}

// ----- create -------------------------------------------------------------------------------

// --per-move and --timeout-policy, as `boneyard create` takes them.
absl::Status ParseClock(const cli::ParsedArgs& args, Tournament& t) {
  const std::optional<std::string> per_move = args.Value("per-move");
  const std::optional<std::string> policy = args.Value("timeout-policy");
  if (policy.has_value() && !per_move.has_value()) {
    return absl::InvalidArgumentError("--timeout-policy needs --per-move (a clock)");
  }
  if (!per_move.has_value()) return absl::OkStatus();
  absl::StatusOr<absl::Duration> duration = ParseDurationFlag(*per_move, "--per-move");
  if (!duration.ok()) return duration.status();
  if (*duration <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("--per-move must be longer than 0s");
  }
  *t.mutable_clock()->mutable_per_move() = ToDuration(*duration);
  if (!policy.has_value()) return absl::OkStatus();
  absl::StatusOr<v1::ClockSettings::TimeoutPolicy> parsed =
      ParseChoice<v1::ClockSettings::TimeoutPolicy>(
          {{"auto", v1::ClockSettings::AUTO_PLAY_DEFAULT_BOT},
           {"forfeit", v1::ClockSettings::FORFEIT}},
          "--timeout-policy", *policy);
  if (!parsed.ok()) return parsed.status();
  t.mutable_clock()->set_timeout_policy(*parsed);
  return absl::OkStatus();
}

// The flags that belong to one format: the service would refuse or ignore them with another.
absl::Status CheckFormatFlags(const cli::ParsedArgs& args, Tournament::Format format) {
  // Tables are for round robins and Swiss; at tables a round robin takes --rounds too (0 or
  // unset: enough to meet everyone once). Partner rotation's tables are the game's: it takes
  // --placement-points and --rounds, not the sizes.
  const bool tables = args.Value("table-size").has_value();
  for (const char* flag : {"table-size", "min-table-size", "placement-points"}) {
    const bool refused =
        format == Tournament::KNOCKOUT ||
        (format == Tournament::PARTNER_ROTATION && absl::string_view(flag) != "placement-points");
    if (refused && args.Value(flag).has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--", flag, " is only for --format round-robin or swiss"));
    }
  }
  if (args.Has("duplicate") && !tables && format != Tournament::PARTNER_ROTATION) {
    return absl::InvalidArgumentError(
        "--duplicate is for tables (--table-size) and --format partner-rotation");
  }
  const bool rounds_elsewhere =
      (tables && format == Tournament::ROUND_ROBIN) || format == Tournament::PARTNER_ROTATION;
  const std::pair<const char*, Tournament::Format> owners[] = {
      {"rounds", rounds_elsewhere ? format : Tournament::SWISS},
      {"double", Tournament::ROUND_ROBIN},
      {"elimination", Tournament::KNOCKOUT},
      {"best-of", Tournament::KNOCKOUT}};
  for (const auto& [flag, owner] : owners) {
    if (owner != format && (args.Has(flag) || args.Value(flag).has_value())) {
      return absl::InvalidArgumentError(
          absl::StrCat("--", flag, " is only for --format ", FormatWord(owner)));
    }
  }
  if (format == Tournament::SWISS && !args.Value("rounds").has_value()) {
    return absl::InvalidArgumentError("--format swiss needs --rounds N");
  }
  const char* league_flags[] = {"round-interval", "round-deadline", "first-round",
                                "division-size",  "promotion",      "previous-season"};
  for (const char* flag : league_flags) {
    if (format != Tournament::LEAGUE && args.Value(flag).has_value()) {
      return absl::InvalidArgumentError(absl::StrCat("--", flag, " is only for --format league"));
    }
  }
  if (format == Tournament::LEAGUE && !args.Value("round-interval").has_value()) {
    return absl::InvalidArgumentError("--format league needs --round-interval D (e.g. 168h)");
  }
  if ((format == Tournament::ARENA) != args.Value("duration").has_value()) {
    return absl::InvalidArgumentError(format == Tournament::ARENA
                                          ? "--format arena needs --duration D (e.g. 30m)"
                                          : "--duration is only for --format arena");
  }
  return absl::OkStatus();
}

// --round-interval, --round-deadline, --first-round (RFC 3339), --division-size, --promotion
// and --previous-season.
absl::Status ParseLeague(const cli::ParsedArgs& args, v1::LeagueSettings& league) {
  const std::pair<const char*, google::protobuf::Duration* (v1::LeagueSettings::*)()> durations[] =
      {{"round-interval", &v1::LeagueSettings::mutable_round_interval},
       {"round-deadline", &v1::LeagueSettings::mutable_round_deadline}};
  for (const auto& [flag, field] : durations) {
    const std::optional<std::string> text = args.Value(flag);
    if (!text.has_value()) continue;
    absl::StatusOr<absl::Duration> parsed = ParseDurationFlag(*text, absl::StrCat("--", flag));
    if (!parsed.ok()) return parsed.status();
    *(league.*field)() = ToDuration(*parsed);
  }
  if (const std::optional<std::string> first = args.Value("first-round")) {
    absl::Time when;
    std::string error;
    if (!absl::ParseTime(absl::RFC3339_full, *first, &when, &error)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--first-round must be a time such as 2026-12-01T19:00:00Z, got '", *first,
                       "'"));
    }
    *league.mutable_first_round_time() = ToTimestamp(when);
  }
  const std::pair<const char*, void (v1::LeagueSettings::*)(int32_t)> numbers[] = {
      {"division-size", &v1::LeagueSettings::set_division_size},
      {"promotion", &v1::LeagueSettings::set_promotion}};
  for (const auto& [flag, set] : numbers) {
    absl::StatusOr<std::optional<int64_t>> value = args.Int(flag, 0, 64);
    if (!value.ok()) return value.status();
    if (value->has_value()) (league.*set)(static_cast<int32_t>(**value));
  }
  if (const std::optional<std::string> previous = args.Value("previous-season")) {
    league.set_previous_season(Named("tournaments", absl::StripAsciiWhitespace(*previous)));
  }
  return absl::OkStatus();
}

// The settings of `create`, or of `import` (`imported`: a Swiss whose rounds the file may
// give, so neither --format nor --rounds is needed).
absl::StatusOr<Tournament> TournamentFromFlags(const cli::ParsedArgs& args, bool imported) {
  Tournament t;
  const std::optional<std::string> game = args.Value("game");
  if (!game.has_value()) return absl::InvalidArgumentError("--game is required");
  t.set_game(*game);
  // An import is named as its file names it (the service's default) unless --name says.
  t.set_display_name(imported ? args.Value("name").value_or("")
                              : args.Value("name").value_or(args.Value("id").value_or(*game)));
  const std::optional<std::string> format = args.Value("format");
  if (imported) {
    if (format.has_value() && *format != "swiss") {
      return absl::InvalidArgumentError("import continues a swiss only");
    }
    t.set_format(Tournament::SWISS);
  } else {
    if (!format.has_value()) {
      return absl::InvalidArgumentError(
          "--format is required: swiss, round-robin, knockout, partner-rotation, arena or league");
    }
    absl::StatusOr<Tournament::Format> parsed_format =
        ParseChoice<Tournament::Format>(kFormats, "--format", *format);
    if (!parsed_format.ok()) return parsed_format.status();
    t.set_format(*parsed_format);
    if (absl::Status s = CheckFormatFlags(args, t.format()); !s.ok()) return s;
  }
  const std::tuple<const char*, int64_t, void (Tournament::*)(int32_t)> numbers[] = {
      {"rounds", 100, &Tournament::set_rounds},
      {"team-size", 4, &Tournament::set_team_size},
      {"best-of", 9, &Tournament::set_best_of},
      {"table-size", 8, &Tournament::set_table_size},
      {"min-table-size", 8, &Tournament::set_min_table_size}};
  for (const auto& [flag, max, set] : numbers) {
    absl::StatusOr<std::optional<int64_t>> value = args.Int(flag, 1, max);
    if (!value.ok()) return value.status();
    if (value->has_value()) (t.*set)(static_cast<int32_t>(**value));
  }
  t.set_double_round_robin(args.Has("double"));
  t.set_duplicate(args.Has("duplicate"));
  if (const std::optional<std::string> elimination = args.Value("elimination")) {
    absl::StatusOr<Tournament::Elimination> parsed = ParseChoice<Tournament::Elimination>(
        {{"single", Tournament::SINGLE}, {"double", Tournament::DOUBLE}}, "--elimination",
        *elimination);
    if (!parsed.ok()) return parsed.status();
    t.set_elimination(*parsed);
  }
  for (const std::string& item : ParseList(args.Value("placement-points").value_or(""))) {
    double points = 0;
    if (!absl::SimpleAtod(item, &points)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--placement-points takes numbers (3,2,1,0), got '", item, "'"));
    }
    t.add_placement_points(points);
  }
  for (std::string& name : ParseList(args.Value("tiebreaks").value_or(""))) {
    t.add_tiebreaks(std::move(name));
  }
  t.set_rated(args.Has("rated"));
  t.set_manual_rounds(args.Has("manual-rounds"));
  if (const std::optional<std::string> rules = args.Value("rules")) {
    absl::StatusOr<RuleMap> parsed = ParseRulesFlag(*game, *rules);
    if (!parsed.ok()) return parsed.status();
    *t.mutable_rules() = *std::move(parsed);
  }
  if (absl::Status s = ParseClock(args, t); !s.ok()) return s;
  if (const std::optional<std::string> duration = args.Value("duration")) {
    absl::StatusOr<absl::Duration> parsed = ParseDurationFlag(*duration, "--duration");
    if (!parsed.ok()) return parsed.status();
    *t.mutable_duration() = ToDuration(*parsed);
  }
  if (t.format() == Tournament::LEAGUE) {
    if (absl::Status s = ParseLeague(args, *t.mutable_league()); !s.ok()) return s;
  }
  return t;
}

int RunCreateTournament(const cli::ParsedArgs& args, cli::Io& io) {
  if (args.positional().size() > 1) {
    return cli::UsageError(io, absl::StrCat("unexpected argument '", args.positional()[1], "'"),
                           kTournamentUsage);
  }
  absl::StatusOr<Tournament> settings = TournamentFromFlags(args, /*imported=*/false);
  if (!settings.ok()) return cli::UsageError(io, settings.status().message(), kTournamentUsage);
  std::string token;
  if (std::optional<int> code = GetToken(args, io, TokenUse::kOperator, token)) return *code;
  v1::CreateTournamentRequest request;
  *request.mutable_tournament() = *std::move(settings);
  request.set_tournament_id(args.Value("id").value_or(""));
  Tournament created;
  grpc::Status status =
      NewTournamentStub(args)->CreateTournament(CallContext(token).get(), request, &created);
  if (!status.ok()) return RpcFailure(io, "CreateTournament", status);
  return Print(args, io, created, TournamentLine(created));
}

// ----- import --------------------------------------------------------------------------------

// One entrant of --entrants (or a name in the file): "bot:KIND", players joined by '+', or a
// player id.
absl::StatusOr<v1::ImportedEntrant> ImportedEntrantOf(absl::string_view item, size_t tpn) {
  v1::ImportedEntrant out;
  if (item.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("entrant ", tpn, " has no name to go by"));
  }
  if (absl::ConsumePrefix(&item, "bot:")) {
    out.mutable_bot()->set_kind(std::string(item));
    return out;
  }
  for (absl::string_view player : absl::StrSplit(item, '+')) {
    out.add_player_ids(std::string(absl::StripAsciiWhitespace(player)));
  }
  return out;
}

int RunImport(const cli::ParsedArgs& args, cli::Io& io) {
  if (args.positional().size() != 2) {
    return cli::UsageError(io, "tournament import needs a TRF file (or - for standard input)",
                           kTournamentUsage);
  }
  absl::StatusOr<Tournament> settings = TournamentFromFlags(args, /*imported=*/true);
  if (!settings.ok()) return cli::UsageError(io, settings.status().message(), kTournamentUsage);
  absl::StatusOr<std::string> text = cli::ReadInput(args.positional()[1], io.in);
  if (!text.ok()) return cli::Fail(io, cli::kExitBadInput, text.status().message());
  // Who the entrants are: --entrants by pairing number, else the names in the file.
  std::vector<std::string> items;
  if (const std::optional<std::string> entrants = args.Value("entrants")) {
    items = ParseList(*entrants);
  } else {
    absl::StatusOr<tournament::EventRecord> event = tournament::ParseTrf(*text);
    if (!event.ok()) return cli::Fail(io, cli::kExitBadInput, event.status().message());
    for (const tournament::Entrant& e : event->entrants) {
      items.emplace_back(absl::StripAsciiWhitespace(e.name));
    }
  }
  v1::ImportTournamentRequest request;
  for (size_t i = 0; i < items.size(); ++i) {
    absl::StatusOr<v1::ImportedEntrant> entrant = ImportedEntrantOf(items[i], i + 1);
    if (!entrant.ok()) return cli::Fail(io, cli::kExitBadInput, entrant.status().message());
    *request.add_entrants() = *std::move(entrant);
  }
  std::string token;
  if (std::optional<int> code = GetToken(args, io, TokenUse::kOperator, token)) return *code;
  *request.mutable_tournament() = *std::move(settings);
  request.set_tournament_id(args.Value("id").value_or(""));
  request.set_trf(*std::move(text));
  Tournament imported;
  grpc::Status status =
      NewTournamentStub(args)->ImportTournament(CallContext(token).get(), request, &imported);
  if (!status.ok()) return RpcFailure(io, "ImportTournament", status);
  return Print(args, io, imported, TournamentLine(imported));
}

// ----- entrants -----------------------------------------------------------------------------

int RunRegister(const cli::ParsedArgs& args, cli::Io& io) {
  absl::StatusOr<std::string> tournament = TournamentArg(args, 0);
  if (!tournament.ok()) return cli::UsageError(io, tournament.status().message(), kTournamentUsage);
  v1::RegisterPlayerRequest request;
  request.set_tournament(*tournament);
  const std::optional<std::string> player = args.Value("player");
  const std::optional<std::string> bot = args.Value("bot");
  if (player.has_value() && bot.has_value()) {
    return cli::UsageError(io, "give --player or --bot, not both", kTournamentUsage);
  }
  if (player.has_value()) request.set_player_id(*player);
  if (bot.has_value()) request.mutable_bot()->set_kind(*bot);
  if (const std::optional<std::string> byes = args.Value("bye-rounds")) {
    absl::StatusOr<std::vector<int32_t>> rounds = ParseRounds(*byes, "--bye-rounds");
    if (!rounds.ok()) return cli::UsageError(io, rounds.status().message(), kTournamentUsage);
    request.mutable_bye_rounds()->Add(rounds->begin(), rounds->end());
  }
  std::string token;
  if (std::optional<int> code = GetToken(args, io, TokenUse::kNone, token)) return *code;
  v1::Entrant entrant;
  grpc::Status status =
      NewTournamentStub(args)->RegisterPlayer(CallContext(token).get(), request, &entrant);
  if (!status.ok()) return RpcFailure(io, "RegisterPlayer", status);
  return Print(args, io, entrant, EntrantLine(entrant));
}

int RunRegisterTeam(const cli::ParsedArgs& args, cli::Io& io) {
  absl::StatusOr<std::string> tournament = TournamentArg(args, 0);
  if (!tournament.ok()) return cli::UsageError(io, tournament.status().message(), kTournamentUsage);
  const std::optional<std::string> players = args.Value("players");
  const std::optional<std::string> party = args.Value("party");
  const std::optional<std::string> bot = args.Value("bot");
  if (players.has_value() + party.has_value() + bot.has_value() != 1) {
    return cli::UsageError(io,
                           "tournament register-team needs one of --players A,B, --party P "
                           "or --bot KIND",
                           kTournamentUsage);
  }
  v1::RegisterTeamRequest request;
  request.set_tournament(*tournament);
  for (std::string& id : ParseList(players.value_or(""))) request.add_player_ids(std::move(id));
  if (party.has_value()) request.set_party(Named("parties", *party));
  if (bot.has_value()) request.mutable_bot()->set_kind(*bot);
  std::string token;
  if (std::optional<int> code = GetToken(args, io, TokenUse::kNone, token)) return *code;
  v1::Entrant entrant;
  grpc::Status status =
      NewTournamentStub(args)->RegisterTeam(CallContext(token).get(), request, &entrant);
  if (!status.ok()) return RpcFailure(io, "RegisterTeam", status);
  return Print(args, io, entrant, EntrantLine(entrant));
}

int RunWithdraw(const cli::ParsedArgs& args, cli::Io& io) {
  absl::StatusOr<std::string> tournament = TournamentArg(args, 1);
  if (!tournament.ok()) return cli::UsageError(io, tournament.status().message(), kTournamentUsage);
  absl::StatusOr<std::optional<int32_t>> number = NumberArg(args, 2, "NUMBER");
  if (!number.ok()) return cli::UsageError(io, number.status().message(), kTournamentUsage);
  if (!number->has_value()) {
    return cli::UsageError(io, "tournament withdraw needs the entrant's NUMBER", kTournamentUsage);
  }
  std::string token;
  if (std::optional<int> code = GetToken(args, io, TokenUse::kNone, token)) return *code;
  v1::WithdrawPlayerRequest request;
  request.set_entrant(absl::StrCat(*tournament, "/entrants/", **number));
  v1::Entrant entrant;
  grpc::Status status =
      NewTournamentStub(args)->WithdrawPlayer(CallContext(token).get(), request, &entrant);
  if (!status.ok()) return RpcFailure(io, "WithdrawPlayer", status);
  return Print(args, io, entrant, EntrantLine(entrant));
}

// Every entrant's display name by number, following the pages.
grpc::Status ListEntrantNames(Stub& stub, const std::string& token, const std::string& tournament,
                              EntrantNames& names) {
  v1::ListEntrantsRequest request;
  request.set_tournament(tournament);
  request.set_page_size(1024);
  do {
    v1::ListEntrantsResponse response;
    grpc::Status status = stub.ListEntrants(CallContext(token).get(), request, &response);
    if (!status.ok()) return status;
    for (const v1::Entrant& e : response.entrants()) names[e.number()] = e.display_name();
    request.set_page_token(response.next_page_token());
  } while (!request.page_token().empty());
  return grpc::Status::OK;
}

// ----- the event ----------------------------------------------------------------------------

int RunStartOrAdvance(const cli::ParsedArgs& args, cli::Io& io) {
  const bool start = args.positional()[0] == "start";
  absl::StatusOr<std::string> tournament = TournamentArg(args, 0);
  if (!tournament.ok()) return cli::UsageError(io, tournament.status().message(), kTournamentUsage);
  std::string token;
  if (std::optional<int> code = GetToken(args, io, TokenUse::kOperator, token)) return *code;
  std::unique_ptr<Stub> stub = NewTournamentStub(args);
  Tournament t;
  grpc::Status status;
  if (start) {
    v1::StartTournamentRequest request;
    request.set_name(*tournament);
    status = stub->StartTournament(CallContext(token).get(), request, &t);
  } else {
    v1::AdvanceTournamentRequest request;
    request.set_name(*tournament);
    status = stub->AdvanceTournament(CallContext(token).get(), request, &t);
  }
  if (!status.ok()) return RpcFailure(io, start ? "StartTournament" : "AdvanceTournament", status);
  return Print(args, io, t, TournamentLine(t));
}

int RunShow(const cli::ParsedArgs& args, cli::Io& io) {
  absl::StatusOr<std::string> tournament = TournamentArg(args, 0);
  if (!tournament.ok()) return cli::UsageError(io, tournament.status().message(), kTournamentUsage);
  std::string token;
  if (std::optional<int> code = GetToken(args, io, TokenUse::kNone, token)) return *code;
  v1::GetTournamentRequest request;
  request.set_name(*tournament);
  Tournament t;
  grpc::Status status =
      NewTournamentStub(args)->GetTournament(CallContext(token).get(), request, &t);
  if (!status.ok()) return RpcFailure(io, "GetTournament", status);
  return Print(args, io, t, TournamentLine(t));
}

// Every page, printed as one response.
int RunList(const cli::ParsedArgs& args, cli::Io& io) {
  if (args.positional().size() > 1) {
    return cli::UsageError(io, absl::StrCat("unexpected argument '", args.positional()[1], "'"),
                           kTournamentUsage);
  }
  v1::ListTournamentsRequest request;
  request.set_page_size(100);
  if (const std::optional<std::string> state = args.Value("state")) {
    absl::StatusOr<Tournament::State> parsed =
        ParseChoice<Tournament::State>({{"registration", Tournament::REGISTRATION},
                                        {"running", Tournament::RUNNING},
                                        {"finished", Tournament::FINISHED}},
                                       "--state", *state);
    if (!parsed.ok()) return cli::UsageError(io, parsed.status().message(), kTournamentUsage);
    request.set_state(*parsed);
  }
  std::string token;
  if (std::optional<int> code = GetToken(args, io, TokenUse::kNone, token)) return *code;
  std::unique_ptr<Stub> stub = NewTournamentStub(args);
  v1::ListTournamentsResponse all;
  do {
    v1::ListTournamentsResponse page;
    grpc::Status status = stub->ListTournaments(CallContext(token).get(), request, &page);
    if (!status.ok()) return RpcFailure(io, "ListTournaments", status);
    all.mutable_tournaments()->MergeFrom(page.tournaments());
    request.set_page_token(page.next_page_token());
  } while (!request.page_token().empty());
  std::string text;
  for (const Tournament& t : all.tournaments()) text += TournamentLine(t);
  return Print(args, io, all, text.empty() ? "no tournaments\n" : text);
}

// ----- rounds and results -------------------------------------------------------------------

// ROUND defaults to the round being played, which only GetTournament knows; the tournament's
// best_of says whether the boards are series.
int RunPairings(const cli::ParsedArgs& args, cli::Io& io) {
  absl::StatusOr<std::string> tournament = TournamentArg(args, 1);
  if (!tournament.ok()) return cli::UsageError(io, tournament.status().message(), kTournamentUsage);
  absl::StatusOr<std::optional<int32_t>> number = NumberArg(args, 2, "ROUND");
  if (!number.ok()) return cli::UsageError(io, number.status().message(), kTournamentUsage);
  std::string token;
  if (std::optional<int> code = GetToken(args, io, TokenUse::kNone, token)) return *code;
  std::unique_ptr<Stub> stub = NewTournamentStub(args);
  v1::GetTournamentRequest get;
  get.set_name(*tournament);
  Tournament t;
  grpc::Status status = stub->GetTournament(CallContext(token).get(), get, &t);
  if (!status.ok()) return RpcFailure(io, "GetTournament", status);
  const int32_t round_number = number->value_or(t.current_round());
  if (round_number == 0) {
    return cli::Fail(io, static_cast<cli::ExitCode>(kExitService),
                     absl::StrCat(t.name(), " has not started: no round is paired yet"));
  }
  v1::GetPairingsRequest request;
  request.set_round(absl::StrCat(*tournament, "/rounds/", round_number));
  v1::Round round;
  status = stub->GetPairings(CallContext(token).get(), request, &round);
  if (!status.ok()) return RpcFailure(io, "GetPairings", status);
  if (args.Has("json")) return Print(args, io, round, "");
  EntrantNames names;
  status = ListEntrantNames(*stub, token, *tournament, names);
  if (!status.ok()) return RpcFailure(io, "ListEntrants", status);
  return Print(
      args, io, round,
      PairingsText(round, names, t.best_of() > 1, t.format() == Tournament::PARTNER_ROTATION));
}

int RunServiceStandings(const cli::ParsedArgs& args, cli::Io& io) {
  absl::StatusOr<std::string> tournament = TournamentArg(args, 0);
  if (!tournament.ok()) return cli::UsageError(io, tournament.status().message(), kTournamentUsage);
  if (args.Value("tiebreaks").has_value()) {
    return cli::UsageError(io,
                           "--tiebreaks is for a TRF file; the service ranks by the event's own",
                           kTournamentUsage);
  }
  absl::StatusOr<std::optional<int64_t>> through = args.Int("through", 1, kMaxNumber);
  if (!through.ok()) return cli::UsageError(io, through.status().message(), kTournamentUsage);
  std::string token;
  if (std::optional<int> code = GetToken(args, io, TokenUse::kNone, token)) return *code;
  v1::GetStandingsRequest request;
  request.set_tournament(*tournament);
  request.set_through_round(static_cast<int32_t>(through->value_or(0)));
  v1::Standings standings;
  grpc::Status status =
      NewTournamentStub(args)->GetStandings(CallContext(token).get(), request, &standings);
  if (!status.ok()) return RpcFailure(io, "GetStandings", status);
  return Print(args, io, standings, StandingsText(standings));
}

int RunExport(const cli::ParsedArgs& args, cli::Io& io) {
  absl::StatusOr<std::string> tournament = TournamentArg(args, 0);
  if (!tournament.ok()) return cli::UsageError(io, tournament.status().message(), kTournamentUsage);
  std::string token;
  if (std::optional<int> code = GetToken(args, io, TokenUse::kNone, token)) return *code;
  v1::ExportTrfRequest request;
  request.set_tournament(*tournament);
  v1::ExportTrfResponse response;
  grpc::Status status =
      NewTournamentStub(args)->ExportTrf(CallContext(token).get(), request, &response);
  if (!status.ok()) return RpcFailure(io, "ExportTrf", status);
  if (const std::optional<std::string> out = args.Value("out")) {
    if (absl::Status s = cli::WriteTextFile(*out, response.trf()); !s.ok()) {
      return cli::Fail(io, cli::kExitBadInput, s.message());
    }
    return cli::kExitOk;
  }
  io.out << response.trf();
  io.out.flush();
  return cli::kExitOk;
}

}  // namespace

std::vector<cli::FlagSpec> TournamentServiceFlags(std::vector<cli::FlagSpec> specs) {
  for (const char* name : {"id",
                           "name",
                           "game",
                           "format",
                           "rounds",
                           "team-size",
                           "best-of",
                           "elimination",
                           "rules",
                           "per-move",
                           "timeout-policy",
                           "player",
                           "bot",
                           "bye-rounds",
                           "players",
                           "party",
                           "state",
                           "through",
                           "entrants",
                           "table-size",
                           "min-table-size",
                           "placement-points",
                           "duration",
                           "round-interval",
                           "round-deadline",
                           "first-round",
                           "division-size",
                           "promotion",
                           "previous-season"}) {
    specs.push_back({name, cli::FlagKind::kValue});
  }
  for (const char* name : {"double", "rated", "manual-rounds", "duplicate"}) {
    specs.push_back({name, cli::FlagKind::kSwitch});
  }
  return MatchmakingFlags(std::move(specs));
}

int RunTournamentService(const cli::ParsedArgs& args, cli::Io& io) {
  const std::string& sub = args.positional()[0];
  if (sub == "create") return RunCreateTournament(args, io);
  if (sub == "register") return RunRegister(args, io);
  if (sub == "register-team") return RunRegisterTeam(args, io);
  if (sub == "withdraw") return RunWithdraw(args, io);
  if (sub == "start" || sub == "advance") return RunStartOrAdvance(args, io);
  if (sub == "show") return RunShow(args, io);
  if (sub == "list") return RunList(args, io);
  if (sub == "pairings") return RunPairings(args, io);
  if (sub == "standings") return RunServiceStandings(args, io);
  if (sub == "export") return RunExport(args, io);
  if (sub == "import") return RunImport(args, io);
  return cli::UsageError(io, absl::StrCat("unknown tournament subcommand: ", sub),
                         kTournamentUsage);
}

}  // namespace boneyard::client
