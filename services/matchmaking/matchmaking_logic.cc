#include "services/matchmaking/matchmaking_logic.h"

#include <openssl/evp.h>

#include <algorithm>
#include <iterator>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "services/common/engine_proto.h"
#include "services/common/validation.h"
#include "services/matchmaking/logic_helpers.h"
#include "services/matchmaking/queue_settings.h"

namespace boneyard::matchmaking {
namespace {

constexpr char kPlayersPrefix[] = "players/";
constexpr char kQueuesPrefix[] = "queues/";
// GetPlayer's alias for the caller, so no player may take it as an id.
constexpr char kMe[] = "me";

// The fields UpdateQueue may change (the rest never do).
constexpr const char* kUpdatableQueueFields[] = {"display_name", "rules",   "rated",
                                                 "clock",        "format",  "window",
                                                 "bot_fill",     "max_wait"};

absl::StatusOr<std::string> ParsePlayerName(absl::string_view name) {
  return ParseName(name, "players", "name");
}

absl::StatusOr<std::string> ParseQueueName(absl::string_view name, absl::string_view field) {
  return ParseName(name, "queues", field);
}

// A fresh invite code: 10 characters of an alphabet without look-alikes (0/O, 1/I), 50 bits.
std::string NewInviteCode() {
  static constexpr char kAlphabet[] = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
  std::string code;
  for (unsigned char byte : RandomBytes(10)) code += kAlphabet[byte % 32];
  return code;
}

v1::Party ToProto(const PartyRow& row) {
  v1::Party party;
  party.set_name(absl::StrCat("parties/", row.party_id));
  if (!row.leader.empty()) party.set_leader(absl::StrCat(kPlayersPrefix, row.leader));
  for (const std::string& member : row.members) {
    party.add_members(absl::StrCat(kPlayersPrefix, member));
  }
  party.set_invite_code(row.invite_code);
  *party.mutable_create_time() = ToTimestamp(row.create_time);
  if (!row.latest_ticket.empty()) party.set_ticket(absl::StrCat("tickets/", row.latest_ticket));
  return party;
}

// What the store keeps of a queue: everything but its name and timestamps.
std::string SettingsOf(v1::Queue queue) {
  queue.clear_name();
  queue.clear_create_time();
  queue.clear_update_time();
  return queue.SerializeAsString();
}

// One of kUpdatableQueueFields, from `from` to `to`.
void CopyQueueField(absl::string_view path, const v1::Queue& from, v1::Queue& to) {
  if (path == "display_name") to.set_display_name(from.display_name());
  if (path == "rules") *to.mutable_rules() = from.rules();
  if (path == "rated") to.set_rated(from.rated());
  if (path == "clock") *to.mutable_clock() = from.clock();
  if (path == "format") *to.mutable_format() = from.format();
  if (path == "window") *to.mutable_window() = from.window();
  if (path == "bot_fill") *to.mutable_bot_fill() = from.bot_fill();
  if (path == "max_wait") *to.mutable_max_wait() = from.max_wait();
}

absl::Status NoSuchQueue(absl::string_view id) {
  return absl::NotFoundError(absl::StrCat("no queue ", validation::Quote(id)));
}

v1::PlayerAccount ToProto(const PlayerRow& row) {
  v1::PlayerAccount player;
  player.set_name(absl::StrCat(kPlayersPrefix, row.player_id));
  player.set_player_id(row.player_id);
  player.set_display_name(row.display_name);
  player.set_kind(static_cast<v1::PlayerAccount::Kind>(row.kind));
  *player.mutable_create_time() = ToTimestamp(row.create_time);
  return player;
}

}  // namespace

absl::Status Invalid(absl::string_view field, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(field, ": ", why));
}

