#include "services/execution/pg_match_store.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/hash/hash.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "boneyard/v1/execution.pb.h"
#include "boneyard/v1/game.pb.h"
#include "google/protobuf/timestamp.pb.h"
#include "pqxx/pqxx"
#include "services/common/migrations.h"
#include "services/common/pg_pool.h"
#include "services/common/pg_text.h"
#include "services/execution/migrations.h"

namespace boneyard::execution {
namespace {

constexpr int kActive = v1::Match::ACTIVE;

// --- Values to and from PostgreSQL ---

// `t` as timestamptz text in UTC, "2024-05-01 12:00:00.123456+00" (truncated to the
// microsecond). Hand-written rather than absl::FormatTime: Commit formats two per event.
std::string PgTime(absl::Time t) {
  constexpr int64_t kMicrosPerDay = int64_t{86'400} * 1'000'000;
  const int64_t micros = absl::ToUnixMicros(t);  // rounds toward the past
  int64_t days = micros / kMicrosPerDay;
  int64_t of_day = micros % kMicrosPerDay;
  if (of_day < 0) {
    of_day += kMicrosPerDay;
    --days;
  }
  const std::chrono::year_month_day date{std::chrono::sys_days{std::chrono::days{days}}};
  const int64_t seconds = of_day / 1'000'000;
  char text[48];
  const int n = std::snprintf(text, sizeof text, "%04d-%02u-%02u %02d:%02d:%02d.%06d+00",
                              static_cast<int>(date.year()), static_cast<unsigned>(date.month()),
                              static_cast<unsigned>(date.day()), static_cast<int>(seconds / 3600),
                              static_cast<int>(seconds / 60 % 60), static_cast<int>(seconds % 60),
                              static_cast<int>(of_day % 1'000'000));
  return std::string(text, n);
}

// SQL reading a timestamptz column as epoch microseconds (exact: extract returns numeric).
std::string Micros(absl::string_view column) {
  return absl::StrCat("(extract(epoch FROM ", column, ") * 1000000)::bigint");
}

absl::Time TimeFromField(const pqxx::field& field) {
  return absl::FromUnixMicros(field.as<int64_t>());
}

absl::Time FromProto(const google::protobuf::Timestamp& ts) {
  return absl::FromUnixSeconds(ts.seconds()) + absl::Nanoseconds(ts.nanos());
}

void ToProto(absl::Time t, google::protobuf::Timestamp* ts) {
  const int64_t seconds = absl::ToUnixSeconds(t);  // rounds toward the past
  ts->set_seconds(seconds);
  ts->set_nanos(static_cast<int32_t>((t - absl::FromUnixSeconds(seconds)) / absl::Nanoseconds(1)));
}

// A PostgreSQL array literal built an element at a time ("{\"a\",\"b\"}"): every element
// quoted, with '"' and '\\' escaped, so any text (commas, braces, quotes, NULL as a word)
// stays one element.
class ArrayLiteral {
 public:
  void Add(absl::string_view element) {
    text_.push_back(text_.empty() ? '{' : ',');
    text_.push_back('"');
    for (const char c : element) {
      if (c == '"' || c == '\\') text_.push_back('\\');
      text_.push_back(c);
    }
    text_.push_back('"');
  }
  void Add(int64_t number) { Add(absl::StrCat(number)); }
  std::string Take() {
    if (text_.empty()) return "{}";
    text_.push_back('}');
    return std::move(text_);
  }

 private:
  std::string text_;
};

using pg_text::Bytea;
using pg_text::IntArray;
using pg_text::TextArray;

// A text parameter that is NULL when empty.
const char* NullIfEmpty(const std::string& s) { return s.empty() ? nullptr : s.c_str(); }

std::string Bytes(const pqxx::field& field) { return pqxx::binarystring(field).str(); }

template <class Message>
absl::Status Parse(const pqxx::field& field, absl::string_view what, absl::string_view id,
                   Message* message) {
  if (!message->ParseFromString(Bytes(field))) {
    return absl::InternalError(absl::StrCat("the stored ", what, " of matches/", id,
                                            " does not parse"));
  }
  return absl::OkStatus();
}

// --- Rows ---

// The columns of a match as GetMatch returns it, and their reader.
std::string MatchColumns() {
  return absl::StrCat("id, state, last_sequence, match, result, abort_reason, ",
                      Micros("update_time"), ", ", Micros("end_time"), ", ",
                      Micros("create_time"));
}

// The match of a row of MatchColumns(): as created while ACTIVE, with its end otherwise.
absl::StatusOr<v1::Match> MatchFromRow(const pqxx::row& row) {
  const std::string id = row[0].as<std::string>();
  v1::Match match;
  if (absl::Status s = Parse(row[3], "match", id, &match); !s.ok()) return s;
  const int state = row[1].as<int>();
  if (state == kActive) return match;
  match.set_state(static_cast<v1::Match::State>(state));
  match.set_sequence(row[2].as<int64_t>());
  if (!row[4].is_null()) {
    if (absl::Status s = Parse(row[4], "result", id, match.mutable_result()); !s.ok()) return s;
  }
  if (!row[5].is_null()) match.set_abort_reason(row[5].as<std::string>());
  ToProto(TimeFromField(row[6]), match.mutable_update_time());
  if (!row[7].is_null()) ToProto(TimeFromField(row[7]), match.mutable_end_time());
  return match;
}

// The columns of a NewMatch apart from its tokens, and their reader.
constexpr char kNewMatchColumns[] = "id, seed, request_id, request_digest, match";

absl::StatusOr<NewMatch> NewMatchFromRow(const pqxx::row& row) {
  NewMatch out;
  out.id = row[0].as<std::string>();
  out.seed = static_cast<uint64_t>(row[1].as<int64_t>());
  if (!row[2].is_null()) out.request_id = row[2].as<std::string>();
  out.request_digest = Bytes(row[3]);
  if (absl::Status s = Parse(row[4], "match", out.id, &out.match); !s.ok()) return s;
  out.seat_tokens.assign(out.match.seats_size(), "");
  return out;
}

// Puts a (seat, token) into `match`'s tokens, growing them if the seat is beyond its seats.
void PlaceToken(NewMatch& match, int seat, std::string token) {
  if (seat < 0) return;
  if (static_cast<size_t>(seat) >= match.seat_tokens.size()) match.seat_tokens.resize(seat + 1);
  match.seat_tokens[seat] = std::move(token);
}

// The columns of an event (of `alias`), and their reader.
std::string EventSelect(absl::string_view alias) {
  return absl::StrCat(alias, ".match_id, ", alias, ".sequence, ", alias, ".seat, ", alias,
                      ".action, ", alias, ".reason, ", alias, ".round, ", alias, ".message, ",
                      Micros(absl::StrCat(alias, ".turn_start_time")), ", ",
                      Micros(absl::StrCat(alias, ".create_time")));
}

EventRow EventFromRow(const pqxx::row& row) {
  EventRow event;
  event.match_id = row[0].as<std::string>();
  event.sequence = row[1].as<int64_t>();
  event.seat = row[2].as<int>();
  event.action = row[3].as<std::string>();
  event.reason = static_cast<v1::MatchEvent::Reason>(row[4].as<int>());
  event.round = row[5].as<int>();
  event.message = row[6].as<std::string>();
  event.turn_start_time = TimeFromField(row[7]);
  event.create_time = TimeFromField(row[8]);
  return event;
}

absl::Status CheckEnd(const MatchEnd& end) {
  if (end.state == v1::Match::FINISHED) {
    if (!end.result.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("the end of matches/", end.match_id, " is FINISHED without a result"));
    }
    return absl::OkStatus();
  }
  if (end.state == v1::Match::ABORTED) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("the end of matches/", end.match_id,
                                                 " has state ", v1::Match::State_Name(end.state),
                                                 ": a match ends FINISHED or ABORTED"));
}

}  // namespace

