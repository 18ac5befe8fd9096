// PgMatchStore::CreateMatches: many CreateMatch calls (a matchmaking pass's matches, a
// tournament round's) in one transaction of two set-based inserts, so they share one commit
// and one fsync instead of each paying for its own.
#include <set>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "services/common/engine_proto.h"
#include "services/common/pg_text.h"
#include "services/execution/pg_match_store.h"

namespace boneyard::execution {

std::vector<absl::StatusOr<CreateResult>> PgMatchStore::CreateMatches(
    const std::vector<NewMatch>& matches) {
  if (matches.size() <= 1) return MatchStore::CreateMatches(matches);
  std::vector<std::string> ids, games, created, updated, requests, digests, seeds, bodies, groups;
  std::vector<std::string> token_values, token_matches;
  std::vector<int> token_seats;
  for (const NewMatch& match : matches) {
    // One CreateMatch would refuse is left out here, and refused below, alone.
    if (match.id.empty() || match.match.state() != v1::Match::ACTIVE) continue;
    ids.push_back(match.id);
    games.push_back(match.match.game());
    created.push_back(pg_text::Timestamp(FromTimestamp(match.match.create_time())));
    updated.push_back(pg_text::Timestamp(FromTimestamp(match.match.update_time())));
    requests.push_back(match.request_id);
    digests.push_back(absl::BytesToHexString(match.request_digest));
    seeds.push_back(absl::StrCat(static_cast<int64_t>(match.seed)));
    bodies.push_back(absl::BytesToHexString(match.match.SerializeAsString()));
    groups.push_back(match.match.deal_group().name());
  }
  std::set<std::string> inserted;
  absl::Status batch = pool_.Run([&](pqxx::work& tx) {
    inserted.clear();
    for (const pqxx::row& row : tx.exec_params(
             absl::StrCat("INSERT INTO ", matches_,
                          " (id, game, state, create_time, update_time, request_id,"
                          " request_digest, seed, match, deal_group, owner_epoch)"
                          " SELECT m.id, m.game, ", v1::Match::ACTIVE,
                          ", m.created::timestamptz, m.updated::timestamptz, NULLIF(m.request, ''),"
                          " decode(m.digest, 'hex'), m.seed::bigint, decode(m.body, 'hex'),"
                          " NULLIF(m.grp, ''), NULLIF($10::bigint, 0)"
                          " FROM unnest($1::text[], $2::text[], $3::text[], $4::text[],"
                          " $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])"
                          " AS m(id, game, created, updated, request, digest, seed, body, grp)"
                          " ON CONFLICT (request_id) DO NOTHING RETURNING id"),
             pg_text::TextArray(ids), pg_text::TextArray(games), pg_text::TextArray(created),
             pg_text::TextArray(updated), pg_text::TextArray(requests),
             pg_text::TextArray(digests), pg_text::TextArray(seeds),
             pg_text::TextArray(bodies), pg_text::TextArray(groups), epoch_.load())) {
      inserted.insert(row[0].as<std::string>());
    }
    token_values.clear();
    token_matches.clear();
    token_seats.clear();
    for (const NewMatch& match : matches) {
      if (!inserted.contains(match.id)) continue;
      for (size_t seat = 0; seat < match.seat_tokens.size(); ++seat) {
        if (match.seat_tokens[seat].empty()) continue;
        token_values.push_back(match.seat_tokens[seat]);
        token_matches.push_back(match.id);
        token_seats.push_back(static_cast<int>(seat));
      }
    }
    if (!token_values.empty()) {
      tx.exec_params0(absl::StrCat("INSERT INTO ", seat_tokens_,
                                   " (token, match_id, seat) SELECT * FROM"
                                   " unnest($1::text[], $2::text[], $3::integer[])"),
                      pg_text::TextArray(token_values), pg_text::TextArray(token_matches),
                      pg_text::IntArray(token_seats));
    }
  });
  std::vector<absl::StatusOr<CreateResult>> results;
  results.reserve(matches.size());
  for (const NewMatch& match : matches) {
    if (batch.ok() && inserted.contains(match.id)) {
      results.push_back(CreateResult{match, false});
    } else {
      // Its request_id was used before (perhaps earlier in this batch, committed now), or the
      // batch failed: alone, CreateMatch answers it exactly.
      results.push_back(CreateMatch(match));
    }
  }
  return results;
}

}  // namespace boneyard::execution