// "{collection}/{id}" (e.g. "players/ann") → the id; INVALID_ARGUMENT naming `field`
// otherwise.
absl::StatusOr<std::string> ParseName(absl::string_view name, absl::string_view collection,
                                      absl::string_view field) {
  absl::string_view id = name;
  if (!absl::ConsumePrefix(&id, collection) || !absl::ConsumePrefix(&id, "/") ||
      !validation::CheckId(field, id).ok()) {
    return Invalid(field, absl::StrCat(validation::Quote(name), " is not of the form \"",
                                       collection, "/{id}\""));
  }
  return std::string(id);
}

// A time as stored: to the microsecond.
absl::Time StoredNow() { return absl::FromUnixMicros(absl::ToUnixMicros(absl::Now())); }

absl::StatusOr<std::optional<std::string>> CallingPlayer(const Authenticator& auth,
                                                         PgMatchmakingStore& players,
                                                         const std::optional<std::string>& token) {
  switch (auth.Classify(token)) {
    case Authenticator::Role::kOperator:
      return std::optional<std::string>();
    case Authenticator::Role::kNone:
      return absl::UnauthenticatedError("missing bearer token");
    default:
      break;
  }
  absl::StatusOr<std::optional<std::string>> player =
      players.PlayerWithTokenHash(TokenHash(*token));
  if (!player.ok()) return player.status();
  if (!player->has_value()) return absl::UnauthenticatedError("unknown token");
  return player;
}

absl::Status RequireOperatorToken(const Authenticator& auth, PgMatchmakingStore& players,
                                  const std::optional<std::string>& token) {
  if (auth.Classify(token) == Authenticator::Role::kOperator) return absl::OkStatus();
  absl::StatusOr<std::optional<std::string>> player =
      token.has_value() && !token->empty() ? players.PlayerWithTokenHash(TokenHash(*token))
                                           : std::optional<std::string>();
  if (!player.ok()) return player.status();
  return auth.RequireOperator(token, player->has_value());
}

absl::StatusOr<v1::Queue> QueueFromRow(const QueueRow& row) {
  v1::Queue queue;
  if (!queue.ParseFromString(row.settings)) {
    return absl::InternalError(
        absl::StrCat("queue ", row.queue_id, ": stored settings unreadable"));
  }
  queue.set_name(absl::StrCat(kQueuesPrefix, row.queue_id));
  *queue.mutable_create_time() = ToTimestamp(row.create_time);
  *queue.mutable_update_time() = ToTimestamp(row.update_time);
  return queue;
}

std::string TokenHash(absl::string_view token) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(token.data(), token.size(), digest, &size, EVP_sha256(), nullptr);
  return std::string(reinterpret_cast<const char*>(digest), size);
}

std::string FoldDisplayName(absl::string_view name) { return absl::AsciiStrToLower(name); }

absl::Status CheckDisplayName(absl::string_view name) {
  return validation::CheckDisplayName("display_name", name, kMaxDisplayNameChars);
}

absl::StatusOr<MatchmakingLogic::ListPage> MatchmakingLogic::OpenPage(
    int page_size, const std::string& page_token, std::vector<std::string> identity) const {
  absl::StatusOr<int> size = validation::PageSize(page_size);
  if (!size.ok()) return size.status();
  if (absl::Status s = validation::CheckOptionalId("page_token", page_token,
                                                   validation::kMaxPageTokenBytes);
      !s.ok()) {
    return s;
  }
  absl::StatusOr<std::optional<std::vector<std::string>>> cursor =
      page_tokens_.DecodeCursor(page_token, identity, 1);
  if (!cursor.ok()) return cursor.status();
  return ListPage{.size = *size,
                  .after = cursor->has_value() ? (**cursor)[0] : std::string(),
                  .identity = std::move(identity)};
}

std::string MatchmakingLogic::NextPageToken(const ListPage& page, const std::string& last_id) const {
  std::vector<std::string> parts = page.identity;
  parts.push_back(last_id);
  return page_tokens_.Encode(parts);
}

