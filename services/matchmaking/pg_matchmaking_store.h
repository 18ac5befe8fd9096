// The matchmaking service's store on PostgreSQL with libpqxx (tables:
// services/matchmaking/migrations/). No gRPC. Every method is one transaction through PgPool,
// so libpqxx's exceptions come back as absl::Status codes; nothing here retries.
//
// Every statement names its tables with the schema given to Open (quoted), so one database can
// hold many stores side by side (the tests use a schema each).
#ifndef BONEYARD_SERVICES_MATCHMAKING_PG_MATCHMAKING_STORE_H_
#define BONEYARD_SERVICES_MATCHMAKING_PG_MATCHMAKING_STORE_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/common/pg_pool.h"

namespace boneyard::matchmaking {

struct PlayerRow {
  std::string player_id;
  std::string display_name;
  // The display name folded for uniqueness (FoldDisplayName).
  std::string display_key;
  int kind = 0;  // v1.PlayerAccount.Kind
  absl::Time create_time;
};

struct QueueRow {
  std::string queue_id;
  std::string game;
  // The serialized v1.Queue without its name and timestamps.
  std::string settings;
  absl::Time create_time;
  absl::Time update_time;
};

struct PartyRow {
  std::string party_id;
  std::string leader;
  std::string invite_code;
  absl::Time create_time;
  std::vector<std::string> members;  // in the order they joined, the leader's place kept
};

class PgMatchmakingStore {
 public:
  // Applies the matchmaking migrations to `schema` (creating it if needed) and returns a store
  // over `pool`, which must outlive it.
  static absl::StatusOr<std::unique_ptr<PgMatchmakingStore>> Open(PgPool& pool,
                                                                  const std::string& schema);

  // Adds a player with the hash of their token. ALREADY_EXISTS saying which is taken: the
  // player id, or the display name (its folded key).
  absl::Status InsertPlayer(const PlayerRow& player, const std::string& token_hash);
  // The player, or nullopt.
  absl::StatusOr<std::optional<PlayerRow>> GetPlayer(const std::string& player_id);
  // Up to `limit` players after `after_id` (exclusive; empty: from the first) by id; `kind` 0
  // means every kind.
  absl::StatusOr<std::vector<PlayerRow>> ListPlayers(int kind, const std::string& after_id,
                                                     int limit);
  // Replaces a player's token hash and returns the player. NOT_FOUND when there is no such
  // player.
  absl::StatusOr<PlayerRow> SetTokenHash(const std::string& player_id,
                                         const std::string& token_hash);
  // The id of the player whose token hashes to `token_hash`, or nullopt.
  absl::StatusOr<std::optional<std::string>> PlayerWithTokenHash(const std::string& token_hash);

  // Adds a queue. ALREADY_EXISTS when its id is taken.
  absl::Status InsertQueue(const QueueRow& queue);
  // The queue, or nullopt.
  absl::StatusOr<std::optional<QueueRow>> GetQueue(const std::string& queue_id);
  // Up to `limit` queues after `after_id` by id; `game` empty means every game.
  absl::StatusOr<std::vector<QueueRow>> ListQueues(const std::string& game,
                                                   const std::string& after_id, int limit);
  // Replaces a queue's settings and update time if it is still as read (its update time is
  // `read_update_time`): NOT_FOUND when there is no such queue, ABORTED when it changed
  // meanwhile (read it again and retry).
  absl::Status UpdateQueue(const std::string& queue_id, const std::string& settings,
                           absl::Time read_update_time, absl::Time update_time);
  // NOT_FOUND when there is no such queue.
  absl::Status DeleteQueue(const std::string& queue_id);

  // Creates a party whose first member is its leader. FAILED_PRECONDITION when the leader is
  // in a party already.
  absl::Status CreateParty(const PartyRow& party);
  // Adds `player_id` to the party with `invite_code`, which holds at most `max_members`, and
  // returns the party as it is then: NOT_FOUND for no such code, FAILED_PRECONDITION when the
  // player is in a party already or the party is full.
  absl::StatusOr<PartyRow> JoinParty(const std::string& invite_code,
                                     const std::string& player_id, int max_members);
  // Removes `player_id` from the party and returns the party as it is then: a leader who
  // leaves is followed by the longest-standing member; the last member's leaving ends the party
  // (returned with no leader and no members). NOT_FOUND for no such party,
  // FAILED_PRECONDITION when the player is not a member.
  absl::StatusOr<PartyRow> LeaveParty(const std::string& party_id, const std::string& player_id);
  // The party, or nullopt (also once it ended).
  absl::StatusOr<std::optional<PartyRow>> GetParty(const std::string& party_id);

 private:
  PgMatchmakingStore(PgPool& pool, std::string schema);
  std::string Table(const char* name) const;
  std::optional<PartyRow> ReadParty(pqxx::work& tx, const std::string& party_id) const;

  PgPool& pool_;
  const std::string schema_;
};

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_PG_MATCHMAKING_STORE_H_
