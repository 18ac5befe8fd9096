#include "services/matchmaking/pg_ladder_store.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "services/common/pg_fields.h"
#include "services/common/pg_text.h"
#include "services/matchmaking/ladder_rules.h"

namespace boneyard::matchmaking {
namespace {

using pg_fields::Bytes;
using pg_fields::Strings;
using pg_text::Bytea;
using pg_text::EpochMicros;
using pg_text::TextArray;
using pg_text::Timestamp;

std::string Text(const pqxx::field& f) { return f.is_null() ? std::string() : f.c_str(); }

absl::Time Time(const pqxx::field& f) { return absl::FromUnixMicros(f.as<int64_t>()); }

const std::string kLadderColumns =
    absl::StrCat("ladder_id, game, settings, ", EpochMicros("create_time"));

LadderRow ReadLadder(const pqxx::row& r) {
  return {.ladder_id = r[0].as<std::string>(),
          .game = r[1].as<std::string>(),
          .settings = Bytes(r[2]),
          .create_time = Time(r[3])};
}

// Over `m` (ladder_members) joined with `p` (players).
const std::string kMemberColumns =
    absl::StrCat("m.ladder_id, m.player_id, p.display_name, p.kind, m.rated_vs_bots, m.accept, ",
                 EpochMicros("m.join_time"));

MemberRow ReadMember(const pqxx::row& r) {
  return {.ladder_id = r[0].as<std::string>(),
          .player_id = r[1].as<std::string>(),
          .display_name = r[2].as<std::string>(),
          .kind = r[3].as<int>(),
          .rated_vs_bots = r[4].as<bool>(),
          .accept = Bytes(r[5]),
          .join_time = Time(r[6])};
}

const std::string kChallengeColumns = absl::StrCat(
    "challenge_id, ladder_id, challenger, opponent, rated, bot_vs_bot, state, decline_reason, "
    "match_request, match_name, execution_target, seat_players, seat_tokens, result, ",
    EpochMicros("end_time"), ", sequence, creator, request_id, request_digest, ",
    EpochMicros("create_time"), ", ", EpochMicros("update_time"));

ChallengeRow ReadChallenge(const pqxx::row& r) {
  ChallengeRow c;
  c.challenge_id = r[0].as<std::string>();
  c.ladder_id = r[1].as<std::string>();
  c.challenger = r[2].as<std::string>();
  c.opponent = r[3].as<std::string>();
  c.rated = r[4].as<bool>();
  c.bot_vs_bot = r[5].as<bool>();
  c.state = r[6].as<int>();
  c.decline_reason = r[7].as<std::string>();
  c.match_request = Bytes(r[8]);
  c.match_name = Text(r[9]);
  c.execution_target = Text(r[10]);
  c.seat_players = Strings(r[11]);
  c.seat_tokens = Strings(r[12]);
  c.result = Bytes(r[13]);
  if (!r[14].is_null()) c.end_time = Time(r[14]);
  c.sequence = r[15].as<int64_t>();
  c.creator = r[16].as<std::string>();
  c.request_id = Text(r[17]);
  c.request_digest = Bytes(r[18]);
  c.create_time = Time(r[19]);
  c.update_time = Time(r[20]);
  return c;
}

// A nullable text parameter: NULL for empty.
const char* OrNull(const std::string& s) { return s.empty() ? nullptr : s.c_str(); }

}  // namespace

PgLadderStore::PgLadderStore(PgPool& pool, std::string quoted_schema)
    : pool_(pool), schema_(std::move(quoted_schema)) {}

std::string PgLadderStore::Table(const char* name) const {
  return absl::StrCat(schema_, ".", name);
}

int64_t PgLadderStore::Tick(pqxx::work& tx) const {
  return tx
      .exec1(absl::StrCat("UPDATE ", Table("challenge_clock"),
                          " SET sequence = sequence + 1 RETURNING sequence"))[0]
      .as<int64_t>();
}

absl::Status PgLadderStore::InsertLadder(const LadderRow& row) {
  absl::Status s = pool_.WithTransaction([&](pqxx::work& tx) {
    tx.exec_params0(absl::StrCat("INSERT INTO ", Table("ladders"),
                                 " (ladder_id, game, settings, create_time)"
                                 " VALUES ($1, $2, $3::bytea, $4::timestamptz)"),
                    row.ladder_id, row.game, Bytea(row.settings), Timestamp(row.create_time));
    return absl::OkStatus();
  });
  if (absl::IsAlreadyExists(s)) return absl::AlreadyExistsError("ladder_id: already taken");
  return s;
}

absl::StatusOr<std::optional<LadderRow>> PgLadderStore::GetLadder(const std::string& ladder_id) {
  return pool_.Run([&](pqxx::work& tx) -> std::optional<LadderRow> {
    const pqxx::result rows =
        tx.exec_params(absl::StrCat("SELECT ", kLadderColumns, " FROM ", Table("ladders"),
                                    " WHERE ladder_id = $1"),
                       ladder_id);
    if (rows.empty()) return std::nullopt;
    return ReadLadder(rows[0]);
  });
}

absl::StatusOr<std::vector<LadderRow>> PgLadderStore::ListLadders(const std::string& game,
                                                                  const std::string& after_id,
                                                                  int limit) {
  return pool_.Run([&](pqxx::work& tx) {
    std::vector<LadderRow> out;
    for (const pqxx::row& r :
         tx.exec_params(absl::StrCat("SELECT ", kLadderColumns, " FROM ", Table("ladders"),
                                     " WHERE ladder_id > $1 AND ($2 = '' OR game = $2)"
                                     " ORDER BY ladder_id LIMIT $3"),
                        after_id, game, limit)) {
      out.push_back(ReadLadder(r));
    }
    return out;
  });
}

absl::StatusOr<MemberRow> PgLadderStore::UpsertMember(const MemberRow& row) {
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<MemberRow> {
    tx.exec_params0(
        absl::StrCat("INSERT INTO ", Table("ladder_members"),
                     " (ladder_id, player_id, rated_vs_bots, accept, join_time)"
                     " VALUES ($1, $2, $3, $4::bytea, $5::timestamptz)"
                     " ON CONFLICT (ladder_id, player_id) DO UPDATE"
                     " SET rated_vs_bots = excluded.rated_vs_bots, accept = excluded.accept"),
        row.ladder_id, row.player_id, row.rated_vs_bots,
        row.accept.empty() ? std::optional<std::string>() : Bytea(row.accept),
        Timestamp(row.join_time));
    const pqxx::result rows = tx.exec_params(
        absl::StrCat("SELECT ", kMemberColumns, " FROM ", Table("ladder_members"), " m JOIN ",
                     Table("players"),
                     " p USING (player_id) WHERE m.ladder_id = $1 AND m.player_id = $2"),
        row.ladder_id, row.player_id);
    if (rows.empty()) return absl::InternalError("a member just written cannot be read");
    return ReadMember(rows[0]);
  });
}