MatchmakingLogic::MatchmakingLogic(PgMatchmakingStore& store, MatchmakingOptions options)
    : store_(store),
      options_(std::move(options)),
      auth_(AuthConfig{options_.operator_token, {options_.results_token}}),
      page_tokens_(PageTokenKey(options_.operator_token)),
      feed_(store, {}),
      ticket_writer_([this](std::vector<TicketJob>& jobs) { return CommitTickets(jobs); },
                     absl::UnavailableError("the service is stopping"), {.max_batch = 256}) {}

absl::StatusOr<std::optional<std::string>> MatchmakingLogic::PlayerOf(
    const std::optional<std::string>& token) {
  if (!token.has_value() || token->empty()) return std::optional<std::string>();
  return store_.PlayerWithTokenHash(TokenHash(*token));
}

absl::Status MatchmakingLogic::RequireOperator(const std::optional<std::string>& token) {
  if (auth_.Classify(token) == Authenticator::Role::kOperator) return absl::OkStatus();
  absl::StatusOr<std::optional<std::string>> player = PlayerOf(token);
  if (!player.ok()) return player.status();
  return auth_.RequireOperator(token, player->has_value());
}

absl::StatusOr<std::string> MatchmakingLogic::CallingPlayer(
    const std::optional<std::string>& token) {
  if (!token.has_value() || token->empty()) {
    return absl::UnauthenticatedError("missing bearer token");
  }
  if (auth_.Classify(token) == Authenticator::Role::kOperator) {
    return absl::PermissionDeniedError("parties and tickets are a player's: use a player's token");
  }
  absl::StatusOr<std::optional<std::string>> player = PlayerOf(token);
  if (!player.ok()) return player.status();
  if (!player->has_value()) return absl::UnauthenticatedError("unknown token");
  return **player;
}

absl::StatusOr<v1::CreatePlayerResponse> MatchmakingLogic::CreatePlayer(
    const std::optional<std::string>& token, const v1::CreatePlayerRequest& request) {
  const bool is_operator = auth_.Classify(token) == Authenticator::Role::kOperator;
  v1::PlayerAccount::Kind kind = request.kind();
  if (kind == v1::PlayerAccount::KIND_UNSPECIFIED) kind = v1::PlayerAccount::HUMAN;
  if (!is_operator) {
    // Open registration lets anyone make a person's account; bots are the operator's.
    if (!options_.open_registration || kind == v1::PlayerAccount::BOT) {
      if (absl::Status s = RequireOperator(token); !s.ok()) return s;
    }
  }
  if (absl::Status s = validation::CheckEnum("kind", request.kind()); !s.ok()) return s;
  if (absl::Status s = validation::CheckId("player_id", request.player_id()); !s.ok()) return s;
  if (request.player_id() == kMe) {
    return absl::InvalidArgumentError("player_id: \"me\" is reserved (players/me is the caller)");
  }
  if (absl::StartsWith(request.player_id(), kHouseBotPrefix)) {
    // A ladder's house bots are rated under "house:..." ids: a player must never share one.
    return absl::InvalidArgumentError(
        "player_id: ids beginning \"house:\" are reserved for ladders' house bots");
  }
  if (absl::Status s = CheckDisplayName(request.display_name()); !s.ok()) return s;

  PlayerRow row{.player_id = request.player_id(),
                .display_name = request.display_name(),
                .display_key = FoldDisplayName(request.display_name()),
                .kind = static_cast<int>(kind),
                // As stored, so the answer equals what GetPlayer shows later.
                .create_time = StoredNow()};
  std::string secret = NewSecretToken();
  if (absl::Status s = store_.InsertPlayer(row, TokenHash(secret)); !s.ok()) return s;
  v1::CreatePlayerResponse response;
  *response.mutable_player() = ToProto(row);
  response.set_token(std::move(secret));
  return response;
}