absl::StatusOr<std::unique_ptr<MatchStore>> OpenPgMatchStore(PgPool& pool,
                                                             const std::string& schema) {
  absl::StatusOr<std::unique_ptr<PgMatchStore>> store = PgMatchStore::Open(pool, schema);
  if (!store.ok()) return store.status();
  return std::unique_ptr<MatchStore>(*std::move(store));
}

absl::StatusOr<std::unique_ptr<PgMatchStore>> PgMatchStore::Open(PgPool& pool,
                                                                 const std::string& schema) {
  // ApplyMigrations checks the schema name and the migrations' numbering.
  if (absl::Status s = ApplyMigrations(pool, schema, ExecutionMigrations()); !s.ok()) return s;
  absl::StatusOr<std::string> quoted =
      pool.Run([&](pqxx::work& tx) { return tx.quote_name(schema); });
  if (!quoted.ok()) return quoted.status();
  return std::unique_ptr<PgMatchStore>(new PgMatchStore(pool, *quoted));
}

PgMatchStore::PgMatchStore(PgPool& pool, const std::string& quoted_schema)
    : pool_(pool),
      matches_(absl::StrCat(quoted_schema, ".matches")),
      seat_tokens_(absl::StrCat(quoted_schema, ".seat_tokens")),
      events_(absl::StrCat(quoted_schema, ".events")),
      insert_events_(absl::StrCat(
          "INSERT INTO ", events_,
          " (match_id, sequence, seat, action, reason, round, message, turn_start_time,"
          " create_time) SELECT * FROM unnest($1::text[], $2::bigint[], $3::integer[],"
          " $4::text[], $5::smallint[], $6::integer[], $7::text[], $8::timestamptz[],"
          " $9::timestamptz[])")),
      // One name per table (unique within this process, whose connections alone use it): a
      // connection may serve stores of several schemas.
      insert_events_name_(absl::StrCat("insert_events_", absl::Hash<std::string>()(events_))),
      outbox_(absl::StrCat(quoted_schema, ".outbox")),
      replicas_(absl::StrCat(quoted_schema, ".replicas")),
      insert_events_fenced_(absl::StrCat(
          "WITH lease AS (SELECT epoch FROM ", replicas_,
          " WHERE epoch = $10 AND fenced_time IS NULL FOR SHARE) INSERT INTO ", events_,
          " (match_id, sequence, seat, action, reason, round, message, turn_start_time,"
          " create_time) SELECT * FROM unnest($1::text[], $2::bigint[], $3::integer[],"
          " $4::text[], $5::smallint[], $6::integer[], $7::text[], $8::timestamptz[],"
          " $9::timestamptz[]) WHERE EXISTS (SELECT 1 FROM lease)")),
      insert_events_fenced_name_(
          absl::StrCat("insert_events_fenced_", absl::Hash<std::string>()(events_))) {}

