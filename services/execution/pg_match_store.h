// MatchStore on PostgreSQL with libpqxx (tables: services/execution/migrations/). Most code
// wants only the interface and OpenPgMatchStore (match_store.h); this header is for code that
// wants the concrete type.
//
// Every method is one transaction through PgPool::Run, so libpqxx's exceptions come back as
// absl::Status codes (FromPqxx: a unique violation is ALREADY_EXISTS, a lost connection
// UNAVAILABLE, a serialization failure ABORTED). Nothing here retries: the group committer and
// the outbox dispatcher do, because they know what may run twice.
//
// Every statement names its tables with the schema given to Open (quoted), so one database can
// hold many stores side by side (the tests use a schema each). Times go to PostgreSQL as text
// in UTC with six decimals and come back as epoch microseconds, so an absl::Time with whole
// microseconds round-trips exactly (finer parts are truncated toward the past).
//
// Commit writes a batch of events only (nearly every batch: a match ends once in hundreds of
// events), up to kMaxEventsPerStatement of them, as one prepared `INSERT ... SELECT FROM
// unnest($1::text[], ...)` outside a transaction block: one statement is atomic by itself, and
// it is one round trip where BEGIN, COPY and COMMIT were four; at 10,000 actions a second
// paced, batches hold about ten events and the round trips were most of PostgreSQL's work per
// commit (docs/performance.md). Larger batches, and any batch that ends a match, go in one
// transaction with one COPY (pqxx::stream_to) for the events. Measured on 500-event batches
// (loopback PostgreSQL 15, 2 cores): COPY 2.7-4.4 ms a batch, unnest 3.0-5.3 ms, multi-row
// VALUES 6-9 ms. The encoding on this side costs about 1.8 ms of CPU a batch.
#ifndef BONEYARD_SERVICES_EXECUTION_PG_MATCH_STORE_H_
#define BONEYARD_SERVICES_EXECUTION_PG_MATCH_STORE_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/common/pg_pool.h"
#include "services/execution/match_store.h"

namespace boneyard::execution {

class PgMatchStore final : public MatchStore {
 public:
  // Applies the execution migrations to `schema` (creating it if needed), then returns a store
  // over `pool`, which must outlive it. INVALID_ARGUMENT for a schema name PostgreSQL cannot
  // take; the migrations' errors otherwise.
  static absl::StatusOr<std::unique_ptr<PgMatchStore>> Open(PgPool& pool,
                                                            const std::string& schema);

  absl::StatusOr<CreateResult> CreateMatch(const NewMatch& match) override;
  // The new matches in one transaction (pg_match_create.cc); a request_id used before (or
  // twice in the batch), or a batch whose transaction fails, goes through CreateMatch alone.
  std::vector<absl::StatusOr<CreateResult>> CreateMatches(
      const std::vector<NewMatch>& matches) override;
  absl::Status Commit(const CommitBatch& batch) override;
  absl::StatusOr<std::vector<ActiveMatch>> LoadActiveMatches() override;
  absl::StatusOr<v1::Match> GetMatch(const std::string& id) override;
  absl::StatusOr<NewMatch> GetNewMatch(const std::string& id) override;
  absl::StatusOr<MatchPage> ListMatches(const MatchFilter& filter, int page_size,
                                        const std::optional<MatchCursor>& after) override;
  absl::StatusOr<StoredRecord> GetRecordJson(const std::string& id) override;
  absl::StatusOr<std::optional<EventRow>> LastEvent(const std::string& id) override;
  absl::StatusOr<SeatGrant> FindSeatToken(const std::string& token) override;
  absl::StatusOr<DealGroupProgress> CountDealGroup(const std::string& name) override;
  absl::StatusOr<int64_t> CountPendingOutbox(const std::string& receiver) override;
  absl::StatusOr<std::vector<OutboxItem>> PendingOutbox(const std::string& receiver, int limit,
                                                        absl::Time now) override;
  absl::Status MarkDelivered(int64_t outbox_id, absl::Time when) override;
  absl::Status MarkFailed(int64_t outbox_id, const std::string& error,
                          absl::Time next_attempt) override;
  absl::Status MarkParked(int64_t outbox_id, const std::string& error, absl::Time when) override;
  absl::StatusOr<std::vector<ParkedItem>> ListParked(int limit, int64_t after_id) override;
  absl::StatusOr<ParkedItem> RetryParked(int64_t outbox_id, absl::Time now) override;
  absl::StatusOr<ParkedItem> DropParked(int64_t outbox_id) override;
  // Replicas (pg_replicas.cc).
  absl::StatusOr<int64_t> RegisterReplica(const ReplicaInfo& info, absl::Duration lease) override;
  absl::Status RenewLease(absl::Duration lease) override;
  absl::Status SetReplicaAddress(const std::string& address) override;
  absl::StatusOr<std::optional<std::string>> ReplicaAddressOf(const std::string& id) override;
  absl::Status ReleaseLease() override;
  absl::StatusOr<int> HandOver() override;
  absl::StatusOr<std::vector<OutboxItem>> ClaimOutbox(const std::string& receiver, int limit,
                                                      absl::Time now,
                                                      absl::Duration claim_for) override;
  absl::Status ReleaseOutbox(const std::vector<int64_t>& outbox_ids, absl::Time now) override;
  absl::StatusOr<std::vector<ReplicaLoad>> ShareLoad(int64_t live_matches) override;
  absl::StatusOr<std::vector<ActiveMatch>> TakeHandedOver(int limit) override;
  absl::StatusOr<std::vector<ActiveMatch>> AdoptMatches(int limit) override;