absl::StatusOr<v1::PlayerAccount> MatchmakingLogic::GetPlayer(
    const std::optional<std::string>& token, const v1::GetPlayerRequest& request) {
  absl::StatusOr<std::string> id = ParsePlayerName(request.name());
  if (!id.ok()) return id.status();
  if (*id == kMe) {
    absl::StatusOr<std::optional<std::string>> player = PlayerOf(token);
    if (!player.ok()) return player.status();
    if (!player->has_value()) {
      return absl::UnauthenticatedError("players/me needs a player's token");
    }
    *id = **player;
  }
  absl::StatusOr<std::optional<PlayerRow>> row = store_.GetPlayer(*id);
  if (!row.ok()) return row.status();
  if (!row->has_value()) {
    return absl::NotFoundError(absl::StrCat("no player ", validation::Quote(*id)));
  }
  return ToProto(**row);
}

absl::StatusOr<v1::ListPlayersResponse> MatchmakingLogic::ListPlayers(
    const v1::ListPlayersRequest& request) {
  if (absl::Status s = validation::CheckEnum("kind", request.kind()); !s.ok()) return s;
  absl::StatusOr<ListPage> page = OpenPage(request.page_size(), request.page_token(),
                                           {"players", absl::StrCat(request.kind())});
  if (!page.ok()) return page.status();
  // One more than the page: whether there is a next page.
  absl::StatusOr<std::vector<PlayerRow>> rows =
      store_.ListPlayers(request.kind(), page->after, page->size + 1);
  if (!rows.ok()) return rows.status();
  v1::ListPlayersResponse response;
  const bool more = static_cast<int>(rows->size()) > page->size;
  if (more) rows->pop_back();
  for (const PlayerRow& row : *rows) *response.add_players() = ToProto(row);
  if (more) response.set_next_page_token(NextPageToken(*page, rows->back().player_id));
  return response;
}

absl::StatusOr<v1::RotatePlayerTokenResponse> MatchmakingLogic::RotatePlayerToken(
    const std::optional<std::string>& token, const v1::RotatePlayerTokenRequest& request) {
  // Credentials first: the operator, or the player whose token it is.
  std::optional<std::string> caller;
  if (auth_.Classify(token) != Authenticator::Role::kOperator) {
    absl::StatusOr<std::optional<std::string>> player = PlayerOf(token);
    if (!player.ok()) return player.status();
    if (!player->has_value()) {
      return auth_.RequireOperator(token, /*token_known_elsewhere=*/false);
    }
    caller = **player;
  }
  absl::StatusOr<std::string> id = ParsePlayerName(request.name());
  if (!id.ok()) return id.status();
  if (caller.has_value() && *caller != *id) {
    return absl::PermissionDeniedError("a player may rotate only their own token");
  }
  std::string secret = NewSecretToken();
  absl::StatusOr<PlayerRow> row = store_.SetTokenHash(*id, TokenHash(secret));
  if (absl::IsNotFound(row.status())) {
    return absl::NotFoundError(absl::StrCat("no player ", validation::Quote(*id)));
  }
  if (!row.ok()) return row.status();
  v1::RotatePlayerTokenResponse response;
  *response.mutable_player() = ToProto(*row);
  response.set_token(std::move(secret));
  return response;
}

absl::StatusOr<v1::Queue> MatchmakingLogic::CreateQueue(const std::optional<std::string>& token,
                                                         const v1::CreateQueueRequest& request) {
  if (absl::Status s = RequireOperator(token); !s.ok()) return s;
  if (absl::Status s = validation::CheckId("queue_id", request.queue_id()); !s.ok()) return s;
  if (absl::Status s = CheckQueueSettings(request.queue()); !s.ok()) return s;
  const absl::Time now = StoredNow();
  const QueueRow row{.queue_id = request.queue_id(),
                     .game = request.queue().game(),
                     .settings = SettingsOf(request.queue()),
                     .create_time = now,
                     .update_time = now};
  if (absl::Status s = store_.InsertQueue(row); !s.ok()) return s;
  return QueueFromRow(row);
}