absl::StatusOr<std::optional<MemberRow>> PgLadderStore::GetMember(const std::string& ladder_id,
                                                                  const std::string& player_id) {
  return pool_.Run([&](pqxx::work& tx) -> std::optional<MemberRow> {
    const pqxx::result rows = tx.exec_params(
        absl::StrCat("SELECT ", kMemberColumns, " FROM ", Table("ladder_members"), " m JOIN ",
                     Table("players"),
                     " p USING (player_id) WHERE m.ladder_id = $1 AND m.player_id = $2"),
        ladder_id, player_id);
    if (rows.empty()) return std::nullopt;
    return ReadMember(rows[0]);
  });
}

absl::StatusOr<std::vector<MemberRow>> PgLadderStore::Members(const std::string& ladder_id) {
  return pool_.Run([&](pqxx::work& tx) {
    std::vector<MemberRow> out;
    for (const pqxx::row& r : tx.exec_params(
             absl::StrCat("SELECT ", kMemberColumns, " FROM ", Table("ladder_members"), " m JOIN ",
                          Table("players"),
                          " p USING (player_id) WHERE m.ladder_id = $1 ORDER BY m.player_id"),
             ladder_id)) {
      out.push_back(ReadMember(r));
    }
    return out;
  });
}

void PgLadderStore::WriteChallenge(pqxx::work& tx, const ChallengeRow& c) const {
  tx.exec_params0(
      absl::StrCat(
          "INSERT INTO ", Table("challenges"),
          " (challenge_id, ladder_id, challenger, opponent, rated, bot_vs_bot, state,"
          " decline_reason, match_request, match_name, execution_target, seat_players,"
          " seat_tokens, result, end_time, sequence, creator, request_id, request_digest,"
          " create_time, update_time)"
          " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::bytea, $10, $11, $12::text[],"
          " $13::text[], $14::bytea, $15::timestamptz, $16, $17, $18, $19::bytea,"
          " $20::timestamptz, $21::timestamptz)"
          " ON CONFLICT (challenge_id) DO UPDATE SET opponent = excluded.opponent,"
          " rated = excluded.rated, bot_vs_bot = excluded.bot_vs_bot, state = excluded.state,"
          " decline_reason = excluded.decline_reason, match_request = excluded.match_request,"
          " match_name = excluded.match_name, execution_target = excluded.execution_target,"
          " seat_players = excluded.seat_players, seat_tokens = excluded.seat_tokens,"
          " result = excluded.result, end_time = excluded.end_time,"
          " sequence = excluded.sequence, update_time = excluded.update_time"),
      c.challenge_id, c.ladder_id, c.challenger, c.opponent, c.rated, c.bot_vs_bot, c.state,
      c.decline_reason,
      c.match_request.empty() ? std::optional<std::string>() : Bytea(c.match_request),
      OrNull(c.match_name), OrNull(c.execution_target),
      c.seat_players.empty() ? std::optional<std::string>() : TextArray(c.seat_players),
      c.seat_tokens.empty() ? std::optional<std::string>() : TextArray(c.seat_tokens),
      c.result.empty() ? std::optional<std::string>() : Bytea(c.result),
      c.end_time.has_value() ? std::optional<std::string>(Timestamp(*c.end_time))
                             : std::optional<std::string>(),
      c.sequence, c.creator, OrNull(c.request_id),
      c.request_digest.empty() ? std::optional<std::string>() : Bytea(c.request_digest),
      Timestamp(c.create_time), Timestamp(c.update_time));
}

