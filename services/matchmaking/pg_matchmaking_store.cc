#include "services/matchmaking/pg_matchmaking_store.h"

#include <algorithm>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "services/common/pg_text.h"
#include "services/matchmaking/migrations.h"

namespace boneyard::matchmaking {
namespace {

using pg_text::Bytea;


constexpr char kPlayerColumns[] =
    "player_id, display_name, display_key, kind, "
    "(extract(epoch FROM create_time) * 1000000)::bigint";

constexpr char kQueueColumns[] =
    "queue_id, game, settings, (extract(epoch FROM create_time) * 1000000)::bigint, "
    "(extract(epoch FROM update_time) * 1000000)::bigint";

QueueRow ReadQueue(const pqxx::row& row) {
  return {.queue_id = row[0].as<std::string>(),
          .game = row[1].as<std::string>(),
          .settings = pqxx::binarystring(row[2]).str(),
          .create_time = absl::FromUnixMicros(row[3].as<int64_t>()),
          .update_time = absl::FromUnixMicros(row[4].as<int64_t>())};
}

PlayerRow ReadPlayer(const pqxx::row& row) {
  return {.player_id = row[0].as<std::string>(),
          .display_name = row[1].as<std::string>(),
          .display_key = row[2].as<std::string>(),
          .kind = row[3].as<int>(),
          .create_time = absl::FromUnixMicros(row[4].as<int64_t>())};
}

}  // namespace

absl::StatusOr<std::unique_ptr<PgMatchmakingStore>> PgMatchmakingStore::Open(
    PgPool& pool, const std::string& schema) {
  if (absl::Status s = ApplyMigrations(pool, schema, MatchmakingMigrations()); !s.ok()) return s;
  absl::StatusOr<std::string> quoted =
      pool.Run([&](pqxx::work& tx) { return tx.quote_name(schema); });
  if (!quoted.ok()) return quoted.status();
  return std::unique_ptr<PgMatchmakingStore>(new PgMatchmakingStore(pool, *std::move(quoted)));
}

PgMatchmakingStore::PgMatchmakingStore(PgPool& pool, std::string quoted_schema)
    : pool_(pool), schema_(std::move(quoted_schema)) {}

std::string PgMatchmakingStore::Table(const char* name) const {
  return absl::StrCat(schema_, ".", name);
}

absl::Status PgMatchmakingStore::InsertPlayer(const PlayerRow& player,
                                              const std::string& token_hash) {
  // Which value is taken is checked first, to say so; the unique constraints stay the
  // backstop against a concurrent insert (ALREADY_EXISTS either way).
  absl::StatusOr<std::string> taken = pool_.Run([&](pqxx::work& tx) -> std::string {
    const pqxx::result conflict = tx.exec_params(
        absl::StrCat("SELECT player_id = $1 FROM ", Table("players"),
                     " WHERE player_id = $1 OR display_key = $2 LIMIT 1"),
        player.player_id, player.display_key);
    if (!conflict.empty()) return conflict[0][0].as<bool>() ? "player_id" : "display_name";
    tx.exec_params0(
        absl::StrCat("INSERT INTO ", Table("players"),
                     " (player_id, display_name, display_key, kind, token_hash, create_time)"
                     " VALUES ($1, $2, $3, $4, $5::bytea, $6::timestamptz)"),
        player.player_id, player.display_name, player.display_key, player.kind,
        Bytea(token_hash), pg_text::Timestamp(player.create_time));
    return "";
  });
  if (!taken.ok()) {
    if (absl::IsAlreadyExists(taken.status())) {
      return absl::AlreadyExistsError("player_id or display_name: already taken");
    }
    return taken.status();
  }
  if (*taken == "player_id") return absl::AlreadyExistsError("player_id: already taken");
  if (*taken == "display_name") {
    return absl::AlreadyExistsError(
        "display_name: already taken (names are compared without regard to case)");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::optional<PlayerRow>> PgMatchmakingStore::GetPlayer(
    const std::string& player_id) {
  return pool_.Run([&](pqxx::work& tx) -> std::optional<PlayerRow> {
    const pqxx::result rows = tx.exec_params(
        absl::StrCat("SELECT ", kPlayerColumns, " FROM ", Table("players"),
                     " WHERE player_id = $1"),
        player_id);
    if (rows.empty()) return std::nullopt;
    return ReadPlayer(rows[0]);
  });
}

absl::StatusOr<std::vector<PlayerRow>> PgMatchmakingStore::ListPlayers(
    int kind, const std::string& after_id, int limit) {
  return pool_.Run([&](pqxx::work& tx) {
    const pqxx::result rows = tx.exec_params(
        absl::StrCat("SELECT ", kPlayerColumns, " FROM ", Table("players"),
                     " WHERE player_id > $1 AND ($2 = 0 OR kind = $2)"
                     " ORDER BY player_id LIMIT $3"),
        after_id, kind, limit);
    std::vector<PlayerRow> players;
    players.reserve(rows.size());
    for (const pqxx::row& row : rows) players.push_back(ReadPlayer(row));
    return players;
  });
}

absl::StatusOr<PlayerRow> PgMatchmakingStore::SetTokenHash(const std::string& player_id,
                                                          const std::string& token_hash) {
  absl::StatusOr<std::optional<PlayerRow>> updated =
      pool_.Run([&](pqxx::work& tx) -> std::optional<PlayerRow> {
        const pqxx::result rows = tx.exec_params(
            absl::StrCat("UPDATE ", Table("players"),
                         " SET token_hash = $2::bytea WHERE player_id = $1 RETURNING ",
                         kPlayerColumns),
            player_id, Bytea(token_hash));
        if (rows.empty()) return std::nullopt;
        return ReadPlayer(rows[0]);
      });
  if (!updated.ok()) return updated.status();
  if (!updated->has_value()) return absl::NotFoundError("no such player");
  return **updated;
}

absl::StatusOr<std::optional<std::string>> PgMatchmakingStore::PlayerWithTokenHash(
    const std::string& token_hash) {
  return pool_.Run([&](pqxx::work& tx) -> std::optional<std::string> {
    const pqxx::result rows = tx.exec_params(
        absl::StrCat("SELECT player_id FROM ", Table("players"),
                     " WHERE token_hash = $1::bytea"),
        Bytea(token_hash));
    if (rows.empty()) return std::nullopt;
    return rows[0][0].as<std::string>();
  });
}

absl::Status PgMatchmakingStore::InsertQueue(const QueueRow& queue) {
  absl::Status status = pool_.Run([&](pqxx::work& tx) {
    tx.exec_params0(absl::StrCat("INSERT INTO ", Table("queues"),
                                 " (queue_id, game, settings, create_time, update_time)"
                                 " VALUES ($1, $2, $3::bytea, $4::timestamptz, $5::timestamptz)"),
                    queue.queue_id, queue.game, Bytea(queue.settings),
                    pg_text::Timestamp(queue.create_time), pg_text::Timestamp(queue.update_time));
  });
  if (absl::IsAlreadyExists(status)) return absl::AlreadyExistsError("queue_id: already taken");
  return status;
}

absl::StatusOr<std::optional<QueueRow>> PgMatchmakingStore::GetQueue(const std::string& queue_id) {
  return pool_.Run([&](pqxx::work& tx) -> std::optional<QueueRow> {
    const pqxx::result rows = tx.exec_params(
        absl::StrCat("SELECT ", kQueueColumns, " FROM ", Table("queues"), " WHERE queue_id = $1"),
        queue_id);
    if (rows.empty()) return std::nullopt;
    return ReadQueue(rows[0]);
  });
}

absl::StatusOr<std::vector<QueueRow>> PgMatchmakingStore::ListQueues(const std::string& game,
                                                                     const std::string& after_id,
                                                                     int limit) {
  return pool_.Run([&](pqxx::work& tx) {
    const pqxx::result rows = tx.exec_params(
        absl::StrCat("SELECT ", kQueueColumns, " FROM ", Table("queues"),
                     " WHERE queue_id > $1 AND ($2 = '' OR game = $2) ORDER BY queue_id LIMIT $3"),
        after_id, game, limit);
    std::vector<QueueRow> queues;
    queues.reserve(rows.size());
    for (const pqxx::row& row : rows) queues.push_back(ReadQueue(row));
    return queues;
  });
}

absl::Status PgMatchmakingStore::UpdateQueue(const std::string& queue_id,
                                             const std::string& settings,
                                             absl::Time read_update_time, absl::Time update_time) {
  // -1: no such queue; 0: changed meanwhile; 1: updated.
  absl::StatusOr<int> outcome = pool_.Run([&](pqxx::work& tx) {
    const pqxx::result updated = tx.exec_params(
        absl::StrCat("UPDATE ", Table("queues"),
                     " SET settings = $2::bytea, update_time = $4::timestamptz"
                     " WHERE queue_id = $1 AND update_time = $3::timestamptz"),
        queue_id, Bytea(settings), pg_text::Timestamp(read_update_time),
        pg_text::Timestamp(update_time));
    if (updated.affected_rows() == 1) return 1;
    return tx.exec_params(absl::StrCat("SELECT 1 FROM ", Table("queues"), " WHERE queue_id = $1"),
                          queue_id)
                   .empty()
               ? -1
               : 0;
  });
  if (!outcome.ok()) return outcome.status();
  if (*outcome < 0) return absl::NotFoundError("no such queue");
  if (*outcome == 0) return absl::AbortedError("the queue changed meanwhile; read it and retry");
  return absl::OkStatus();
}

absl::Status PgMatchmakingStore::DeleteQueue(const std::string& queue_id) {
  absl::StatusOr<int> deleted = pool_.Run([&](pqxx::work& tx) {
    const int rows = static_cast<int>(
        tx.exec_params(absl::StrCat("DELETE FROM ", Table("queues"), " WHERE queue_id = $1"),
                       queue_id)
            .affected_rows());
    // Its searching tickets end with it (FORMING ones are seated already).
    if (rows > 0) EndSearchingTickets(tx, "queue_id", queue_id, kTicketCancelled, absl::Now());
    return rows;
  });
  if (!deleted.ok()) return deleted.status();
  if (*deleted == 0) return absl::NotFoundError("no such queue");
  return absl::OkStatus();
}

absl::Status PgMatchmakingStore::CreateParty(const PartyRow& party) {
  absl::Status status = pool_.Run([&](pqxx::work& tx) -> absl::Status {
    if (HasLiveTicket(tx, party.leader)) {
      return absl::FailedPreconditionError(
          "the player has a live ticket; cancel it before making a party");
    }
    tx.exec_params0(absl::StrCat("INSERT INTO ", Table("parties"),
                                 " (party_id, leader, invite_code, create_time)"
                                 " VALUES ($1, $2, $3, $4::timestamptz)"),
                    party.party_id, party.leader, party.invite_code,
                    pg_text::Timestamp(party.create_time));
    tx.exec_params0(absl::StrCat("INSERT INTO ", Table("party_members"),
                                 " (party_id, player_id) VALUES ($1, $2)"),
                    party.party_id, party.leader);
    return absl::OkStatus();
  });
  // The only unique value a new party can collide on is its leader's membership (ids and
  // codes are 64 and 50 random bits).
  if (absl::IsAlreadyExists(status)) {
    return absl::FailedPreconditionError("the player is in a party already; leave it first");
  }
  return status;
}

// The party `party_id` with its members in joining order; nullopt when there is none.
std::optional<PartyRow> PgMatchmakingStore::ReadParty(pqxx::work& tx,
                                                      const std::string& party_id) const {
  const pqxx::result party = tx.exec_params(
      absl::StrCat("SELECT party_id, leader, invite_code,"
                   " (extract(epoch FROM create_time) * 1000000)::bigint FROM ",
                   Table("parties"), " WHERE party_id = $1"),
      party_id);
  if (party.empty()) return std::nullopt;
  PartyRow row{.party_id = party[0][0].as<std::string>(),
               .leader = party[0][1].as<std::string>(),
               .invite_code = party[0][2].as<std::string>(),
               .create_time = absl::FromUnixMicros(party[0][3].as<int64_t>()),
               .members = {},
               .latest_ticket = ""};
  for (const pqxx::row& member :
       tx.exec_params(absl::StrCat("SELECT player_id FROM ", Table("party_members"),
                                   " WHERE party_id = $1 ORDER BY seq"),
                      party_id)) {
    row.members.push_back(member[0].as<std::string>());
  }
  const pqxx::result ticket = tx.exec_params(
      absl::StrCat("SELECT ticket_id FROM ", Table("tickets"),
                   " WHERE party_id = $1 ORDER BY create_time DESC, ticket_id DESC LIMIT 1"),
      party_id);
  if (!ticket.empty()) row.latest_ticket = ticket[0][0].as<std::string>();
  return row;
}

absl::StatusOr<PartyRow> PgMatchmakingStore::JoinParty(const std::string& invite_code,
                                                       const std::string& player_id,
                                                       int max_members) {
  enum class Outcome { kJoined, kNoSuchCode, kFull, kPlayerSearching, kPartySearching };
  PartyRow joined;
  absl::StatusOr<Outcome> outcome = pool_.Run([&](pqxx::work& tx) {
    // The party's row is locked, so two joins cannot both take its last place.
    const pqxx::result party = tx.exec_params(
        absl::StrCat("SELECT party_id FROM ", Table("parties"),
                     " WHERE invite_code = $1 FOR UPDATE"),
        invite_code);
    if (party.empty()) return Outcome::kNoSuchCode;
    const std::string party_id = party[0][0].as<std::string>();
    const int members = tx.exec_params1(absl::StrCat("SELECT count(*) FROM ",
                                                     Table("party_members"),
                                                     " WHERE party_id = $1"),
                                        party_id)[0]
                            .as<int>();
    if (members >= max_members) return Outcome::kFull;
    // A ticket names its players when it is made: nobody joins a party while it searches.
    if (HasLiveTicket(tx, player_id)) return Outcome::kPlayerSearching;
    if (PartyHasLiveTicket(tx, party_id)) return Outcome::kPartySearching;
    tx.exec_params0(absl::StrCat("INSERT INTO ", Table("party_members"),
                                 " (party_id, player_id) VALUES ($1, $2)"),
                    party_id, player_id);
    joined = *ReadParty(tx, party_id);
    return Outcome::kJoined;
  });
  if (absl::IsAlreadyExists(outcome.status())) {
    return absl::FailedPreconditionError("the player is in a party already; leave it first");
  }
  if (!outcome.ok()) return outcome.status();
  switch (*outcome) {
    case Outcome::kNoSuchCode:
      return absl::NotFoundError("no party has this invite code");
    case Outcome::kFull:
      return absl::FailedPreconditionError(
          absl::StrCat("the party is full (", max_members, " members)"));
    case Outcome::kPlayerSearching:
      return absl::FailedPreconditionError(
          "the player has a live ticket; cancel it before joining a party");
    case Outcome::kPartySearching:
      return absl::FailedPreconditionError(
          "the party has a live ticket; its leader must cancel it before anyone joins");
    case Outcome::kJoined:
      break;
  }
  return joined;
}

absl::StatusOr<PartyRow> PgMatchmakingStore::LeaveParty(const std::string& party_id,
                                                        const std::string& player_id) {
  enum class Outcome { kLeft, kNoSuchParty, kNotAMember };
  PartyRow after;
  absl::StatusOr<Outcome> outcome = pool_.Run([&](pqxx::work& tx) {
    // Locked first, so a concurrent leave sees the leader this one leaves behind.
    tx.exec_params(absl::StrCat("SELECT 1 FROM ", Table("parties"),
                                " WHERE party_id = $1 FOR UPDATE"),
                   party_id);
    std::optional<PartyRow> before = ReadParty(tx, party_id);
    if (!before) return Outcome::kNoSuchParty;
    std::vector<std::string>& members = before->members;
    const auto leaving = std::find(members.begin(), members.end(), player_id);
    if (leaving == members.end()) return Outcome::kNotAMember;
    tx.exec_params0(absl::StrCat("DELETE FROM ", Table("party_members"),
                                 " WHERE party_id = $1 AND player_id = $2"),
                    party_id, player_id);
    members.erase(leaving);
    // The party's ticket named the leaver: it ends (a FORMING one is seated already).
    EndSearchingTickets(tx, "party_id", party_id, kTicketCancelled, absl::Now());
    if (members.empty()) {
      tx.exec_params0(absl::StrCat("DELETE FROM ", Table("parties"), " WHERE party_id = $1"),
                      party_id);
      before->leader.clear();
    } else if (before->leader == player_id) {
      // Members are in joining order: the first left is the longest-standing.
      before->leader = members.front();
      tx.exec_params0(absl::StrCat("UPDATE ", Table("parties"),
                                   " SET leader = $2 WHERE party_id = $1"),
                      party_id, before->leader);
    }
    after = *std::move(before);
    return Outcome::kLeft;
  });
  if (!outcome.ok()) return outcome.status();
  switch (*outcome) {
    case Outcome::kNoSuchParty:
      return absl::NotFoundError("no such party");
    case Outcome::kNotAMember:
      return absl::FailedPreconditionError("the player is not a member of this party");
    case Outcome::kLeft:
      break;
  }
  return after;
}

absl::StatusOr<std::optional<PartyRow>> PgMatchmakingStore::GetParty(const std::string& party_id) {
  return pool_.Run([&](pqxx::work& tx) { return ReadParty(tx, party_id); });
}

}  // namespace boneyard::matchmaking