absl::StatusOr<v1::Queue> MatchmakingLogic::GetQueue(const v1::GetQueueRequest& request) {
  absl::StatusOr<std::string> id = ParseQueueName(request.name(), "name");
  if (!id.ok()) return id.status();
  absl::StatusOr<std::optional<QueueRow>> row = store_.GetQueue(*id);
  if (!row.ok()) return row.status();
  if (!row->has_value()) return NoSuchQueue(*id);
  return QueueFromRow(**row);
}

absl::StatusOr<v1::ListQueuesResponse> MatchmakingLogic::ListQueues(
    const v1::ListQueuesRequest& request) {
  if (absl::Status s = validation::CheckOptionalId("game", request.game()); !s.ok()) return s;
  absl::StatusOr<ListPage> page =
      OpenPage(request.page_size(), request.page_token(), {"queues", request.game()});
  if (!page.ok()) return page.status();
  absl::StatusOr<std::vector<QueueRow>> rows =
      store_.ListQueues(request.game(), page->after, page->size + 1);
  if (!rows.ok()) return rows.status();
  v1::ListQueuesResponse response;
  const bool more = static_cast<int>(rows->size()) > page->size;
  if (more) rows->pop_back();
  for (const QueueRow& row : *rows) {
    absl::StatusOr<v1::Queue> queue = QueueFromRow(row);
    if (!queue.ok()) return queue.status();
    *response.add_queues() = *std::move(queue);
  }
  if (more) response.set_next_page_token(NextPageToken(*page, rows->back().queue_id));
  return response;
}

absl::StatusOr<v1::Queue> MatchmakingLogic::UpdateQueue(const std::optional<std::string>& token,
                                                         const v1::UpdateQueueRequest& request) {
  if (absl::Status s = RequireOperator(token); !s.ok()) return s;
  absl::StatusOr<std::string> id = ParseQueueName(request.queue().name(), "queue.name");
  if (!id.ok()) return id.status();
  if (request.update_mask().paths().empty()) {
    return Invalid("update_mask", "names no field; name the fields to change");
  }
  for (const std::string& path : request.update_mask().paths()) {
    if (std::find(std::begin(kUpdatableQueueFields), std::end(kUpdatableQueueFields), path) ==
        std::end(kUpdatableQueueFields)) {
      return Invalid("update_mask",
                     absl::StrCat(validation::Quote(path),
                                  " is not a field an update may change (name, game and the "
                                  "times never change)"));
    }
  }
  absl::StatusOr<std::optional<QueueRow>> row = store_.GetQueue(*id);
  if (!row.ok()) return row.status();
  if (!row->has_value()) return NoSuchQueue(*id);
  absl::StatusOr<v1::Queue> queue = QueueFromRow(**row);
  if (!queue.ok()) return queue.status();
  for (const std::string& path : request.update_mask().paths()) {
    CopyQueueField(path, request.queue(), *queue);
  }
  if (absl::Status s = CheckQueueSettings(*queue); !s.ok()) return s;
  const absl::Time now = StoredNow();
  if (absl::Status s = store_.UpdateQueue(*id, SettingsOf(*queue), (*row)->update_time, now);
      !s.ok()) {
    return absl::IsNotFound(s) ? NoSuchQueue(*id) : s;
  }
  *queue->mutable_update_time() = ToTimestamp(now);
  return queue;
}

absl::Status MatchmakingLogic::DeleteQueue(const std::optional<std::string>& token,
                                           const v1::DeleteQueueRequest& request) {
  if (absl::Status s = RequireOperator(token); !s.ok()) return s;
  absl::StatusOr<std::string> id = ParseQueueName(request.name(), "name");
  if (!id.ok()) return id.status();
  absl::Status deleted = store_.DeleteQueue(*id);
  return absl::IsNotFound(deleted) ? NoSuchQueue(*id) : deleted;
}

