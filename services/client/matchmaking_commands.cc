// The matchmaking commands: `player`, `queue`, `party` and `ticket`, against the matchmaking
// service (proto/boneyard/v1/matchmaking.proto) at --matchmaking-target, else
// $BONEYARD_MATCHMAKING_TARGET, else 127.0.0.1:50071. A player's own calls take their token
// (--player-token-file F or $BONEYARD_PLAYER_TOKEN); the operator's the operator token.
//
// `queue join` is the player's whole way to a match: it queues (CreateTicket), follows the
// search (WatchTicket) a line per update, and once matched plays the seat at the terminal on
// the execution service the assignment names (as `connect` does), unless --no-play.
//
// The calls' plumbing (flags, channel, tokens, --json) is shared with the tournament service's
// commands (command_common.h): the same service serves both.
#include <cstdlib>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "boneyard/v1/matchmaking.grpc.pb.h"
#include "engine/cli/args.h"
#include "engine/cli/common.h"
#include "google/protobuf/util/json_util.h"
#include "services/client/channel.h"
#include "services/client/command_common.h"
#include "services/common/engine_proto.h"

namespace boneyard::client {
namespace {

using Stub = v1::MatchmakingService::Stub;

// How long a unary call may take.
constexpr absl::Duration kCallDeadline = absl::Seconds(30);

// The player's token: --player-token-file, else $BONEYARD_PLAYER_TOKEN; nullopt when neither.
absl::StatusOr<std::optional<std::string>> PlayerToken(const cli::ParsedArgs& args) {
  if (const std::optional<std::string> file = args.Value("player-token-file")) {
    absl::StatusOr<std::string> token = ReadTokenFile(*file);
    if (!token.ok()) return token.status();
    return std::optional<std::string>(*token);
  }
  const char* env = std::getenv(std::string(kPlayerTokenVariable).c_str());
  if (env != nullptr && !absl::StripAsciiWhitespace(env).empty()) {
    const std::string token(absl::StripAsciiWhitespace(env));
    if (absl::Status s = CheckTokenText(token, kPlayerTokenVariable); !s.ok()) return s;
    return std::optional<std::string>(token);
  }
  return std::optional<std::string>();
}

std::string Json(const google::protobuf::Message& message) {
  std::string out;
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  (void)google::protobuf::util::MessageToJsonString(message, &out, options);
  return out;
}

}  // namespace

std::vector<cli::FlagSpec> MatchmakingFlags(std::vector<cli::FlagSpec> specs) {
  specs.push_back({"matchmaking-target", cli::FlagKind::kValue});
  specs.push_back({"player-token-file", cli::FlagKind::kValue});
  specs.push_back({"operator-token-file", cli::FlagKind::kValue});
  specs.push_back({"json", cli::FlagKind::kSwitch});
  return specs;
}

std::shared_ptr<grpc::Channel> MatchmakingChannel(const cli::ParsedArgs& args) {
  return MakeChannel(ResolveTarget(args.Value("matchmaking-target"), kMatchmakingTargetVariable,
                                   kDefaultMatchmakingTarget));
}

// The token a call goes with: the player's when given, else the operator's when given, else
// none (the service says what it needs).
absl::StatusOr<std::string> CallToken(const cli::ParsedArgs& args) {
  absl::StatusOr<std::optional<std::string>> player = PlayerToken(args);
  if (!player.ok()) return player.status();
  if (player->has_value()) return **player;
  const std::optional<std::string> file = args.Value("operator-token-file");
  const char* env = std::getenv(std::string(kOperatorTokenVariable).c_str());
  if (file.has_value() || (env != nullptr && *env != '\0')) return ReadOperatorToken(file);
  return std::string();
}

std::unique_ptr<grpc::ClientContext> CallContext(const std::string& token) {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(absl::ToChronoTime(absl::Now() + kCallDeadline));
  AddBearerToken(*context, token);
  return context;
}

// "KIND/ID" as given, or a bare ID prefixed.
std::string Named(absl::string_view collection, absl::string_view arg) {
  return absl::StartsWith(arg, absl::StrCat(collection, "/"))
             ? std::string(arg)
             : absl::StrCat(collection, "/", arg);
}

// Prints `message` as JSON with --json, else `text`; returns 0.
int Print(const cli::ParsedArgs& args, cli::Io& io, const google::protobuf::Message& message,
          const std::string& text) {
  io.out << (args.Has("json") ? Json(message) + "\n" : text);
  io.out.flush();
  return cli::kExitOk;
}

namespace {

std::unique_ptr<Stub> NewMatchmakingStub(const cli::ParsedArgs& args) {
  return v1::MatchmakingService::NewStub(MatchmakingChannel(args));
}

std::string Percent(double chance) { return absl::StrFormat("%.0f%%", 100 * chance); }

std::string AssignmentText(const v1::Assignment& a) {
  std::string text = absl::StrCat(a.player(), ": ", a.match(), " on ", a.execution_target(),
                                  ", seat ", a.seat());
  if (a.team() >= 0) absl::StrAppend(&text, ", team ", a.team());
  absl::StrAppend(&text, ", predicted win chance ", Percent(a.win_chance()));
  if (a.bots() > 0) absl::StrAppend(&text, ", ", a.bots(), a.bots() == 1 ? " bot" : " bots");
  return text;
}

std::string TicketText(const v1::Ticket& ticket) {
  std::string text = absl::StrCat(ticket.name(), "  ", ticket.queue(), "  ",
                                  v1::Ticket::State_Name(ticket.state()), "  ",
                                  absl::StrJoin(ticket.players(), ", "));
  if (!ticket.party().empty()) absl::StrAppend(&text, " (", ticket.party(), ")");
  text += "\n";
  for (const v1::Assignment& a : ticket.assignments()) {
    absl::StrAppend(&text, "  ", AssignmentText(a), "\n");
  }
  return text;
}

// The single positional argument after the subcommand, or a usage error.
absl::StatusOr<std::string> Argument(const cli::ParsedArgs& args, absl::string_view what) {
  if (args.positional().size() < 2 || absl::StripAsciiWhitespace(args.positional()[1]).empty()) {
    return absl::InvalidArgumentError(absl::StrCat("the ", what, " is required"));
  }
  return std::string(absl::StripAsciiWhitespace(args.positional()[1]));
}

// ----- player -------------------------------------------------------------------------------

int RunPlayerCommand(const cli::ParsedArgs& args, cli::Io& io) {
  const std::string sub = args.positional().empty() ? "" : args.positional()[0];
  absl::StatusOr<std::string> id = Argument(args, "player id");
  if (!id.ok()) return cli::UsageError(io, id.status().message(), kPlayerUsage);
  absl::StatusOr<std::string> token = CallToken(args);
  if (!token.ok()) return cli::Fail(io, cli::kExitBadInput, token.status().message());
  auto stub = NewMatchmakingStub(args);
  if (sub == "create") {
    v1::CreatePlayerRequest request;
    request.set_player_id(*id);
    request.set_display_name(args.Value("name").value_or(*id));
    request.set_kind(args.Has("bot") ? v1::PlayerAccount::BOT : v1::PlayerAccount::HUMAN);
    v1::CreatePlayerResponse response;
    grpc::Status status = stub->CreatePlayer(CallContext(*token).get(), request, &response);
    if (!status.ok()) return RpcFailure(io, "CreatePlayer", status);
    return Print(args, io, response,
                 absl::StrCat(response.player().name(), " created (",
                              response.player().display_name(), ")\ntoken: ", response.token(),
                              "\n(shown once: keep it, e.g. in a file for --player-token-file)\n"));
  }
  if (sub == "rotate-token") {
    v1::RotatePlayerTokenRequest request;
    request.set_name(Named("players", *id));
    v1::RotatePlayerTokenResponse response;
    grpc::Status status = stub->RotatePlayerToken(CallContext(*token).get(), request, &response);
    if (!status.ok()) return RpcFailure(io, "RotatePlayerToken", status);
    return Print(args, io, response,
                 absl::StrCat(response.player().name(), ": the old token no longer works\ntoken: ",
                              response.token(), "\n(shown once: keep it)\n"));
  }
  if (sub == "show") {
    v1::GetPlayerRequest request;
    request.set_name(Named("players", *id));
    v1::PlayerAccount player;
    grpc::Status status = stub->GetPlayer(CallContext(*token).get(), request, &player);
    if (!status.ok()) return RpcFailure(io, "GetPlayer", status);
    return Print(args, io, player,
                 absl::StrCat(player.name(), "  ", player.display_name(), "  ",
                              v1::PlayerAccount::Kind_Name(player.kind()), "\n"));
  }
  if (sub == "matches") {
    v1::ListPlayerMatchesRequest request;
    request.set_name(Named("players", *id));
    absl::StatusOr<std::optional<int64_t>> size = args.Int("page-size", 1, 1000);
    if (!size.ok()) return cli::UsageError(io, size.status().message(), kPlayerUsage);
    request.set_page_size(static_cast<int32_t>(size->value_or(0)));
    request.set_page_token(args.Value("page-token").value_or(""));
    v1::ListPlayerMatchesResponse response;
    grpc::Status status = stub->ListPlayerMatches(CallContext(*token).get(), request, &response);
    if (!status.ok()) return RpcFailure(io, "ListPlayerMatches", status);
    std::string text;
    for (const v1::PlayerMatch& m : response.matches()) {
      absl::StrAppend(&text, m.match(), "  ", m.queue(), "  ", m.game(), "  seat ", m.seat(),
                      m.team() >= 0 ? absl::StrCat(", team ", m.team()) : "", "  predicted ",
                      Percent(m.win_chance()), "  ",
                      m.has_result() ? absl::StrCat("result: ", ResultText(m.result()))
                                     : std::string("being played"),
                      "\n");
    }
    if (response.matches().empty()) text = "no matches\n";
    if (!response.next_page_token().empty()) {
      absl::StrAppend(&text, "next page: --page-token ", response.next_page_token(), "\n");
    }
    return Print(args, io, response, text);
  }
  return cli::UsageError(io, absl::StrCat("unknown player command '", sub, "'"), kPlayerUsage);
}

// ----- queue --------------------------------------------------------------------------------

// --window "INITIAL,PER_SECOND,MAX".
absl::Status ParseWindow(absl::string_view text, v1::RatingWindow& window) {
  std::vector<std::string> parts = absl::StrSplit(text, ',');
  double values[3];
  if (parts.size() != 3 || !absl::SimpleAtod(parts[0], &values[0]) ||
      !absl::SimpleAtod(parts[1], &values[1]) || !absl::SimpleAtod(parts[2], &values[2])) {
    return absl::InvalidArgumentError("--window: give INITIAL,PER_SECOND,MAX, e.g. 3,0.25,25");
  }
  window.set_initial(values[0]);
  window.set_per_second(values[1]);
  window.set_max(values[2]);
  return absl::OkStatus();
}

// --bot-levels "SKILL:KIND,SKILL:KIND,...", e.g. "0:random,22:greedy".
absl::Status ParseBotLevels(absl::string_view text, v1::BotFill& fill) {
  for (absl::string_view item : absl::StrSplit(text, ',')) {
    std::vector<std::string> parts = absl::StrSplit(item, absl::MaxSplits(':', 1));
    double skill = 0;
    if (parts.size() != 2 || !absl::SimpleAtod(parts[0], &skill) || parts[1].empty()) {
      return absl::InvalidArgumentError(
          "--bot-levels: give SKILL:KIND,... in increasing skill, e.g. 0:random,22:greedy");
    }
    v1::BotLevel& level = *fill.add_levels();
    level.set_min_skill(skill);
    level.set_bot_kind(parts[1]);
  }
  return absl::OkStatus();
}

// --format "duel" | "table:MIN-MAX" | "teams:TxS".
absl::Status ParseFormat(absl::string_view text, v1::QueueFormat& format) {
  int a = 0, b = 0;
  if (text == "duel") {
    format.mutable_head_to_head();
    return absl::OkStatus();
  }
  if (absl::ConsumePrefix(&text, "table:")) {
    std::vector<std::string> range = absl::StrSplit(text, '-');
    if (range.size() == 2 && absl::SimpleAtoi(range[0], &a) && absl::SimpleAtoi(range[1], &b)) {
      format.mutable_free_for_all()->set_min_players(a);
      format.mutable_free_for_all()->set_max_players(b);
      return absl::OkStatus();
    }
  } else if (absl::ConsumePrefix(&text, "teams:")) {
    std::vector<std::string> shape = absl::StrSplit(text, 'x');
    if (shape.size() == 2 && absl::SimpleAtoi(shape[0], &a) && absl::SimpleAtoi(shape[1], &b)) {
      format.mutable_teams()->set_teams(a);
      format.mutable_teams()->set_team_size(b);
      return absl::OkStatus();
    }
  }
  return absl::InvalidArgumentError("--format: give duel, table:MIN-MAX or teams:TxS");
}

absl::StatusOr<v1::Queue> QueueFromFlags(const cli::ParsedArgs& args) {
  v1::Queue queue;
  const std::optional<std::string> game = args.Value("game");
  if (!game.has_value()) return absl::InvalidArgumentError("--game is required");
  queue.set_game(*game);
  queue.set_display_name(args.Value("name").value_or(*game));
  queue.set_rated(!args.Has("casual"));
  if (absl::Status s = ParseFormat(args.Value("format").value_or("duel"), *queue.mutable_format());
      !s.ok()) {
    return s;
  }
  if (const std::optional<std::string> rules = args.Value("rules")) {
    absl::StatusOr<RuleMap> parsed = ParseRulesFlag(*game, *rules);
    if (!parsed.ok()) return parsed.status();
    for (const auto& [name, value] : *parsed) (*queue.mutable_rules())[name] = value;
  }
  if (absl::Status s = ParseWindow(args.Value("window").value_or("3,0.25,25"),
                                   *queue.mutable_window());
      !s.ok()) {
    return s;
  }
  if (args.Value("short-table-after").has_value() && !queue.format().has_free_for_all()) {
    return absl::InvalidArgumentError("--short-table-after: only with --format table:MIN-MAX");
  }
  for (const char* flag : {"per-move", "bot-fill", "max-wait", "short-table-after"}) {
    const std::optional<std::string> text = args.Value(flag);
    if (!text.has_value()) continue;
    absl::StatusOr<absl::Duration> d = ParseDurationFlag(*text, absl::StrCat("--", flag));
    if (!d.ok()) return d.status();
    const google::protobuf::Duration value = ToDuration(*d);
    if (absl::string_view(flag) == "per-move") *queue.mutable_clock()->mutable_per_move() = value;
    if (absl::string_view(flag) == "bot-fill") {
      queue.mutable_bot_fill()->set_enabled(true);
      *queue.mutable_bot_fill()->mutable_after() = value;
    }
    if (absl::string_view(flag) == "max-wait") *queue.mutable_max_wait() = value;
    if (absl::string_view(flag) == "short-table-after") {
      *queue.mutable_format()->mutable_free_for_all()->mutable_short_table_after() = value;
    }
  }
  if (const std::optional<std::string> bot = args.Value("bot")) {
    queue.mutable_bot_fill()->set_bot_kind(*bot);
  }
  if (args.Has("bots-rated")) queue.mutable_bot_fill()->set_rated(true);
  if (const std::optional<std::string> levels = args.Value("bot-levels")) {
    if (absl::Status s = ParseBotLevels(*levels, *queue.mutable_bot_fill()); !s.ok()) return s;
  }
  return queue;
}

std::string QueueLine(const v1::Queue& queue) {
  std::string format = "duel";
  if (queue.format().has_free_for_all()) {
    format = absl::StrCat("table of ", queue.format().free_for_all().min_players(), "-",
                          queue.format().free_for_all().max_players());
  } else if (queue.format().has_teams()) {
    format = absl::StrCat(queue.format().teams().teams(), " teams of ",
                          queue.format().teams().team_size());
  }
  return absl::StrCat(queue.name(), "  ", queue.game(), "  ", format, "  ",
                      queue.rated() ? "rated" : "casual",
                      queue.bot_fill().enabled() ? "  bots fill" : "", "  \"",
                      queue.display_name(), "\"\n");
}

// Follows a ticket until it is no longer SEARCHING; the last update, or the exit code.
std::optional<int> FollowTicket(Stub& stub, const std::string& token, const std::string& ticket,
                                cli::Io& io, v1::TicketUpdate& last) {
  grpc::ClientContext context;  // no deadline: a search lasts as long as it lasts
  AddBearerToken(context, token);
  v1::WatchTicketRequest request;
  request.set_name(ticket);
  auto reader = stub.WatchTicket(&context, request);
  while (reader->Read(&last)) {
    if (last.ticket().state() == v1::Ticket::SEARCHING && last.has_search()) {
      const absl::Duration waited = absl::Seconds(last.search().waited().seconds());
      io.out << absl::StrFormat("searching: waited %s, window %.1f, %d searching in %s\n",
                                absl::FormatDuration(waited), last.search().window(),
                                last.search().queue_size(), last.ticket().queue());
      io.out.flush();
    }
  }
  grpc::Status status = reader->Finish();
  if (!status.ok()) return RpcFailure(io, "WatchTicket", status);
  return std::nullopt;
}

int RunQueueJoin(const cli::ParsedArgs& args, cli::Io& io, Stub& stub, const std::string& queue) {
  absl::StatusOr<std::optional<std::string>> token = PlayerToken(args);
  if (!token.ok()) return cli::Fail(io, cli::kExitBadInput, token.status().message());
  if (!token->has_value()) {
    return cli::UsageError(io, absl::StrCat("queue join needs the player's token: give "
                                            "--player-token-file F or set ",
                                            kPlayerTokenVariable),
                           kQueueUsage);
  }
  v1::CreateTicketRequest request;
  request.set_queue(Named("queues", queue));
  if (const std::optional<std::string> party = args.Value("party")) {
    request.set_party(Named("parties", *party));
  }
  v1::Ticket ticket;
  grpc::Status status = stub.CreateTicket(CallContext(**token).get(), request, &ticket);
  if (!status.ok()) return RpcFailure(io, "CreateTicket", status);
  io.out << "queued: " << ticket.name() << " in " << ticket.queue() << "\n";
  io.out.flush();
  v1::TicketUpdate last;
  if (std::optional<int> code = FollowTicket(stub, **token, ticket.name(), io, last)) return *code;
  if (last.ticket().state() != v1::Ticket::MATCHED) {
    return cli::Fail(io, static_cast<cli::ExitCode>(kExitService),
                     absl::StrCat(ticket.name(), " ended ",
                                  v1::Ticket::State_Name(last.ticket().state())));
  }
  io.out << "matched:\n";
  const v1::Assignment* mine = nullptr;
  for (const v1::Assignment& a : last.ticket().assignments()) {
    io.out << "  " << AssignmentText(a) << "\n";
    if (!a.seat_token().empty()) mine = &a;
  }
  io.out.flush();
  if (mine == nullptr) {
    return cli::Fail(io, static_cast<cli::ExitCode>(kExitService), "no seat token came back");
  }
  if (args.Has("no-play")) {
    io.out << "seat token: " << mine->seat_token() << "\nplay it with: boneyard connect "
           << mine->match() << " --target " << mine->execution_target() << " --token ...\n";
    return cli::kExitOk;
  }
  return PlaySeat(mine->execution_target(), mine->match(), mine->seat_token(), io);
}

int RunQueueCommand(const cli::ParsedArgs& args, cli::Io& io) {
  const std::string sub = args.positional().empty() ? "list" : args.positional()[0];
  auto stub = NewMatchmakingStub(args);
  if (sub == "list") {
    v1::ListQueuesRequest request;
    request.set_game(args.Value("game").value_or(""));
    request.set_page_size(1000);
    v1::ListQueuesResponse response;
    grpc::Status status = stub->ListQueues(CallContext("").get(), request, &response);
    if (!status.ok()) return RpcFailure(io, "ListQueues", status);
    std::string text;
    for (const v1::Queue& queue : response.queues()) text += QueueLine(queue);
    return Print(args, io, response, text.empty() ? "no queues\n" : text);
  }
  absl::StatusOr<std::string> id = Argument(args, "queue");
  if (!id.ok()) return cli::UsageError(io, id.status().message(), kQueueUsage);
  if (sub == "join") return RunQueueJoin(args, io, *stub, *id);
  if (sub == "show") {
    v1::GetQueueRequest request;
    request.set_name(Named("queues", *id));
    v1::Queue queue;
    grpc::Status status = stub->GetQueue(CallContext("").get(), request, &queue);
    if (!status.ok()) return RpcFailure(io, "GetQueue", status);
    return Print(args, io, queue, QueueLine(queue));
  }
  std::string token;
  if (std::optional<int> code = GetOperatorToken(args, io, kQueueUsage, token)) return *code;
  if (sub == "create") {
    absl::StatusOr<v1::Queue> queue = QueueFromFlags(args);
    if (!queue.ok()) return cli::UsageError(io, queue.status().message(), kQueueUsage);
    v1::CreateQueueRequest request;
    request.set_queue_id(*id);
    *request.mutable_queue() = *queue;
    v1::Queue created;
    grpc::Status status = stub->CreateQueue(CallContext(token).get(), request, &created);
    if (!status.ok()) return RpcFailure(io, "CreateQueue", status);
    return Print(args, io, created, QueueLine(created));
  }
  if (sub == "delete") {
    v1::DeleteQueueRequest request;
    request.set_name(Named("queues", *id));
    google::protobuf::Empty empty;
    grpc::Status status = stub->DeleteQueue(CallContext(token).get(), request, &empty);
    if (!status.ok()) return RpcFailure(io, "DeleteQueue", status);
    io.out << request.name() << " deleted; its searching tickets are cancelled\n";
    return cli::kExitOk;
  }
  return cli::UsageError(io, absl::StrCat("unknown queue command '", sub, "'"), kQueueUsage);
}

// ----- party and ticket ---------------------------------------------------------------------

std::string PartyText(const v1::Party& party) {
  return absl::StrCat(party.name(), "  led by ", party.leader(), "  members: ",
                      absl::StrJoin(party.members(), ", "),
                      party.invite_code().empty() ? "" : "  invite code: ",
                      party.invite_code(), "\n");
}

int RunPartyCommand(const cli::ParsedArgs& args, cli::Io& io) {
  const std::string sub = args.positional().empty() ? "" : args.positional()[0];
  absl::StatusOr<std::string> token = CallToken(args);
  if (!token.ok()) return cli::Fail(io, cli::kExitBadInput, token.status().message());
  auto stub = NewMatchmakingStub(args);
  v1::Party party;
  grpc::Status status;
  if (sub == "create") {
    status = stub->CreateParty(CallContext(*token).get(), v1::CreatePartyRequest(), &party);
    if (!status.ok()) return RpcFailure(io, "CreateParty", status);
    return Print(args, io, party, PartyText(party));
  }
  absl::StatusOr<std::string> arg = Argument(args, sub == "join" ? "invite code" : "party");
  if (!arg.ok()) return cli::UsageError(io, arg.status().message(), kPartyUsage);
  if (sub == "join") {
    v1::JoinPartyRequest request;
    request.set_invite_code(*arg);
    status = stub->JoinParty(CallContext(*token).get(), request, &party);
    if (!status.ok()) return RpcFailure(io, "JoinParty", status);
  } else if (sub == "leave") {
    v1::LeavePartyRequest request;
    request.set_name(Named("parties", *arg));
    status = stub->LeaveParty(CallContext(*token).get(), request, &party);
    if (!status.ok()) return RpcFailure(io, "LeaveParty", status);
  } else if (sub == "show") {
    v1::GetPartyRequest request;
    request.set_name(Named("parties", *arg));
    status = stub->GetParty(CallContext(*token).get(), request, &party);
    if (!status.ok()) return RpcFailure(io, "GetParty", status);
  } else {
    return cli::UsageError(io, absl::StrCat("unknown party command '", sub, "'"), kPartyUsage);
  }
  return Print(args, io, party,
               party.members().empty() ? "the party has ended\n" : PartyText(party));
}

int RunTicketCommand(const cli::ParsedArgs& args, cli::Io& io) {
  const std::string sub = args.positional().empty() ? "" : args.positional()[0];
  absl::StatusOr<std::string> arg = Argument(args, "ticket");
  if (!arg.ok()) return cli::UsageError(io, arg.status().message(), kTicketUsage);
  absl::StatusOr<std::string> token = CallToken(args);
  if (!token.ok()) return cli::Fail(io, cli::kExitBadInput, token.status().message());
  auto stub = NewMatchmakingStub(args);
  v1::Ticket ticket;
  grpc::Status status;
  if (sub == "show") {
    v1::GetTicketRequest request;
    request.set_name(Named("tickets", *arg));
    status = stub->GetTicket(CallContext(*token).get(), request, &ticket);
    if (!status.ok()) return RpcFailure(io, "GetTicket", status);
  } else if (sub == "cancel") {
    v1::CancelTicketRequest request;
    request.set_name(Named("tickets", *arg));
    status = stub->CancelTicket(CallContext(*token).get(), request, &ticket);
    if (!status.ok()) return RpcFailure(io, "CancelTicket", status);
  } else {
    return cli::UsageError(io, absl::StrCat("unknown ticket command '", sub, "'"), kTicketUsage);
  }
  return Print(args, io, ticket, TicketText(ticket));
}

// Parses the command's flags; runs `run` or prints the usage.
int Dispatch(const std::vector<std::string>& args, cli::Io& io, absl::string_view usage,
             std::vector<cli::FlagSpec> flags,
             int (*run)(const cli::ParsedArgs&, cli::Io&)) {
  absl::StatusOr<cli::ParsedArgs> parsed =
      cli::ParseArgs(args, MatchmakingFlags(std::move(flags)), 2);
  if (!parsed.ok()) return cli::UsageError(io, parsed.status().message(), usage);
  if (parsed->Has("help")) return cli::PrintCommandHelp(io, usage);
  return run(*parsed, io);
}

}  // namespace

int RunPlayer(const std::vector<std::string>& args, cli::Io& io) {
  return Dispatch(args, io, kPlayerUsage,
                  {{"name", cli::FlagKind::kValue},
                   {"bot", cli::FlagKind::kSwitch},
                   {"page-size", cli::FlagKind::kValue},
                   {"page-token", cli::FlagKind::kValue}},
                  &RunPlayerCommand);
}

int RunQueue(const std::vector<std::string>& args, cli::Io& io) {
  return Dispatch(args, io, kQueueUsage,
                  {{"game", cli::FlagKind::kValue},
                   {"name", cli::FlagKind::kValue},
                   {"format", cli::FlagKind::kValue},
                   {"rules", cli::FlagKind::kValue},
                   {"casual", cli::FlagKind::kSwitch},
                   {"window", cli::FlagKind::kValue},
                   {"per-move", cli::FlagKind::kValue},
                   {"bot-fill", cli::FlagKind::kValue},
                   {"bot", cli::FlagKind::kValue},
                   {"bot-levels", cli::FlagKind::kValue},
                   {"bots-rated", cli::FlagKind::kSwitch},
                   {"max-wait", cli::FlagKind::kValue},
                   {"short-table-after", cli::FlagKind::kValue},
                   {"party", cli::FlagKind::kValue},
                   {"no-play", cli::FlagKind::kSwitch}},
                  &RunQueueCommand);
}

int RunParty(const std::vector<std::string>& args, cli::Io& io) {
  return Dispatch(args, io, kPartyUsage, {}, &RunPartyCommand);
}

int RunTicket(const std::vector<std::string>& args, cli::Io& io) {
  return Dispatch(args, io, kTicketUsage, {}, &RunTicketCommand);
}

}  // namespace boneyard::client