absl::StatusOr<CreateResult> PgMatchStore::CreateMatch(const NewMatch& match) {
  if (match.id.empty()) return absl::InvalidArgumentError("a new match needs an id");
  if (match.match.state() != v1::Match::ACTIVE) {
    return absl::InvalidArgumentError(absl::StrCat("new matches/", match.id, " is ",
                                                   v1::Match::State_Name(match.match.state()),
                                                   "; a match is created ACTIVE"));
  }
  // The tokens of player seats, as two parallel arrays for unnest.
  std::vector<std::string> tokens;
  std::vector<int> seats;
  for (size_t seat = 0; seat < match.seat_tokens.size(); ++seat) {
    if (match.seat_tokens[seat].empty()) continue;
    tokens.push_back(match.seat_tokens[seat]);
    seats.push_back(static_cast<int>(seat));
  }
  const std::string insert_match = absl::StrCat(
      "INSERT INTO ", matches_,
      " (id, game, state, create_time, update_time, request_id, request_digest, seed, match,"
      " deal_group, owner_epoch)"
      " VALUES ($1, $2, $3, $4::timestamptz, $5::timestamptz, $6, $7, $8, $9, $10,"
      " NULLIF($11::bigint, 0))"
      " ON CONFLICT (request_id) DO NOTHING RETURNING id");
  const std::string insert_tokens =
      absl::StrCat("INSERT INTO ", seat_tokens_,
                   " (token, match_id, seat) SELECT token, $1, seat"
                   " FROM unnest($2::text[], $3::integer[]) AS t(token, seat)");
  const std::string select_stored = absl::StrCat("SELECT ", kNewMatchColumns, " FROM ", matches_,
                                                 " WHERE request_id = $1");
  const std::string select_tokens =
      absl::StrCat("SELECT seat, token FROM ", seat_tokens_, " WHERE match_id = $1");

  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<CreateResult> {
    const pqxx::result inserted = tx.exec_params(
        insert_match, match.id, match.match.game(), kActive,
        PgTime(FromProto(match.match.create_time())), PgTime(FromProto(match.match.update_time())),
        NullIfEmpty(match.request_id), pqxx::binarystring(match.request_digest),
        static_cast<int64_t>(match.seed), pqxx::binarystring(match.match.SerializeAsString()),
        NullIfEmpty(match.match.deal_group().name()), epoch_.load());
    if (!inserted.empty()) {
      if (!tokens.empty()) {
        tx.exec_params0(insert_tokens, match.id, TextArray(tokens), IntArray(seats));
      }
      return CreateResult{match, false};
    }

    // request_id was used: by a committed transaction (ON CONFLICT waited for it).
    const pqxx::result stored = tx.exec_params(select_stored, match.request_id);
    if (stored.empty()) {
      return absl::AbortedError(absl::StrCat("request_id \"", match.request_id,
                                             "\" conflicted but its match is gone; retry"));
    }
    absl::StatusOr<NewMatch> earlier = NewMatchFromRow(stored[0]);
    if (!earlier.ok()) return earlier.status();
    if (earlier->request_digest != match.request_digest) {
      return absl::AlreadyExistsError(absl::StrCat("request_id \"", match.request_id,
                                                   "\" was used for matches/", earlier->id,
                                                   " with different parameters"));
    }
    for (const pqxx::row& row : tx.exec_params(select_tokens, earlier->id)) {
      PlaceToken(*earlier, row[0].as<int>(), row[1].as<std::string>());
    }
    return CreateResult{*std::move(earlier), true};
  });
}