absl::StatusOr<v1::Party> MatchmakingLogic::CreateParty(const std::optional<std::string>& token) {
  absl::StatusOr<std::string> caller = CallingPlayer(token);
  if (!caller.ok()) return caller.status();
  const PartyRow row{.party_id = absl::BytesToHexString(RandomBytes(8)),
                     .leader = *caller,
                     .invite_code = NewInviteCode(),
                     .create_time = StoredNow(),
                     .members = {*caller},
                     .latest_ticket = ""};
  if (absl::Status s = store_.CreateParty(row); !s.ok()) return s;
  return ToProto(row);
}

absl::StatusOr<v1::Party> MatchmakingLogic::JoinParty(const std::optional<std::string>& token,
                                                      const v1::JoinPartyRequest& request) {
  absl::StatusOr<std::string> caller = CallingPlayer(token);
  if (!caller.ok()) return caller.status();
  if (absl::Status s = validation::CheckId("invite_code", request.invite_code()); !s.ok()) {
    return s;
  }
  absl::StatusOr<PartyRow> party =
      store_.JoinParty(request.invite_code(), *caller, kMaxPartyMembers);
  if (!party.ok()) return party.status();
  return ToProto(*party);
}

absl::StatusOr<v1::Party> MatchmakingLogic::GetParty(const std::optional<std::string>& token,
                                                     const v1::GetPartyRequest& request) {
  const bool is_operator = auth_.Classify(token) == Authenticator::Role::kOperator;
  std::optional<std::string> caller;
  if (!is_operator) {
    absl::StatusOr<std::string> player = CallingPlayer(token);
    if (!player.ok()) return player.status();
    caller = *player;
  }
  absl::StatusOr<std::string> id = ParseName(request.name(), "parties", "name");
  if (!id.ok()) return id.status();
  absl::StatusOr<std::optional<PartyRow>> row = store_.GetParty(*id);
  if (!row.ok()) return row.status();
  if (!row->has_value()) return absl::NotFoundError(absl::StrCat("no party ", validation::Quote(*id)));
  if (caller.has_value() && std::find((*row)->members.begin(), (*row)->members.end(), *caller) ==
                                (*row)->members.end()) {
    return absl::PermissionDeniedError("only a party's members see it");
  }
  return ToProto(**row);
}

absl::StatusOr<v1::Party> MatchmakingLogic::LeaveParty(const std::optional<std::string>& token,
                                                       const v1::LeavePartyRequest& request) {
  const bool is_operator = auth_.Classify(token) == Authenticator::Role::kOperator;
  std::string leaving;
  if (is_operator) {
    absl::StatusOr<std::string> named = ParseName(request.player(), "players", "player");
    if (!named.ok()) return named.status();
    leaving = *named;
  } else {
    absl::StatusOr<std::string> caller = CallingPlayer(token);
    if (!caller.ok()) return caller.status();
    if (!request.player().empty() &&
        request.player() != absl::StrCat(kPlayersPrefix, *caller)) {
      return absl::PermissionDeniedError("a player may take only themselves out of a party");
    }
    leaving = *caller;
  }
  absl::StatusOr<std::string> id = ParseName(request.name(), "parties", "name");
  if (!id.ok()) return id.status();
  absl::StatusOr<PartyRow> party = store_.LeaveParty(*id, leaving);
  if (absl::IsNotFound(party.status())) {
    return absl::NotFoundError(absl::StrCat("no party ", validation::Quote(*id)));
  }
  if (absl::IsFailedPrecondition(party.status())) {  // not a member
    return is_operator ? absl::NotFoundError("the player is not a member of this party")
                       : absl::PermissionDeniedError("only a party's members may leave it");
  }
  if (!party.ok()) return party.status();
  return ToProto(*party);
}

}  // namespace boneyard::matchmaking