absl::StatusOr<std::pair<ChallengeRow, bool>> PgLadderStore::CreateChallenge(ChallengeRow row,
                                                                             const Decide& decide) {
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<std::pair<ChallengeRow, bool>> {
    const int64_t sequence = Tick(tx);  // first: the lock orders everything after it
    if (!row.request_id.empty()) {
      const pqxx::result before =
          tx.exec_params(absl::StrCat("SELECT ", kChallengeColumns, " FROM ", Table("challenges"),
                                      " WHERE creator = $1 AND request_id = $2"),
                         row.creator, row.request_id);
      if (!before.empty()) {
        // Rolled back by the caller's error or not: the tick is not used, which only leaves a
        // gap in the numbers.
        return std::make_pair(ReadChallenge(before[0]), true);
      }
    }
    ChallengeCounts counts;
    counts.opponent_active =
        tx.exec_params1(absl::StrCat("SELECT count(*) FROM ", Table("challenges"),
                                     " WHERE (challenger = $1 OR opponent = $1) AND state = $2"),
                        row.opponent, kChallengeAccepted)[0]
            .as<int>();
    counts.challenger_bot_games_last_day =
        tx.exec_params1(absl::StrCat("SELECT count(*) FROM ", Table("challenges"),
                                     " WHERE challenger = $1 AND ladder_id = $2 AND bot_vs_bot"
                                     " AND state IN ($3, $4) AND create_time > $5::timestamptz"),
                        row.challenger, row.ladder_id, kChallengeAccepted, kChallengeFinished,
                        Timestamp(row.create_time - absl::Hours(24)))[0]
            .as<int>();
    if (absl::Status s = decide(counts, row); !s.ok()) return s;
    row.sequence = sequence;
    WriteChallenge(tx, row);
    return std::make_pair(row, false);
  });
}