absl::Status PgMatchStore::Commit(const CommitBatch& batch) {
  if (batch.events.empty() && batch.ends.empty()) return absl::OkStatus();
  if (batch.ends.empty() && batch.events.size() <= kMaxEventsPerStatement) {
    return InsertEvents(batch.events);
  }
  for (const MatchEnd& end : batch.ends) {
    if (absl::Status s = CheckEnd(end); !s.ok()) return s;
  }
  const std::string end_match = absl::StrCat(
      "UPDATE ", matches_,
      " SET state = $2, result = $3::bytea, record = $4::jsonb, abort_reason = $5,"
      " end_time = $6::timestamptz, update_time = $6::timestamptz, last_sequence = $7"
      " WHERE id = $1 AND state = ",
      kActive, " RETURNING match");
  const std::string insert_outbox =
      absl::StrCat("INSERT INTO ", outbox_,
                   " (match_id, receiver, payload, created_time, next_attempt_time)"
                   " VALUES ($1, $2, $3, $4::timestamptz, $4::timestamptz)");
  const std::string match_state = absl::StrCat("SELECT state FROM ", matches_, " WHERE id = $1");

  const int64_t epoch = epoch_.load();
  return pool_.Run([&](pqxx::work& tx) -> absl::Status {
    if (epoch != 0) {
      if (absl::Status s = HoldLease(tx, epoch); !s.ok()) return s;
    }
    if (!batch.events.empty()) {
      // One COPY for every event of the batch (see the header for the measurement).
      pqxx::stream_to copy(tx, events_,
                           std::vector<std::string>{"match_id", "sequence", "seat", "action",
                                                    "reason", "round", "message",
                                                    "turn_start_time", "create_time"});
      for (const EventRow& e : batch.events) {
        copy << std::forward_as_tuple(e.match_id, e.sequence, e.seat, e.action,
                                      static_cast<int>(e.reason), e.round, e.message,
                                      PgTime(e.turn_start_time), PgTime(e.create_time));
      }
      copy.complete();
    }
    for (const MatchEnd& end : batch.ends) {
      const bool finished = end.state == v1::Match::FINISHED;
      const std::string result = finished ? Bytea(end.result->SerializeAsString()) : "";
      const std::string end_time = PgTime(end.end_time);
      const pqxx::result updated = tx.exec_params(
          end_match, end.match_id, static_cast<int>(end.state), NullIfEmpty(result),
          NullIfEmpty(end.record_json), finished ? nullptr : end.abort_reason.c_str(), end_time,
          end.sequence);
      if (updated.empty()) {
        const pqxx::result state = tx.exec_params(match_state, end.match_id);
        if (state.empty()) {
          return absl::NotFoundError(absl::StrCat("no matches/", end.match_id, " to end"));
        }
        return absl::FailedPreconditionError(
            absl::StrCat("matches/", end.match_id, " has ended already"));
      }
      if (!finished) continue;
      // The outbox payload: the match as GetMatch will return it from now on.
      v1::Match match;
      if (absl::Status s = Parse(updated[0][0], "match", end.match_id, &match); !s.ok()) return s;
      match.set_state(v1::Match::FINISHED);
      match.set_sequence(end.sequence);
      *match.mutable_result() = *end.result;
      match.clear_abort_reason();
      ToProto(end.end_time, match.mutable_update_time());
      ToProto(end.end_time, match.mutable_end_time());
      // One row per receiver: a casual match is not rated; a matchmade one goes back to the
      // matchmaking service that formed it.
      const pqxx::binarystring payload(match.SerializeAsString());
      if (!match.casual()) {
        tx.exec_params0(insert_outbox, end.match_id, kRatingsReceiver, payload, end_time);
      }
      if (!match.queue().empty()) {
        tx.exec_params0(insert_outbox, end.match_id, kMatchmakingReceiver, payload, end_time);
      }
    }
    return absl::OkStatus();
  });
}

