#include "services/ratings/match_result.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "absl/time/time.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/struct.pb.h"
#include "services/common/engine_proto.h"
#include "services/common/validation.h"

namespace boneyard::ratings {
namespace {

// google.protobuf.Timestamp's valid range: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z.
constexpr int64_t kMinSeconds = -62135596800;
constexpr int64_t kMaxSeconds = 253402300799;
constexpr int kMaxIdLength = 64;

absl::Status Invalid(absl::string_view field, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(field, ": ", what));
}

bool IsIdChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

absl::Status CheckTimestamp(const google::protobuf::Timestamp& t, absl::string_view field) {
  if (t.seconds() < kMinSeconds || t.seconds() > kMaxSeconds || t.nanos() < 0 ||
      t.nanos() > 999'999'999) {
    return Invalid(field, "not a valid timestamp");
  }
  return absl::OkStatus();
}

// A non-negative integer field of a solitaire result's details.
absl::StatusOr<int> DetailCount(const google::protobuf::Struct& details, const char* key) {
  const std::string field = absl::StrCat("match.result.details.", key);
  auto it = details.fields().find(key);
  if (it == details.fields().end()) return Invalid(field, "missing");
  if (it->second.kind_case() != google::protobuf::Value::kNumberValue) {
    return Invalid(field, "not a number");
  }
  const double value = it->second.number_value();
  if (!std::isfinite(value) || value < 0 || value != std::floor(value) || value > 1e6) {
    return Invalid(field, absl::StrCat(value, " is not a non-negative integer"));
  }
  return static_cast<int>(value);
}

absl::StatusOr<SolitaireFigures> Solitaire(const v1::Match& match) {
  const google::protobuf::Struct& details = match.result().details();
  SolitaireFigures out;
  absl::StatusOr<int> tiles = DetailCount(details, "tiles_left");
  if (!tiles.ok()) return tiles.status();
  absl::StatusOr<int> pips = DetailCount(details, "pips_left");
  if (!pips.ok()) return pips.status();
  out.tiles_left = *tiles;
  out.pips_left = *pips;
  auto won = details.fields().find("won");
  if (won == details.fields().end() ||
      won->second.kind_case() != google::protobuf::Value::kBoolValue) {
    return Invalid("match.result.details.won", "missing or not a bool");
  }
  out.won = won->second.bool_value();
  if (!match.has_create_time()) return Invalid("match.create_time", "missing");
  if (absl::Status s = CheckTimestamp(match.create_time(), "match.create_time"); !s.ok()) {
    return s;
  }
  const absl::Duration duration =
      FromTimestamp(match.end_time()) - FromTimestamp(match.create_time());
  if (duration < absl::ZeroDuration()) {
    return Invalid("match.end_time", "before match.create_time");
  }
  out.duration_millis = absl::ToInt64Milliseconds(duration);
  return out;
}

std::string Canonical(const v1::Match& match) {
  v1::Match canonical;
  canonical.set_name(match.name());
  canonical.set_game(match.game());
  *canonical.mutable_seats() = match.seats();
  *canonical.mutable_result() = match.result();
  *canonical.mutable_create_time() = match.create_time();
  *canonical.mutable_end_time() = match.end_time();
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    canonical.SerializeToCodedStream(&coded);
  }
  return bytes;
}