absl::StatusOr<std::optional<ChallengeRow>> PgLadderStore::GetChallenge(
    const std::string& challenge_id) {
  return pool_.Run([&](pqxx::work& tx) -> std::optional<ChallengeRow> {
    const pqxx::result rows =
        tx.exec_params(absl::StrCat("SELECT ", kChallengeColumns, " FROM ", Table("challenges"),
                                    " WHERE challenge_id = $1"),
                       challenge_id);
    if (rows.empty()) return std::nullopt;
    return ReadChallenge(rows[0]);
  });
}

absl::StatusOr<ChallengeRow> PgLadderStore::ChangeChallenge(const std::string& challenge_id,
                                                            absl::Time now, const Change& change) {
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<ChallengeRow> {
    const int64_t sequence = Tick(tx);
    const pqxx::result rows =
        tx.exec_params(absl::StrCat("SELECT ", kChallengeColumns, " FROM ", Table("challenges"),
                                    " WHERE challenge_id = $1"),
                       challenge_id);
    if (rows.empty()) return absl::NotFoundError("no such challenge");
    ChallengeRow row = ReadChallenge(rows[0]);
    if (absl::Status s = change(row); !s.ok()) return s;
    row.sequence = sequence;
    row.update_time = now;
    WriteChallenge(tx, row);
    return row;
  });
}

absl::StatusOr<std::pair<ChallengeRow, bool>> PgLadderStore::JoinPool(ChallengeRow row,
                                                                      const Change& pair) {
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<std::pair<ChallengeRow, bool>> {
    const int64_t sequence = Tick(tx);  // first: entries to one pool are decided one by one
    if (!row.request_id.empty()) {
      const pqxx::result before =
          tx.exec_params(absl::StrCat("SELECT ", kChallengeColumns, " FROM ", Table("challenges"),
                                      " WHERE creator = $1 AND request_id = $2"),
                         row.creator, row.request_id);
      if (!before.empty()) return std::make_pair(ReadChallenge(before[0]), true);
    }
    const pqxx::result mine =
        tx.exec_params(absl::StrCat("SELECT challenge_id FROM ", Table("challenges"),
                                    " WHERE challenger = $1 AND opponent = $2 AND state = $3"),
                       row.challenger, row.opponent, kChallengeOffered);
    if (!mine.empty()) {
      return absl::AlreadyExistsError(absl::StrCat("players/", row.challenger,
                                                   " already waits in the pool: challenges/",
                                                   mine[0][0].as<std::string>()));
    }
    const pqxx::result waiting = tx.exec_params(
        absl::StrCat("SELECT ", kChallengeColumns, " FROM ", Table("challenges"),
                     " WHERE opponent = $1 AND state = $2 AND rated = $3 AND challenger <> $4"
                     " ORDER BY create_time, challenge_id LIMIT 1"),
        row.opponent, kChallengeOffered, row.rated, row.challenger);
    if (waiting.empty()) {
      row.sequence = sequence;
      WriteChallenge(tx, row);
      return std::make_pair(row, false);
    }
    ChallengeRow paired = ReadChallenge(waiting[0]);
    if (absl::Status s = pair(paired); !s.ok()) return s;
    paired.sequence = sequence;
    paired.update_time = row.create_time;
    WriteChallenge(tx, paired);
    return std::make_pair(paired, false);
  });
}