absl::Status PgMatchStore::InsertEvents(const std::vector<EventRow>& events) {
  ArrayLiteral match_ids, sequences, seats, actions, reasons, rounds, messages, turn_starts,
      creates;
  for (const EventRow& e : events) {
    match_ids.Add(e.match_id);
    sequences.Add(e.sequence);
    seats.Add(e.seat);
    actions.Add(e.action);
    reasons.Add(static_cast<int64_t>(e.reason));
    rounds.Add(e.round);
    messages.Add(e.message);
    turn_starts.Add(PgTime(e.turn_start_time));
    creates.Add(PgTime(e.create_time));
  }
  const int64_t epoch = epoch_.load();
  if (epoch == 0) {
    return pool_.RunStatements([&](pqxx::nontransaction& tx) {
      // Prepared once per connection (a repeat with the same text is a no-op in libpqxx).
      tx.conn().prepare(insert_events_name_, insert_events_);
      tx.exec_prepared0(insert_events_name_, match_ids.Take(), sequences.Take(), seats.Take(),
                        actions.Take(), reasons.Take(), rounds.Take(), messages.Take(),
                        turn_starts.Take(), creates.Take());
    });
  }
  // A registered replica: the statement stores every event or, fenced, none.
  bool fenced = false;
  absl::Status status = pool_.RunStatements([&](pqxx::nontransaction& tx) {
    tx.conn().prepare(insert_events_fenced_name_, insert_events_fenced_);
    const pqxx::result r = tx.exec_prepared(
        insert_events_fenced_name_, match_ids.Take(), sequences.Take(), seats.Take(),
        actions.Take(), reasons.Take(), rounds.Take(), messages.Take(), turn_starts.Take(),
        creates.Take(), epoch);
    fenced = r.affected_rows() == 0;
  });
  if (!status.ok()) return status;
  if (fenced) return Fenced(epoch);
  return absl::OkStatus();
}

absl::StatusOr<std::vector<ActiveMatch>> PgMatchStore::LoadActiveMatches() {
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<std::vector<ActiveMatch>> {
    // One snapshot for the three queries, so a match ending meanwhile cannot come back
    // without its tokens or with part of its events.
    tx.exec0("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
    return ReadActive(tx, std::nullopt);
  });
}

absl::StatusOr<std::vector<ActiveMatch>> PgMatchStore::ReadActive(
    pqxx::work& tx, const std::optional<std::string>& ids) {
  const std::string among = ids.has_value() ? " AND m.id = ANY($1::text[])" : "";
  const std::string select_matches =
      absl::StrCat("SELECT ", kNewMatchColumns, " FROM ", matches_, " m WHERE state = ", kActive,
                   among, " ORDER BY create_time, id");
  const std::string select_tokens =
      absl::StrCat("SELECT t.match_id, t.seat, t.token FROM ", seat_tokens_, " t JOIN ", matches_,
                   " m ON m.id = t.match_id WHERE m.state = ", kActive, among);
  const std::string select_events =
      absl::StrCat("SELECT ", EventSelect("e"), " FROM ", events_, " e JOIN ", matches_,
                   " m ON m.id = e.match_id WHERE m.state = ", kActive, among,
                   " ORDER BY e.match_id, e.sequence");
  auto run = [&](const std::string& query) {
    return ids.has_value() ? tx.exec_params(query, *ids) : tx.exec(query);
  };
  std::vector<ActiveMatch> active;
  absl::flat_hash_map<std::string, size_t> index;
  for (const pqxx::row& row : run(select_matches)) {
    absl::StatusOr<NewMatch> match = NewMatchFromRow(row);
    if (!match.ok()) return match.status();
    index.emplace(match->id, active.size());
    active.push_back(ActiveMatch{*std::move(match), {}});
  }
  for (const pqxx::row& row : run(select_tokens)) {
    auto it = index.find(row[0].as<std::string>());
    if (it == index.end()) continue;
    PlaceToken(active[it->second].match, row[1].as<int>(), row[2].as<std::string>());
  }
  for (const pqxx::row& row : run(select_events)) {
    EventRow event = EventFromRow(row);
    auto it = index.find(event.match_id);
    if (it == index.end()) continue;
    active[it->second].events.push_back(std::move(event));
  }
  return active;
}

absl::StatusOr<v1::Match> PgMatchStore::GetMatch(const std::string& id) {
  const std::string query =
      absl::StrCat("SELECT ", MatchColumns(), " FROM ", matches_, " WHERE id = $1");
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<v1::Match> {
    const pqxx::result rows = tx.exec_params(query, id);
    if (rows.empty()) return absl::NotFoundError(absl::StrCat("no matches/", id));
    return MatchFromRow(rows[0]);
  });
}

absl::StatusOr<NewMatch> PgMatchStore::GetNewMatch(const std::string& id) {
  const std::string select_match =
      absl::StrCat("SELECT ", kNewMatchColumns, " FROM ", matches_, " WHERE id = $1");
  const std::string select_tokens =
      absl::StrCat("SELECT seat, token FROM ", seat_tokens_, " WHERE match_id = $1");
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<NewMatch> {
    const pqxx::result rows = tx.exec_params(select_match, id);
    if (rows.empty()) return absl::NotFoundError(absl::StrCat("no matches/", id));
    absl::StatusOr<NewMatch> match = NewMatchFromRow(rows[0]);
    if (!match.ok()) return match.status();
    for (const pqxx::row& row : tx.exec_params(select_tokens, id)) {
      PlaceToken(*match, row[0].as<int>(), row[1].as<std::string>());
    }
    return match;
  });
}

