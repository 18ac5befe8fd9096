#include "services/client/command_common.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/cli/common.h"
#include "engine/core/registry.h"
#include "engine/core/rules.h"
#include "services/client/channel.h"
#include "services/common/engine_proto.h"

namespace boneyard::client {

std::vector<cli::FlagSpec> ServiceFlags(std::vector<cli::FlagSpec> specs, TokenUse token_use) {
  specs.push_back({"target", cli::FlagKind::kValue});
  if (token_use == TokenUse::kOperator) {
    specs.push_back({"operator-token-file", cli::FlagKind::kValue});
  }
  return specs;
}

std::unique_ptr<v1::ExecutionService::Stub> NewStub(const cli::ParsedArgs& args) {
  return v1::ExecutionService::NewStub(MakeChannel(ResolveTarget(args.Value("target"))));
}

int RpcFailure(cli::Io& io, absl::string_view rpc, const grpc::Status& status) {
  return cli::Fail(io, static_cast<cli::ExitCode>(kExitService),
                   DescribeRpcError(rpc, FromGrpc(status)));
}

std::optional<int> GetOperatorToken(const cli::ParsedArgs& args, cli::Io& io,
                                    absl::string_view usage, std::string& token) {
  const std::optional<std::string> file = args.Value("operator-token-file");
  absl::StatusOr<std::string> read = ReadOperatorToken(file);
  if (!read.ok()) {
    // No token at all is a command-line error; a file that cannot be read is bad input.
    if (!file.has_value()) return cli::UsageError(io, read.status().message(), usage);
    return cli::Fail(io, cli::kExitBadInput, read.status().message());
  }
  token = *std::move(read);
  return std::nullopt;
}

std::optional<int> GetSeatToken(const cli::ParsedArgs& args, cli::Io& io, absl::string_view usage,
                                std::string& token) {
  const std::optional<std::string> inline_token = args.Value("token");
  const std::optional<std::string> file = args.Value("token-file");
  if (inline_token.has_value() && file.has_value()) {
    return cli::UsageError(io, "give --token or --token-file, not both", usage);
  }
  if (inline_token.has_value()) {
    token = std::string(absl::StripAsciiWhitespace(*inline_token));
    if (absl::Status s = CheckTokenText(token, "--token"); !s.ok()) {
      return cli::UsageError(io, s.message(), usage);
    }
    return std::nullopt;
  }
  if (!file.has_value()) {
    return cli::UsageError(io, "the seat's token is required: --token-file F or --token T", usage);
  }
  absl::StatusOr<std::string> read = ReadTokenFile(*file);
  if (!read.ok()) return cli::Fail(io, cli::kExitBadInput, read.status().message());
  token = *std::move(read);
  return std::nullopt;
}

absl::StatusOr<std::string> MatchNameArg(const cli::ParsedArgs& args) {
  if (args.positional().empty()) {
    return absl::InvalidArgumentError("the match NAME is required (matches/ID, or the ID)");
  }
  const std::string name(absl::StripAsciiWhitespace(args.positional()[0]));
  if (name.empty()) return absl::InvalidArgumentError("the match NAME is empty");
  if (absl::StartsWith(name, "matches/")) return name;
  return absl::StrCat("matches/", name);
}

absl::StatusOr<absl::Duration> ParseDurationFlag(absl::string_view text, absl::string_view flag) {
  absl::Duration duration;
  const std::string trimmed(absl::StripAsciiWhitespace(text));
  // Whole days too ("7d"), for a league's calendar; absl's syntax stops at hours.
  int64_t days = 0;
  const bool in_days =
      absl::EndsWith(trimmed, "d") &&
      absl::SimpleAtoi(absl::string_view(trimmed).substr(0, trimmed.size() - 1), &days) &&
      days >= 0 && days <= 100'000;
  if (in_days) {
    duration = absl::Hours(24 * days);
  } else if (!absl::ParseDuration(trimmed, &duration) || duration == absl::InfiniteDuration()) {
    return absl::InvalidArgumentError(absl::StrCat(
        flag, " must be a duration such as 30s, 1m30s, 500ms or 7d, got '", text, "'"));
  }
  if (duration < absl::ZeroDuration()) {
    return absl::InvalidArgumentError(
        absl::StrCat(flag, " must not be negative, got '", text, "'"));
  }
  return duration;
}

absl::StatusOr<RuleMap> ParseRulesFlag(absl::string_view game, absl::string_view text) {
  absl::StatusOr<RuleText> pairs = ParseRuleText(text);
  if (!pairs.ok())
    return absl::InvalidArgumentError(absl::StrCat("--rules: ", pairs.status().message()));
  const GameSpec* spec = DefaultRegistry().Find(game);
  RuleMap rules;
  for (const auto& [name, value] : *pairs) {
    const OptionSpec* option = nullptr;
    if (spec != nullptr) {
      for (const OptionSpec& candidate : spec->options) {
        if (candidate.name == name) option = &candidate;
      }
    }
    OptionValue typed;
    if (name == "preset") {
      typed = absl::AsciiStrToLower(value);
    } else if (option != nullptr) {
      absl::StatusOr<OptionValue> parsed = option->Parse(value);
      if (!parsed.ok()) {
        return absl::InvalidArgumentError(absl::StrCat("--rules: ", parsed.status().message()));
      }
      typed = *std::move(parsed);
    } else {
      int64_t number = 0;
      const std::string lower = absl::AsciiStrToLower(value);
      if (lower == "true" || lower == "false") {
        typed = lower == "true";
      } else if (absl::SimpleAtoi(value, &number)) {
        typed = number;
      } else {
        typed = value;
      }
    }
    rules[name] = OptionValueToProto(typed);
  }
  return rules;
}

absl::StatusOr<std::vector<v1::Seat>> ParseSeatsFlag(absl::string_view text) {
  std::vector<v1::Seat> seats;
  for (absl::string_view entry : absl::StrSplit(text, ',')) {
    entry = absl::StripAsciiWhitespace(entry);
    const std::vector<std::string> parts = absl::StrSplit(entry, ':');
    const auto bad = [&](absl::string_view why) {
      return absl::InvalidArgumentError(
          absl::StrCat("--seats entry '", entry, "' ", why,
                       "; write player:ID or bot:KIND[:LEVEL], one per seat, separated by commas"));
    };
    if (entry.empty()) return bad("is empty");
    v1::Seat seat;
    if (parts[0] == "player") {
      if (parts.size() != 2 || parts[1].empty()) return bad("needs one player id");
      seat.mutable_player()->set_player_id(parts[1]);
    } else if (parts[0] == "bot") {
      if (parts.size() < 2 || parts.size() > 3 || parts[1].empty()) {
        return bad("needs a bot kind and at most a level");
      }
      seat.mutable_bot()->set_kind(parts[1]);
      if (parts.size() == 3) {
        int level = 0;
        if (!absl::SimpleAtoi(parts[2], &level) || level < 0) {
          return bad("has a level that is not a whole number");
        }
        seat.mutable_bot()->set_level(level);
      }
    } else {
      return bad("is neither a player nor a bot");
    }
    seats.push_back(std::move(seat));
  }
  return seats;
}

}  // namespace boneyard::client
