// The ratings commands: `leaderboard` (ListLeaderboard) and `ratings` (GetRating and
// ListRatingHistory), against the ratings service (proto/boneyard/v1/ratings.proto) at
// --ratings-target, else $BONEYARD_RATINGS_TARGET, else 127.0.0.1:50061. Both are public
// reads: no token.
#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "boneyard/v1/ratings.grpc.pb.h"
#include "engine/cli/args.h"
#include "engine/cli/common.h"
#include "services/client/channel.h"
#include "services/client/command_common.h"

namespace boneyard::client {
namespace {

using nlohmann::json;

// The ratings commands' own flags plus --ratings-target.
std::vector<cli::FlagSpec> RatingsFlags(std::vector<cli::FlagSpec> specs) {
  specs.push_back({"ratings-target", cli::FlagKind::kValue});
  return specs;
}

std::unique_ptr<v1::RatingsService::Stub> NewRatingsStub(const cli::ParsedArgs& args) {
  return v1::RatingsService::NewStub(MakeChannel(ResolveTarget(
      args.Value("ratings-target"), kRatingsTargetVariable, kDefaultRatingsTarget)));
}

// The page size and token flags, checked; nullopt and `request` filled, or the exit code.
template <class Request>
std::optional<int> ReadPageFlags(const cli::ParsedArgs& args, cli::Io& io,
                                 absl::string_view usage, Request& request) {
  absl::StatusOr<std::optional<int64_t>> page_size = args.Int("page-size", 1, 1000);
  if (!page_size.ok()) return cli::UsageError(io, page_size.status().message(), usage);
  request.set_page_size(static_cast<int32_t>(page_size->value_or(0)));
  request.set_page_token(args.Value("page-token").value_or(""));
  return std::nullopt;
}

// The single positional argument (a game or a player id), or a usage error naming it.
absl::StatusOr<std::string> RequiredPositional(const cli::ParsedArgs& args,
                                               absl::string_view what) {
  const std::string value =
      args.positional().empty() ? "" : std::string(absl::StripAsciiWhitespace(args.positional()[0]));
  if (value.empty()) return absl::InvalidArgumentError(absl::StrCat("the ", what, " is required"));
  return value;
}

std::string Number(double value) { return absl::StrFormat("%.2f", value); }

std::string Signed(double value) { return absl::StrFormat("%+.2f", value); }

json RatingToJson(const v1::Rating& rating) {
  return {{"player_id", rating.player_id()},
          {"game", rating.game()},
          {"mu", rating.mu()},
          {"sigma", rating.sigma()},
          {"ordinal", rating.ordinal()},
          {"games_played", rating.games_played()},
          {"provisional", rating.provisional()},
          {"update_time", rating.has_update_time() ? json(TimestampText(rating.update_time()))
                                                   : json(nullptr)}};
}

json SolitaireResultToJson(const v1::SolitaireResult& result) {
  return {{"match", result.match()},
          {"tiles_left", result.tiles_left()},
          {"pips_left", result.pips_left()},
          {"duration_millis", result.duration_millis()},
          {"won", result.won()},
          {"end_time", TimestampText(result.end_time())}};
}

json ChangeToJson(const v1::RatingChange& change) {
  return {{"match", change.match()},
          {"rank", change.rank()},
          {"mu_before", change.mu_before()},
          {"sigma_before", change.sigma_before()},
          {"mu_after", change.mu_after()},
          {"sigma_after", change.sigma_after()},
          {"ordinal_before", change.ordinal_before()},
          {"ordinal_after", change.ordinal_after()},
          {"match_end_time", TimestampText(change.match_end_time())}};
}

std::string DurationText(int64_t millis) {
  return absl::FormatDuration(absl::Milliseconds(millis));
}

// The widest player id on the page, for aligned columns (at least the header's).
int PlayerWidth(const v1::ListLeaderboardResponse& response) {
  size_t width = 6;  // "player"
  for (const v1::LeaderboardEntry& entry : response.entries()) {
    width = std::max(width, entry.player_id().size());
  }
  return static_cast<int>(width);
}

void PrintLeaderboard(const std::string& game, const v1::ListLeaderboardResponse& response,
                      std::ostream& out) {
  if (response.entries().empty()) {
    out << "no entries on the " << game << " leaderboard\n";
    return;
  }
  const int width = PlayerWidth(response);
  const bool solitaire = response.entries(0).has_result();
  if (solitaire) {
    out << absl::StrFormat("%4s  %-*s  %5s  %4s  %10s  %-3s  %s\n", "rank", width, "player",
                           "tiles", "pips", "time", "won", "match");
  } else {
    out << absl::StrFormat("%4s  %-*s  %7s  %7s  %6s  %5s\n", "rank", width, "player", "rating",
                           "mu", "sigma", "games");
  }
  for (const v1::LeaderboardEntry& entry : response.entries()) {
    if (entry.has_result()) {
      const v1::SolitaireResult& result = entry.result();
      out << absl::StrFormat("%4d  %-*s  %5d  %4d  %10s  %-3s  %s\n", entry.rank(), width,
                             entry.player_id(), result.tiles_left(), result.pips_left(),
                             DurationText(result.duration_millis()), result.won() ? "yes" : "no",
                             result.match());
    } else {
      const v1::Rating& rating = entry.rating();
      out << absl::StrFormat("%4d  %-*s  %7s  %7s  %6s  %5d%s\n", entry.rank(), width,
                             entry.player_id(), Number(rating.ordinal()), Number(rating.mu()),
                             Number(rating.sigma()), rating.games_played(),
                             rating.provisional() ? "  provisional" : "");
    }
  }
}

void PrintNextPage(const std::string& token, std::ostream& out) {
  if (!token.empty()) out << "next page: --page-token " << token << "\n";
}

}  // namespace

int RunLeaderboard(const std::vector<std::string>& args, cli::Io& io) {
  absl::StatusOr<cli::ParsedArgs> parsed =
      cli::ParseArgs(args,
                     RatingsFlags({{"page-size", cli::FlagKind::kValue},
                                   {"page-token", cli::FlagKind::kValue},
                                   {"all-results", cli::FlagKind::kSwitch},
                                   {"json", cli::FlagKind::kSwitch}}),
                     1);
  if (!parsed.ok()) return cli::UsageError(io, parsed.status().message(), kLeaderboardUsage);
  if (parsed->Has("help")) return cli::PrintCommandHelp(io, kLeaderboardUsage);
  absl::StatusOr<std::string> game = RequiredPositional(*parsed, "GAME (e.g. muggins)");
  if (!game.ok()) return cli::UsageError(io, game.status().message(), kLeaderboardUsage);
  v1::ListLeaderboardRequest request;
  request.set_game(*game);
  request.set_all_results(parsed->Has("all-results"));
  if (std::optional<int> code = ReadPageFlags(*parsed, io, kLeaderboardUsage, request)) {
    return *code;
  }

  auto stub = NewRatingsStub(*parsed);
  grpc::ClientContext context;
  PrepareUnaryContext(context, "");
  v1::ListLeaderboardResponse response;
  const grpc::Status status = stub->ListLeaderboard(&context, request, &response);
  if (!status.ok()) return RpcFailure(io, "ListLeaderboard", status);

  if (parsed->Has("json")) {
    json entries = json::array();
    for (const v1::LeaderboardEntry& entry : response.entries()) {
      entries.push_back(
          {{"rank", entry.rank()},
           {"player_id", entry.player_id()},
           {"rating", entry.has_rating() ? RatingToJson(entry.rating()) : json(nullptr)},
           {"result", entry.has_result() ? SolitaireResultToJson(entry.result()) : json(nullptr)}});
    }
    const json out = {{"game", *game},
                      {"entries", entries},
                      {"next_page_token", response.next_page_token()}};
    io.out << out.dump() << "\n";
    return cli::kExitOk;
  }
  PrintLeaderboard(*game, response, io.out);
  PrintNextPage(response.next_page_token(), io.out);
  return cli::kExitOk;
}

int RunRatings(const std::vector<std::string>& args, cli::Io& io) {
  absl::StatusOr<cli::ParsedArgs> parsed =
      cli::ParseArgs(args,
                     RatingsFlags({{"game", cli::FlagKind::kValue},
                                   {"page-size", cli::FlagKind::kValue},
                                   {"page-token", cli::FlagKind::kValue},
                                   {"json", cli::FlagKind::kSwitch}}),
                     1);
  if (!parsed.ok()) return cli::UsageError(io, parsed.status().message(), kRatingsUsage);
  if (parsed->Has("help")) return cli::PrintCommandHelp(io, kRatingsUsage);
  absl::StatusOr<std::string> player = RequiredPositional(*parsed, "PLAYER id");
  if (!player.ok()) return cli::UsageError(io, player.status().message(), kRatingsUsage);
  const std::optional<std::string> game = parsed->Value("game");
  if (!game.has_value()) {
    return cli::UsageError(io, "--game is required (ratings are per game)", kRatingsUsage);
  }
  v1::ListRatingHistoryRequest history_request;
  history_request.set_player_id(*player);
  history_request.set_game(*game);
  if (std::optional<int> code = ReadPageFlags(*parsed, io, kRatingsUsage, history_request)) {
    return *code;
  }

  auto stub = NewRatingsStub(*parsed);
  v1::GetRatingRequest rating_request;
  rating_request.set_player_id(*player);
  rating_request.set_game(*game);
  v1::Rating rating;
  {
    grpc::ClientContext context;
    PrepareUnaryContext(context, "");
    const grpc::Status status = stub->GetRating(&context, rating_request, &rating);
    if (!status.ok()) return RpcFailure(io, "GetRating", status);
  }
  v1::ListRatingHistoryResponse history;
  {
    grpc::ClientContext context;
    PrepareUnaryContext(context, "");
    const grpc::Status status = stub->ListRatingHistory(&context, history_request, &history);
    if (!status.ok()) return RpcFailure(io, "ListRatingHistory", status);
  }

  if (parsed->Has("json")) {
    json changes = json::array();
    for (const v1::RatingChange& change : history.changes()) changes.push_back(ChangeToJson(change));
    const json out = {{"rating", RatingToJson(rating)},
                      {"history", changes},
                      {"next_page_token", history.next_page_token()}};
    io.out << out.dump() << "\n";
    return cli::kExitOk;
  }
  io.out << "player:   " << rating.player_id() << "\n"
         << "game:     " << rating.game() << "\n"
         << "rating:   " << Number(rating.ordinal()) << " (mu " << Number(rating.mu())
         << ", sigma " << Number(rating.sigma()) << ")"
         << (rating.provisional() ? ", provisional" : "") << "\n"
         << "games:    " << rating.games_played() << "\n";
  if (rating.has_update_time()) io.out << "updated:  " << TimestampText(rating.update_time()) << "\n";
  if (history.changes().empty()) {
    io.out << "history:  none\n";
  } else {
    io.out << "history (newest first):\n";
    for (const v1::RatingChange& change : history.changes()) {
      io.out << "  " << TimestampText(change.match_end_time()) << "  " << change.match()
             << "  rank " << change.rank() << "  " << Number(change.ordinal_before()) << " -> "
             << Number(change.ordinal_after()) << " ("
             << Signed(change.ordinal_after() - change.ordinal_before()) << ")\n";
    }
  }
  PrintNextPage(history.next_page_token(), io.out);
  return cli::kExitOk;
}

}  // namespace boneyard::client