absl::StatusOr<MatchPage> PgMatchStore::ListMatches(const MatchFilter& filter, int page_size,
                                                    const std::optional<MatchCursor>& after) {
  if (page_size < 1) {
    return absl::InvalidArgumentError(absl::StrCat("page size ", page_size, " is not positive"));
  }
  // Unnamed statements are planned with their parameters' values, so the conditions whose
  // parameter is NULL fold away and the row comparison uses matches_by_create_time (or
  // matches_by_state).
  const std::string query = absl::StrCat(
      "SELECT ", MatchColumns(), " FROM ", matches_,
      " WHERE ($1::smallint IS NULL OR state = $1)"
      " AND ($2::text IS NULL OR game = $2)"
      " AND ($3::timestamptz IS NULL OR (create_time, id) < ($3::timestamptz, $4::text))"
      " ORDER BY create_time DESC, id DESC LIMIT $5");
  const std::string state =
      filter.state == v1::Match::STATE_UNSPECIFIED ? "" : absl::StrCat(filter.state);
  const std::string cursor_time = after.has_value() ? PgTime(after->create_time) : "";
  const std::string cursor_id = after.has_value() ? after->id : "";
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<MatchPage> {
    // One row more than asked says whether there is a next page.
    const pqxx::result rows =
        tx.exec_params(query, NullIfEmpty(state), NullIfEmpty(filter.game),
                       NullIfEmpty(cursor_time), cursor_id, int64_t{page_size} + 1);
    MatchPage page;
    const int n = std::min<int>(rows.size(), page_size);
    for (int i = 0; i < n; ++i) {
      absl::StatusOr<v1::Match> match = MatchFromRow(rows[i]);
      if (!match.ok()) return match.status();
      page.matches.push_back(*std::move(match));
    }
    if (static_cast<int>(rows.size()) > page_size) {
      const pqxx::row& last = rows[n - 1];
      page.next = MatchCursor{TimeFromField(last[8]), last[0].as<std::string>()};
    }
    return page;
  });
}

absl::StatusOr<StoredRecord> PgMatchStore::GetRecordJson(const std::string& id) {
  const std::string query = absl::StrCat(
      "SELECT state, record::text, coalesce(deal_group, '') FROM ", matches_, " WHERE id = $1");
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<StoredRecord> {
    const pqxx::result rows = tx.exec_params(query, id);
    if (rows.empty()) return absl::NotFoundError(absl::StrCat("no matches/", id));
    if (rows[0][0].as<int>() == kActive) {
      return absl::FailedPreconditionError(
          absl::StrCat("matches/", id, " is still being played; its record is not public yet"));
    }
    if (rows[0][1].is_null()) {
      return absl::InternalError(absl::StrCat("matches/", id, " ended without a record"));
    }
    return StoredRecord{rows[0][1].as<std::string>(), rows[0][2].as<std::string>()};
  });
}

absl::StatusOr<std::optional<EventRow>> PgMatchStore::LastEvent(const std::string& id) {
  const std::string exists = absl::StrCat("SELECT 1 FROM ", matches_, " WHERE id = $1");
  const std::string last = absl::StrCat("SELECT ", EventSelect("e"), " FROM ", events_,
                                        " e WHERE e.match_id = $1 ORDER BY e.sequence DESC LIMIT 1");
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<std::optional<EventRow>> {
    if (tx.exec_params(exists, id).empty()) {
      return absl::NotFoundError(absl::StrCat("no matches/", id));
    }
    const pqxx::result rows = tx.exec_params(last, id);
    if (rows.empty()) return std::optional<EventRow>();
    return std::optional<EventRow>(EventFromRow(rows[0]));
  });
}

absl::StatusOr<DealGroupProgress> PgMatchStore::CountDealGroup(const std::string& name) {
  const std::string query =
      absl::StrCat("SELECT count(*), count(*) FILTER (WHERE state = ", kActive, ") FROM ",
                   matches_, " WHERE deal_group = $1");
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<DealGroupProgress> {
    const pqxx::row row = tx.exec_params1(query, name);
    return DealGroupProgress{row[0].as<int64_t>(), row[1].as<int64_t>()};
  });
}

