#include "services/client/proto_json.h"

#include <cmath>
#include <limits>
#include <map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "google/protobuf/util/time_util.h"

namespace boneyard::client {
namespace {

using nlohmann::json;

template <typename Repeated>
json IntList(const Repeated& values) {
  json out = json::array();
  for (const auto& v : values) out.push_back(v);
  return out;
}

json TeamsToJson(const google::protobuf::RepeatedPtrField<v1::Team>& teams) {
  json out = json::array();
  for (const v1::Team& team : teams) out.push_back(IntList(team.seats()));
  return out;
}

std::string DurationText(const google::protobuf::Duration& d) {
  return absl::FormatDuration(absl::Seconds(d.seconds()) + absl::Nanoseconds(d.nanos()));
}

std::string ReasonName(v1::MatchEvent::Reason reason) {
  switch (reason) {
    case v1::MatchEvent::PLAYED:
      return "played";
    case v1::MatchEvent::TIMEOUT_AUTO_PLAY:
      return "timeout_auto_play";
    case v1::MatchEvent::TIMEOUT_FORFEIT:
      return "timeout_forfeit";
    case v1::MatchEvent::OPERATOR_ABORT:
      return "operator_abort";
    default:
      return "unspecified";
  }
}

std::string PolicyName(v1::ClockSettings::TimeoutPolicy policy) {
  switch (policy) {
    case v1::ClockSettings::FORFEIT:
      return "forfeit";
    case v1::ClockSettings::AUTO_PLAY_DEFAULT_BOT:
    case v1::ClockSettings::TIMEOUT_POLICY_UNSPECIFIED:
    default:
      return "auto";
  }
}

bool HasClock(const v1::Match& match) {
  return match.has_clock() && (match.clock().per_move().seconds() != 0 ||
                               match.clock().per_move().nanos() != 0);
}

std::string Seats(const v1::Match& match) {
  std::vector<std::string> labels;
  for (const v1::Seat& seat : match.seats()) labels.push_back(SeatLabel(seat));
  return absl::StrJoin(labels, ",");
}

template <typename Repeated>
std::string Slashed(const Repeated& values) {
  return absl::StrJoin(values.begin(), values.end(), " / ");
}

}  // namespace

json RuleValueToJson(const v1::RuleValue& value) {
  switch (value.kind_case()) {
    case v1::RuleValue::kBoolValue:
      return value.bool_value();
    case v1::RuleValue::kIntValue:
      return value.int_value();
    case v1::RuleValue::kStringValue:
      return value.string_value();
    case v1::RuleValue::KIND_NOT_SET:
      break;
  }
  return nullptr;
}

json RulesToJson(const RuleMap& rules) {
  json out = json::object();
  for (const auto& [name, value] : rules) out[name] = RuleValueToJson(value);
  return out;
}

std::string RulesToText(const RuleMap& rules) {
  const std::map<std::string, v1::RuleValue> sorted(rules.begin(), rules.end());
  std::vector<std::string> parts;
  for (const auto& [name, value] : sorted) {
    std::string text;
    switch (value.kind_case()) {
      case v1::RuleValue::kBoolValue:
        text = value.bool_value() ? "true" : "false";
        break;
      case v1::RuleValue::kIntValue:
        text = absl::StrCat(value.int_value());
        break;
      case v1::RuleValue::kStringValue:
        text = value.string_value();
        break;
      case v1::RuleValue::KIND_NOT_SET:
        text = "?";
        break;
    }
    parts.push_back(absl::StrCat(name, "=", text));
  }
  return absl::StrJoin(parts, ",");
}

std::string TimestampText(const google::protobuf::Timestamp& time) {
  if (time.seconds() == 0 && time.nanos() == 0) return "";
  return google::protobuf::util::TimeUtil::ToString(time);
}

std::string SeatLabel(const v1::Seat& seat) {
  switch (seat.occupant_case()) {
    case v1::Seat::kPlayer:
      return absl::StrCat("player:", seat.player().player_id());
    case v1::Seat::kBot:
      return seat.bot().level() == 0
                 ? absl::StrCat("bot:", seat.bot().kind())
                 : absl::StrCat("bot:", seat.bot().kind(), ":", seat.bot().level());
    case v1::Seat::OCCUPANT_NOT_SET:
      break;
  }
  return "empty";
}

std::string StateName(v1::Match::State state) {
  switch (state) {
    case v1::Match::ACTIVE:
      return "active";
    case v1::Match::FINISHED:
      return "finished";
    case v1::Match::ABORTED:
      return "aborted";
    default:
      return "unspecified";
  }
}

json ResultToJson(const v1::MatchResult& result) {
  return {{"scores", IntList(result.scores())},
          {"ranks", IntList(result.ranks())},
          {"winners", IntList(result.winners())},
          {"player_ids", json(std::vector<std::string>(result.player_ids().begin(),
                                                       result.player_ids().end()))},
          {"teams", TeamsToJson(result.teams())},
          {"forfeited_seats", IntList(result.forfeited_seats())},
          {"details", StructToJson(result.details())}};
}

json MatchToJson(const v1::Match& match) {
  json seats = json::array();
  for (const v1::Seat& seat : match.seats()) {
    if (seat.has_player()) {
      seats.push_back({{"player", seat.player().player_id()}});
    } else if (seat.has_bot()) {
      seats.push_back({{"bot", seat.bot().kind()}, {"level", seat.bot().level()}});
    } else {
      seats.push_back(json::object());
    }
  }
  json out = {{"name", match.name()},
              {"game", match.game()},
              {"rules", RulesToJson(match.rules())},
              {"seats", seats},
              {"teams", TeamsToJson(match.teams())},
              {"state", StateName(match.state())},
              {"sequence", match.sequence()},
              {"create_time", TimestampText(match.create_time())},
              {"update_time", TimestampText(match.update_time())}};
  out["clock"] = HasClock(match)
                     ? json{{"per_move", DurationText(match.clock().per_move())},
                            {"timeout_policy", PolicyName(match.clock().timeout_policy())}}
                     : json(nullptr);
  out["result"] = match.has_result() ? ResultToJson(match.result()) : json(nullptr);
  if (!match.abort_reason().empty()) out["abort_reason"] = match.abort_reason();
  if (match.has_end_time()) out["end_time"] = TimestampText(match.end_time());
  return out;
}

json EventToJson(const v1::MatchEvent& event) {
  json out = {{"sequence", event.sequence()},
              {"seat", event.seat()},
              {"action", event.action().text()},
              {"reason", ReasonName(event.reason())},
              {"round", event.round()},
              {"effect", StructToJson(event.effect())},
              {"message", event.message()}};
  if (event.has_turn_start_time()) out["turn_start_time"] = TimestampText(event.turn_start_time());
  if (event.has_create_time()) out["create_time"] = TimestampText(event.create_time());
  return out;
}

json SeatViewToJson(const v1::SeatView& view) {
  json legal = json::array();
  for (const v1::Action& action : view.legal_actions()) legal.push_back(action.text());
  json out = {{"match", view.match()},
              {"game", view.game()},
              {"seat", view.seat()},
              {"sequence", view.sequence()},
              {"round", view.round()},
              {"current_seat", view.current_seat()},
              {"terminal", view.terminal()},
              {"hand", json(std::vector<std::string>(view.hand().begin(), view.hand().end()))},
              {"hand_counts", IntList(view.hand_counts())},
              {"boneyard_count", view.boneyard_count()},
              {"scores", IntList(view.scores())},
              {"legal_actions", legal},
              {"layout", StructToJson(view.layout())}};
  out["deadline"] = view.has_deadline() ? json(TimestampText(view.deadline())) : json(nullptr);
  out["last_event"] = view.has_last_event() ? EventToJson(view.last_event()) : json(nullptr);
  out["result"] = view.has_result() ? ResultToJson(view.result()) : json(nullptr);
  return out;
}

json PublicViewToJson(const v1::PublicView& view) {
  json out = {{"match", view.match()},
              {"game", view.game()},
              {"sequence", view.sequence()},
              {"round", view.round()},
              {"current_seat", view.current_seat()},
              {"terminal", view.terminal()},
              {"hand_counts", IntList(view.hand_counts())},
              {"boneyard_count", view.boneyard_count()},
              {"scores", IntList(view.scores())},
              {"layout", StructToJson(view.layout())}};
  out["deadline"] = view.has_deadline() ? json(TimestampText(view.deadline())) : json(nullptr);
  out["last_event"] = view.has_last_event() ? EventToJson(view.last_event()) : json(nullptr);
  out["result"] = view.has_result() ? ResultToJson(view.result()) : json(nullptr);
  return out;
}

std::string MatchLine(const v1::Match& match) {
  return absl::StrCat(match.name(), "  ", match.game(), "  ", StateName(match.state()),
                      "  seq ", match.sequence(), "  ", Seats(match), "  ",
                      TimestampText(match.create_time()));
}

std::string MatchText(const v1::Match& match) {
  std::string out = absl::StrCat("name:     ", match.name(), "\ngame:     ", match.game(),
                                 "\nrules:    ", RulesToText(match.rules()),
                                 "\nseats:    ", Seats(match));
  if (match.teams_size() > 0) {
    std::vector<std::string> teams;
    for (const v1::Team& team : match.teams()) {
      teams.push_back(absl::StrJoin(team.seats().begin(), team.seats().end(), "+"));
    }
    absl::StrAppend(&out, "\nteams:    ", absl::StrJoin(teams, " vs "));
  }
  absl::StrAppend(&out, "\nclock:    ",
                  HasClock(match) ? absl::StrCat(DurationText(match.clock().per_move()),
                                                 " per move, on timeout ",
                                                 PolicyName(match.clock().timeout_policy()))
                                  : std::string("none"));
  absl::StrAppend(&out, "\nstate:    ", StateName(match.state()),
                  "\nsequence: ", match.sequence(),
                  "\ncreated:  ", TimestampText(match.create_time()),
                  "\nupdated:  ", TimestampText(match.update_time()));
  if (match.has_end_time()) absl::StrAppend(&out, "\nended:    ", TimestampText(match.end_time()));
  if (match.has_result()) absl::StrAppend(&out, "\nresult:   ", ResultText(match.result()));
  if (!match.abort_reason().empty()) absl::StrAppend(&out, "\naborted:  ", match.abort_reason());
  return out + "\n";
}

std::string EventText(const v1::MatchEvent& event) {
  std::string out = absl::StrCat("#", event.sequence(), " ");
  switch (event.reason()) {
    case v1::MatchEvent::TIMEOUT_AUTO_PLAY:
      absl::StrAppend(&out, "seat ", event.seat(), " ran out of time; played for it: ",
                      event.action().text());
      break;
    case v1::MatchEvent::TIMEOUT_FORFEIT:
      absl::StrAppend(&out, "seat ", event.seat(), " ran out of time and forfeits");
      break;
    case v1::MatchEvent::OPERATOR_ABORT:
      absl::StrAppend(&out, "the operator aborted the match: ", event.message());
      break;
    default:
      absl::StrAppend(&out, "seat ", event.seat(), " plays ", event.action().text());
      break;
  }
  if (event.has_effect() && event.effect().fields_size() > 0) {
    absl::StrAppend(&out, " ", StructToJson(event.effect()).dump());
  }
  return out;
}

std::string ResultText(const v1::MatchResult& result) {
  std::string out = absl::StrCat("scores ", Slashed(result.scores()), ", ranks ",
                                 Slashed(result.ranks()), ", winner",
                                 result.winners_size() == 1 ? " seat " : "s seats ",
                                 absl::StrJoin(result.winners(), ", "));
  if (result.forfeited_seats_size() > 0) {
    absl::StrAppend(&out, ", forfeited: seat ", absl::StrJoin(result.forfeited_seats(), ", "));
  }
  if (result.has_details() && result.details().fields_size() > 0) {
    absl::StrAppend(&out, ", details ", StructToJson(result.details()).dump());
  }
  return out;
}

std::string SeatViewText(const v1::SeatView& view) {
  std::string out = absl::StrCat("round ", view.round() + 1);
  if (view.terminal()) {
    absl::StrAppend(&out, " (match over)");
  } else if (view.current_seat() == view.seat()) {
    absl::StrAppend(&out, ", your turn (seat ", view.seat(), ")");
  } else {
    absl::StrAppend(&out, ", seat ", view.current_seat(), " to play");
  }
  absl::StrAppend(&out, "\nscores: ", Slashed(view.scores()),
                  "\ntiles in hand: ", Slashed(view.hand_counts()),
                  "   boneyard: ", view.boneyard_count(),
                  "\nlayout: ", StructToJson(view.layout()).dump(),
                  "\nyour hand (seat ", view.seat(), "): ",
                  absl::StrJoin(view.hand().begin(), view.hand().end(), " "));
  if (view.has_deadline()) absl::StrAppend(&out, "\ndeadline: ", TimestampText(view.deadline()));
  return out;
}

std::string PublicViewLine(const v1::PublicView& view) {
  std::string out = view.has_last_event()  ? EventText(view.last_event())
                    : view.sequence() == 0 ? std::string("#0 start")
                                           : absl::StrCat("#", view.sequence());
  absl::StrAppend(&out, " | round ", view.round() + 1, " | scores ", Slashed(view.scores()),
                  " | hands ", Slashed(view.hand_counts()), ", boneyard ",
                  view.boneyard_count(), " | layout ", StructToJson(view.layout()).dump());
  if (view.terminal()) {
    absl::StrAppend(&out, " | match over",
                    view.has_result() ? absl::StrCat(": ", ResultText(view.result())) : "");
  } else {
    absl::StrAppend(&out, " | next: seat ", view.current_seat());
  }
  return out;
}

}  // namespace boneyard::client