absl::StatusOr<std::vector<ChallengeRow>> PgLadderStore::WaitingInPools() {
  // Every second, in every matchmaking process: the opponent column is COLLATE "C", so the prefix
  // match is a range scan of challenges_of_opponent (pool entries: waiting or withdrawn ones).
  return pool_.Run([&](pqxx::work& tx) {
    std::vector<ChallengeRow> out;
    for (const pqxx::row& r : tx.exec_params(
             absl::StrCat("SELECT ", kChallengeColumns, " FROM ", Table("challenges"),
                          " WHERE state = $1 AND opponent LIKE 'pool:%' ORDER BY create_time"),
             kChallengeOffered)) {
      out.push_back(ReadChallenge(r));
    }
    return out;
  });
}

absl::StatusOr<std::optional<std::string>> PgLadderStore::ChallengeOfMatch(
    const std::string& match_name) {
  return pool_.Run([&](pqxx::work& tx) -> std::optional<std::string> {
    const pqxx::result rows = tx.exec_params(
        absl::StrCat("SELECT challenge_id FROM ", Table("challenges"), " WHERE match_name = $1"),
        match_name);
    if (rows.empty()) return std::nullopt;
    return rows[0][0].as<std::string>();
  });
}

absl::StatusOr<int64_t> PgLadderStore::LatestSequence() {
  return pool_.Run([&](pqxx::work& tx) {
    return tx.exec1(absl::StrCat("SELECT sequence FROM ", Table("challenge_clock")))[0]
        .as<int64_t>();
  });
}

absl::StatusOr<std::vector<ChallengeRow>> PgLadderStore::Events(const std::string& player,
                                                                int64_t after, bool open_only,
                                                                int limit) {
  return pool_.Run([&](pqxx::work& tx) {
    std::vector<ChallengeRow> out;
    const std::string filter =
        open_only ? absl::StrCat("state IN (", kChallengeOffered, ", ", kChallengeAccepted,
                                 ") AND $2::bigint IS NOT NULL")  // $2 typed, though unused
                  : std::string("sequence > $2");
    // Two index scans (challenger, opponent) rather than one OR over the table.
    const std::string query = absl::StrCat(
        "SELECT ", kChallengeColumns, " FROM (SELECT * FROM ", Table("challenges"),
        " WHERE challenger = $1 AND ", filter, " UNION SELECT * FROM ", Table("challenges"),
        " WHERE opponent = $1 AND ", filter, ") AS mine ORDER BY sequence LIMIT $3");
    for (const pqxx::row& r : tx.exec_params(query, player, after, limit)) {
      out.push_back(ReadChallenge(r));
    }
    return out;
  });
}

absl::StatusOr<PgLadderStore::WatchedChanges> PgLadderStore::ChangesOf(
    const std::vector<std::string>& players, const std::vector<int64_t>& after, int limit) {
  std::string afters = "{";
  for (size_t i = 0; i < after.size(); ++i) absl::StrAppend(&afters, i > 0 ? "," : "", after[i]);
  afters += "}";
  return pool_.Run([&](pqxx::work& tx) {
    WatchedChanges out;
    out.latest = tx.exec1(absl::StrCat("SELECT sequence FROM ", Table("challenge_clock")))[0]
                     .as<int64_t>();
    // One index scan per watched player and side (challenger, opponent), as Events does for
    // one player.
    auto side = [&](const char* column) {
      return absl::StrCat("SELECT ", kChallengeColumns, ", w.player FROM unnest($1::text[], ",
                          "$2::bigint[]) AS w (player, since) JOIN ", Table("challenges"), " c ON c.",
                          column, " = w.player AND c.sequence > w.since");
    };
    const std::string query = absl::StrCat(side("challenger"), " UNION ALL ", side("opponent"),
                                           " ORDER BY sequence LIMIT $3");
    const pqxx::result rows = tx.exec_params(query, TextArray(players), afters, limit);
    for (const pqxx::row& r : rows) {
      out.rows.emplace_back(r[r.size() - 1].as<std::string>(), ReadChallenge(r));
    }
    out.truncated = static_cast<int>(rows.size()) >= limit;
    return out;
  });
}

}  // namespace boneyard::matchmaking