absl::StatusOr<SeatGrant> PgMatchStore::FindSeatToken(const std::string& token) {
  const std::string query =
      absl::StrCat("SELECT match_id, seat FROM ", seat_tokens_, " WHERE token = $1");
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<SeatGrant> {
    const pqxx::result rows = tx.exec_params(query, token);
    // Never repeat the token: it is a secret.
    if (rows.empty()) return absl::NotFoundError("no match has this seat token");
    return SeatGrant{rows[0][0].as<std::string>(), rows[0][1].as<int>()};
  });
}

absl::StatusOr<int64_t> PgMatchStore::CountPendingOutbox(const std::string& receiver) {
  const std::string query =
      absl::StrCat("SELECT count(*) FROM ", outbox_,
                   " WHERE receiver = $1 AND delivered_time IS NULL AND parked_time IS NULL");
  return pool_.Run([&](pqxx::work& tx) -> int64_t {
    return tx.exec_params1(query, receiver)[0].as<int64_t>();
  });
}

namespace {

// Outbox rows (id, match_id, payload, attempts) as items of `receiver`, in id order.
absl::StatusOr<std::vector<OutboxItem>> OutboxItems(const pqxx::result& rows,
                                                    const std::string& receiver) {
  std::vector<OutboxItem> items;
  for (const pqxx::row& row : rows) {
    OutboxItem item;
    item.id = row[0].as<int64_t>();
    item.receiver = receiver;
    item.match_id = row[1].as<std::string>();
    if (absl::Status s = Parse(row[2], "outbox payload", item.match_id, &item.match); !s.ok()) {
      return s;
    }
    item.attempts = row[3].as<int>();
    items.push_back(std::move(item));
  }
  // Oldest first (an UPDATE's RETURNING keeps no order).
  std::sort(items.begin(), items.end(),
            [](const OutboxItem& a, const OutboxItem& b) { return a.id < b.id; });
  return items;
}

absl::Status CheckOutboxLimit(int limit) {
  if (limit >= 1) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("outbox limit ", limit, " is not positive"));
}

}  // namespace

absl::StatusOr<std::vector<OutboxItem>> PgMatchStore::PendingOutbox(const std::string& receiver,
                                                                    int limit, absl::Time now) {
  if (absl::Status s = CheckOutboxLimit(limit); !s.ok()) return s;
  const std::string query =
      absl::StrCat("SELECT id, match_id, payload, attempts FROM ", outbox_,
                   " WHERE receiver = $3 AND delivered_time IS NULL AND parked_time IS NULL"
                   " AND next_attempt_time <= $1::timestamptz ORDER BY id LIMIT $2");
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<std::vector<OutboxItem>> {
    return OutboxItems(tx.exec_params(query, PgTime(now), limit, receiver), receiver);
  });
}

absl::StatusOr<std::vector<OutboxItem>> PgMatchStore::ClaimOutbox(const std::string& receiver,
                                                                  int limit, absl::Time now,
                                                                  absl::Duration claim_for) {
  if (absl::Status s = CheckOutboxLimit(limit); !s.ok()) return s;
  // SKIP LOCKED: replicas claiming at once take different items.
  const std::string query = absl::StrCat(
      "UPDATE ", outbox_, " SET next_attempt_time = $4::timestamptz WHERE id IN (SELECT id FROM ",
      outbox_,
      " WHERE receiver = $3 AND delivered_time IS NULL AND parked_time IS NULL"
      " AND next_attempt_time <= $1::timestamptz ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)"
      " RETURNING id, match_id, payload, attempts");
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<std::vector<OutboxItem>> {
    return OutboxItems(tx.exec_params(query, PgTime(now), limit, receiver, PgTime(now + claim_for)),
                       receiver);
  });
}

absl::Status PgMatchStore::ReleaseOutbox(const std::vector<int64_t>& outbox_ids, absl::Time now) {
  if (outbox_ids.empty()) return absl::OkStatus();
  std::vector<std::string> ids;
  for (int64_t id : outbox_ids) ids.push_back(absl::StrCat(id));
  return pool_.Run([&](pqxx::work& tx) {
    tx.exec_params0(
        absl::StrCat("UPDATE ", outbox_,
                     " SET next_attempt_time = $2::timestamptz WHERE id = ANY($1::bigint[])"
                     " AND delivered_time IS NULL AND parked_time IS NULL"),
        pg_text::TextArray(ids), PgTime(now));
  });
}

absl::Status PgMatchStore::MarkDelivered(int64_t outbox_id, absl::Time when) {
  // A repeated mark keeps the first delivery time.
  const std::string query = absl::StrCat(
      "UPDATE ", outbox_,
      " SET delivered_time = coalesce(delivered_time, $2::timestamptz) WHERE id = $1");
  return pool_.Run([&](pqxx::work& tx) -> absl::Status {
    if (tx.exec_params(query, outbox_id, PgTime(when)).affected_rows() == 0) {
      return absl::NotFoundError(absl::StrCat("no outbox item ", outbox_id));
    }
    return absl::OkStatus();
  });
}