// The sides of a match: result.teams checked, or one per seat.
absl::Status Sides(const v1::MatchResult& result, ValidResult& out) {
  const int seats = static_cast<int>(out.player_ids.size());
  if (result.teams().empty()) {
    for (int seat = 0; seat < seats; ++seat) {
      out.teams.push_back({seat});
      out.team_ranks.push_back(out.seat_ranks[seat]);
    }
    return absl::OkStatus();
  }
  std::vector<bool> covered(seats, false);
  for (int t = 0; t < result.teams_size(); ++t) {
    const std::string field = absl::StrCat("match.result.teams[", t, "]");
    const v1::Team& team = result.teams(t);
    if (team.seats().empty()) return Invalid(field, "has no seats");
    std::vector<int> members;
    for (int seat : team.seats()) {
      if (seat < 0 || seat >= seats) {
        return Invalid(field, absl::StrCat("seat ", seat, " is not one of the ", seats, " seats"));
      }
      if (covered[seat]) {
        return Invalid(field, absl::StrCat("seat ", seat, " is in more than one team"));
      }
      covered[seat] = true;
      if (out.seat_ranks[seat] != out.seat_ranks[team.seats(0)]) {
        return Invalid(field, absl::StrCat("seats ", team.seats(0), " and ", seat,
                                           " are team mates with different ranks (",
                                           out.seat_ranks[team.seats(0)], " and ",
                                           out.seat_ranks[seat], ")"));
      }
      members.push_back(seat);
    }
    std::sort(members.begin(), members.end());
    out.team_ranks.push_back(out.seat_ranks[members.front()]);
    out.teams.push_back(std::move(members));
  }
  for (int seat = 0; seat < seats; ++seat) {
    if (!covered[seat]) {
      return Invalid("match.result.teams", absl::StrCat("seat ", seat, " is in no team"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

bool IsSolitaire(const GameSpec& spec) { return spec.max_seats == 1; }

absl::StatusOr<std::string> ParseMatchName(absl::string_view name, absl::string_view field) {
  absl::string_view id = name;
  bool ok = absl::ConsumePrefix(&id, "matches/") && !id.empty() && id.size() <= kMaxIdLength;
  for (char c : id) ok = ok && IsIdChar(c);
  if (!ok) {
    return Invalid(field,
                   absl::StrCat(validation::Quote(name), " is not of the form \"matches/{id}\""));
  }
  return std::string(id);
}

absl::Status CheckPlayerId(absl::string_view player_id, absl::string_view field) {
  // The edge's rule for ids (services/common/validation.h): a NUL can never be stored, and a
  // 9,000-byte id never indexed, so neither may reach the store (and fail a batch there).
  return validation::CheckId(field, player_id);
}

absl::StatusOr<ValidResult> ValidateResult(const v1::RecordResultRequest& request,
                                           const GameRegistry& registry) {
  if (!request.has_match()) return Invalid("match", "missing");
  const v1::Match& match = request.match();
  ValidResult out;
  absl::StatusOr<std::string> id = ParseMatchName(match.name(), "match.name");
  if (!id.ok()) return id.status();
  out.match_id = *std::move(id);
  if (match.state() != v1::Match::FINISHED) {
    return Invalid("match.state", absl::StrCat(v1::Match::State_Name(match.state()),
                                               ", not FINISHED: only finished matches are rated"));
  }
  if (!match.has_result()) return Invalid("match.result", "missing");
  const GameSpec* spec = registry.Find(match.game());
  if (spec == nullptr) {
    return Invalid("match.game", absl::StrCat("unknown game ", validation::Quote(match.game())));
  }
  out.game = match.game();
  if (!match.has_end_time()) return Invalid("match.end_time", "missing");
  if (absl::Status s = CheckTimestamp(match.end_time(), "match.end_time"); !s.ok()) return s;
  // Stored to the microsecond (timestamptz): truncated here, so a first answer and a repeat's
  // (read back from the database) carry the same time.
  out.end_time = absl::FromUnixMicros(absl::ToUnixMicros(FromTimestamp(match.end_time())));

  const int seats = match.seats_size();
  if (seats == 0) return Invalid("match.seats", "no seats");
  if (seats < spec->min_seats || seats > spec->max_seats) {
    return Invalid("match.seats", absl::StrCat(seats, " seats; ", spec->name, " takes ",
                                               spec->min_seats, " to ", spec->max_seats));
  }
  const v1::MatchResult& result = match.result();
  if (result.player_ids_size() != seats) {
    return Invalid("match.result.player_ids",
                   absl::StrCat(result.player_ids_size(), " player ids for ", seats, " seats"));
  }
  if (result.ranks_size() != seats) {
    return Invalid("match.result.ranks",
                   absl::StrCat(result.ranks_size(), " ranks for ", seats, " seats"));
  }
  if (result.scores_size() != seats) {
    return Invalid("match.result.scores",
                   absl::StrCat(result.scores_size(), " scores for ", seats, " seats"));
  }
  absl::flat_hash_map<std::string, int> seat_of;
  for (int seat = 0; seat < seats; ++seat) {
    const v1::Seat& s = match.seats(seat);
    std::string player;  // as the result names the seat: empty for a bot
    std::string rated;   // whom the seat's change belongs to: a player, a house bot, or nobody
    double weight = 1;
    if (s.has_player()) {
      player = s.player().player_id();
      if (absl::Status st = CheckPlayerId(player, absl::StrCat("match.seats[", seat, "].player"));
          !st.ok()) {
        return st;
      }
      rated = player;
      const double w = s.player().rating_weight();
      if (!(w >= 0 && w <= 1)) {  // negated so that NaN fails too
        return Invalid(absl::StrCat("match.seats[", seat, "].player.rating_weight"),
                       absl::StrCat(w, " is not within [0, 1]"));
      }
      if (w > 0) weight = w;
    } else if (s.has_bot()) {
      rated = s.bot().rating_id();
      if (!rated.empty()) {
        if (absl::Status st =
                CheckPlayerId(rated, absl::StrCat("match.seats[", seat, "].bot.rating_id"));
            !st.ok()) {
          return st;
        }
      }
    } else {
      return Invalid(absl::StrCat("match.seats[", seat, "]"), "neither a player nor a bot");
    }
    if (!rated.empty()) {
      auto [it, inserted] = seat_of.emplace(rated, seat);
      if (!inserted) {
        return Invalid(absl::StrCat("match.seats[", seat, "]"),
                       absl::StrCat("player \"", rated, "\" also sits in seat ", it->second,
                                    "; a player is rated once per match"));
      }
    }
    if (result.player_ids(seat) != player) {
      return Invalid(absl::StrCat("match.result.player_ids[", seat, "]"),
                     absl::StrCat(validation::Quote(result.player_ids(seat)),
                                  " but the seat holds ",
                                  player.empty() ? "a bot" : validation::Quote(player)));
    }
    if (result.ranks(seat) < 1) {
      return Invalid(absl::StrCat("match.result.ranks[", seat, "]"),
                     absl::StrCat(result.ranks(seat), " is below 1"));
    }
    out.player_ids.push_back(std::move(rated));
    out.weights.push_back(weight);
    out.seat_ranks.push_back(result.ranks(seat));
  }
  if (absl::Status s = Sides(result, out); !s.ok()) return s;

  if (IsSolitaire(*spec)) {
    absl::StatusOr<SolitaireFigures> figures = Solitaire(match);
    if (!figures.ok()) return figures.status();
    out.solitaire = *figures;
  } else if (out.teams.size() < 2) {
    return Invalid("match.result.teams", "a rated game needs at least two sides");
  }
  out.canonical = Canonical(match);
  out.request = request.SerializeAsString();
  return out;
}

std::string DescribeCanonical(absl::string_view canonical) {
  v1::Match match;
  if (!match.ParseFromArray(canonical.data(), static_cast<int>(canonical.size()))) {
    return "(a stored result that does not parse)";
  }
  const v1::MatchResult& result = match.result();
  std::vector<std::string> seats;
  for (const v1::Seat& seat : match.seats()) {
    seats.push_back(seat.has_player() ? seat.player().player_id()
                                      : absl::StrCat("bot:", seat.bot().kind()));
  }
  std::vector<std::string> teams;
  for (const v1::Team& team : result.teams()) {
    teams.push_back(absl::StrCat("[", absl::StrJoin(team.seats(), ", "), "]"));
  }
  std::string text = absl::StrCat(
      "game ", match.game(), ", ended ",
      absl::FormatTime(absl::RFC3339_full, FromTimestamp(match.end_time()), absl::UTCTimeZone()),
      ", seats [", absl::StrJoin(seats, ", "), "], ranks [", absl::StrJoin(result.ranks(), ", "),
      "], scores [", absl::StrJoin(result.scores(), ", "), "]");
  if (!teams.empty()) absl::StrAppend(&text, ", teams [", absl::StrJoin(teams, ", "), "]");
  if (!result.details().fields().empty()) {
    absl::StrAppend(&text, ", details ", StructToJson(result.details()).dump());
  }
  return text;
}

}  // namespace boneyard::ratings