  // Commit's limit for one autocommit INSERT (above it, COPY in a transaction).
  static constexpr size_t kMaxEventsPerStatement = 128;

 private:
  // A failed delivery: one attempt more, `error` kept, and `time_column` (next_attempt_time, or
  // parked_time) set to `time`. NOT_FOUND / FAILED_PRECONDITION as MarkFailed.
  absl::Status RecordFailure(int64_t outbox_id, const std::string& error,
                             absl::string_view time_column, absl::Time time);

  PgMatchStore(PgPool& pool, const std::string& quoted_schema);
  // Stores `events` with one autocommit statement (Commit, for a batch of events only).
  absl::Status InsertEvents(const std::vector<EventRow>& events);
  // The ACTIVE matches with their tokens and events, oldest first: all of them, or (`ids` a
  // text[] literal) those among `ids`. In `tx`, whose isolation the caller chose.
  absl::StatusOr<std::vector<ActiveMatch>> ReadActive(pqxx::work& tx,
                                                      const std::optional<std::string>& ids);
  // For a registered replica: FAILED_PRECONDITION unless its row is unfenced, which then stays
  // so (locked FOR SHARE) until `tx` ends — what fences a transaction's writes.
  absl::Status HoldLease(pqxx::work& tx, int64_t epoch);
  // What a fenced replica's writes get: FAILED_PRECONDITION naming its epoch.
  static absl::Status Fenced(int64_t epoch);
  // TakeHandedOver's work in `tx`: the ids of up to `limit` matches handed to `epoch`, no longer
  // marked as handed.
  std::vector<std::string> TakeHandedIds(pqxx::work& tx, int64_t epoch, int limit);

  PgPool& pool_;
  // The tables' names, schema-qualified and quoted, for SQL text.
  const std::string matches_;
  const std::string seat_tokens_;
  const std::string events_;
  // InsertEvents' statement and its prepared name.
  const std::string insert_events_;
  const std::string insert_events_name_;
  const std::string outbox_;
  const std::string replicas_;
  // InsertEvents' statement for a registered replica: stores nothing unless the replica's row
  // is unfenced, locked FOR SHARE (a fence waits for it).
  const std::string insert_events_fenced_;
  const std::string insert_events_fenced_name_;
  // This store's replica epoch; 0 while it has not registered (commits unfenced).
  std::atomic<int64_t> epoch_{0};
};

}  // namespace boneyard::execution

#endif  // BONEYARD_SERVICES_EXECUTION_PG_MATCH_STORE_H_