absl::Status PgMatchStore::MarkFailed(int64_t outbox_id, const std::string& error,
                                      absl::Time next_attempt) {
  return RecordFailure(outbox_id, error, "next_attempt_time", next_attempt);
}

absl::Status PgMatchStore::MarkParked(int64_t outbox_id, const std::string& error,
                                      absl::Time when) {
  return RecordFailure(outbox_id, error, "parked_time", when);
}

absl::Status PgMatchStore::RecordFailure(int64_t outbox_id, const std::string& error,
                                         absl::string_view time_column, absl::Time time) {
  const std::string query = absl::StrCat(
      "UPDATE ", outbox_, " SET attempts = attempts + 1, last_error = $2, ", time_column,
      " = $3::timestamptz WHERE id = $1 AND delivered_time IS NULL");
  const std::string exists = absl::StrCat("SELECT 1 FROM ", outbox_, " WHERE id = $1");
  return pool_.Run([&](pqxx::work& tx) -> absl::Status {
    if (tx.exec_params(query, outbox_id, error, PgTime(time)).affected_rows() > 0) {
      return absl::OkStatus();
    }
    if (tx.exec_params(exists, outbox_id).empty()) {
      return absl::NotFoundError(absl::StrCat("no outbox item ", outbox_id));
    }
    return absl::FailedPreconditionError(
        absl::StrCat("outbox item ", outbox_id, " was delivered already"));
  });
}

namespace {

std::string ParkedColumns(absl::string_view parked_time) {
  return absl::StrCat("id, match_id, attempts, coalesce(last_error, ''), ", Micros(parked_time),
                      ", receiver");
}

ParkedItem ParkedFromRow(const pqxx::row& row) {
  ParkedItem item;
  item.id = row[0].as<int64_t>();
  item.match_id = row[1].as<std::string>();
  item.attempts = row[2].as<int>();
  item.last_error = row[3].as<std::string>();
  item.park_time = TimeFromField(row[4]);
  item.receiver = row[5].as<std::string>();
  return item;
}

absl::Status NoParkedItem(int64_t outbox_id) {
  return absl::NotFoundError(absl::StrCat("no parked result ", outbox_id));
}

}  // namespace

absl::StatusOr<std::vector<ParkedItem>> PgMatchStore::ListParked(int limit, int64_t after_id) {
  const std::string query =
      absl::StrCat("SELECT ", ParkedColumns("parked_time"), " FROM ", outbox_,
                   " WHERE parked_time IS NOT NULL AND delivered_time IS NULL AND id > $1"
                   " ORDER BY id LIMIT $2");
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<std::vector<ParkedItem>> {
    std::vector<ParkedItem> items;
    for (const pqxx::row& row : tx.exec_params(query, after_id, limit)) {
      items.push_back(ParkedFromRow(row));
    }
    return items;
  });
}

absl::StatusOr<ParkedItem> PgMatchStore::RetryParked(int64_t outbox_id, absl::Time now) {
  // The record returned is the item as it was parked (RETURNING shows the new row, so the
  // parked time is read first).
  const std::string query = absl::StrCat(
      "UPDATE ", outbox_, " AS o SET parked_time = NULL, next_attempt_time = $2::timestamptz"
      " FROM (SELECT id, parked_time AS was_parked FROM ", outbox_,
      " WHERE id = $1 AND parked_time IS NOT NULL AND delivered_time IS NULL FOR UPDATE) AS p"
      " WHERE o.id = p.id RETURNING o.id, o.match_id, o.attempts, coalesce(o.last_error, ''), ",
      Micros("p.was_parked"), ", o.receiver");
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<ParkedItem> {
    const pqxx::result rows = tx.exec_params(query, outbox_id, PgTime(now));
    if (rows.empty()) return NoParkedItem(outbox_id);
    return ParkedFromRow(rows[0]);
  });
}

absl::StatusOr<ParkedItem> PgMatchStore::DropParked(int64_t outbox_id) {
  const std::string query =
      absl::StrCat("DELETE FROM ", outbox_,
                   " WHERE id = $1 AND parked_time IS NOT NULL AND delivered_time IS NULL"
                   " RETURNING ", ParkedColumns("parked_time"));
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<ParkedItem> {
    const pqxx::result rows = tx.exec_params(query, outbox_id);
    if (rows.empty()) return NoParkedItem(outbox_id);
    return ParkedFromRow(rows[0]);
  });
}

}  // namespace boneyard::execution
