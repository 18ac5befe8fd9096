#include "services/execution/match_host.h"

#include <optional>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/synchronization/mutex.h"
#include "engine/records/referee.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "services/common/batch_queue.h"
#include "services/common/engine_proto.h"
#include "services/common/page_token.h"
#include "services/common/status_detail.h"
#include "services/common/tokens.h"
#include "services/common/validation.h"
#include "services/common/view_mask.h"
#include "services/execution/events.h"
#include "services/execution/host_metrics.h"
#include "services/execution/ids.h"
#include "services/execution/live_match.h"
#include "services/execution/thread_pool.h"
#include "services/execution/timer_queue.h"
#include "spdlog/spdlog.h"

namespace boneyard::execution {
namespace {

// Database work (creates, lookups, listings) runs here, never on gRPC's or a strand's threads.
// Creates wait on their group commit (creations_), so the pool is as large as the creations
// one commit should be able to carry at once.
constexpr int kBlockingThreads = 32;
// The most matches created in one transaction.
constexpr int kMaxCreationsPerCommit = 64;

// The request as bytes, without its request_id: a repeat must match it exactly.
std::string RequestDigest(v1::CreateMatchRequest request) {
  request.clear_request_id();
  std::string bytes;
  {
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    request.SerializeToCodedStream(&coded);
  }
  return absl::BytesToHexString(bytes);
}

// Page tokens (services/common/page_token.h) carry the filters they were issued for and the
// last row's position, signed: a token altered by one character, or issued for other filters,
// is refused.
std::string EncodePageToken(const PageTokens& tokens, const MatchFilter& filter,
                            const MatchCursor& cursor) {
  return tokens.Encode({"v1", absl::StrCat(static_cast<int>(filter.state)), filter.game,
                        absl::StrCat(absl::ToUnixMicros(cursor.create_time)), cursor.id});
}

absl::StatusOr<std::optional<MatchCursor>> DecodePageToken(const PageTokens& tokens,
                                                           const std::string& token,
                                                           const MatchFilter& filter) {
  absl::StatusOr<std::optional<std::vector<std::string>>> cursor = tokens.DecodeCursor(
      token, {"v1", absl::StrCat(static_cast<int>(filter.state)), filter.game}, 2);
  if (!cursor.ok()) return cursor.status();
  if (!cursor->has_value()) return std::optional<MatchCursor>();
  int64_t micros = 0;
  if (!absl::SimpleAtoi((**cursor)[0], &micros)) {  // signed, so it cannot be: a bug if so
    return absl::InternalError("page_token: a signed cursor does not parse");
  }
  return std::optional<MatchCursor>(MatchCursor{absl::FromUnixMicros(micros), (**cursor)[1]});
}

// A deal group's most matches: a round of 1,024 entrants at 8-seat tables, 8 games a table,
// is 1,024; the bound leaves room and stops a size that can never be reached.
constexpr int kMaxDealGroupSize = 100'000;

// A deal group is a tournament's round: "tournaments/{id}/rounds/{n}", of 1-100000 matches.
absl::Status CheckDealGroup(const v1::DealGroup& group) {
  using namespace validation;
  const std::vector<absl::string_view> parts = absl::StrSplit(group.name(), '/');
  int round = 0;
  if (group.name().size() > kMaxRequestIdBytes || parts.size() != 4 ||
      parts[0] != "tournaments" || !CheckId("deal_group.name", parts[1]).ok() ||
      parts[2] != "rounds" || !absl::SimpleAtoi(parts[3], &round) || round < 1 ||
      absl::StrCat(round) != parts[3]) {
    return absl::InvalidArgumentError(
        absl::StrCat("deal_group.name: ", Quote(group.name()),
                     " is not of the form \"tournaments/{id}/rounds/{n}\""));
  }
  if (group.size() < 1 || group.size() > kMaxDealGroupSize) {
    return absl::InvalidArgumentError(absl::StrCat("deal_group.size: ", group.size(),
                                                   " is not 1-", kMaxDealGroupSize));
  }
  return absl::OkStatus();
}

// Every string, enum and Duration of a CreateMatchRequest against the edge's limits
// (services/common/validation.h), before anything is looked up or stored: a player id that can
// never be stored (a NUL) or rated (9,000 bytes) must not start a match.
absl::Status CheckCreateRequest(const v1::CreateMatchRequest& request) {
  using namespace validation;
  if (absl::Status s = CheckOptionalId("request_id", request.request_id(), kMaxRequestIdBytes);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckId("game", request.game()); !s.ok()) return s;
  for (const auto& [name, value] : request.rules()) {
    if (absl::Status s = CheckId("rules (an option name)", name); !s.ok()) return s;
    if (value.kind_case() == v1::RuleValue::kStringValue) {
      if (absl::Status s = CheckId(absl::StrCat("rules.", name), value.string_value()); !s.ok()) {
        return s;
      }
    }
  }
  for (int seat = 0; seat < request.seats_size(); ++seat) {
    const v1::Seat& occupant = request.seats(seat);
    absl::Status s;
    if (occupant.has_player()) {
      s = CheckId(absl::StrCat("seats[", seat, "].player.player_id"),
                  occupant.player().player_id());
      const double weight = occupant.player().rating_weight();
      // Negated so that NaN fails too.
      if (s.ok() && !(weight >= 0 && weight <= 1)) {
        s = absl::InvalidArgumentError(absl::StrCat("seats[", seat, "].player.rating_weight: ",
                                                    weight, " is not within [0, 1]"));
      }
    } else if (occupant.has_bot()) {
      s = CheckId(absl::StrCat("seats[", seat, "].bot.kind"), occupant.bot().kind());
      if (s.ok()) {
        s = CheckOptionalId(absl::StrCat("seats[", seat, "].bot.rating_id"),
                            occupant.bot().rating_id());
      }
    }
    if (!s.ok()) return s;
  }
  // A house bot's rating id is rated as a player (ratings.proto): it must be nobody else's.
  for (int seat = 0; seat < request.seats_size(); ++seat) {
    const std::string& rating_id = request.seats(seat).bot().rating_id();
    if (!request.seats(seat).has_bot() || rating_id.empty()) continue;
    for (int other = 0; other < request.seats_size(); ++other) {
      const v1::Seat& o = request.seats(other);
      if (other != seat && ((o.has_player() && o.player().player_id() == rating_id) ||
                            (o.has_bot() && o.bot().rating_id() == rating_id))) {
        return absl::InvalidArgumentError(absl::StrCat("seats[", seat, "].bot.rating_id: ",
                                                       Quote(rating_id), " is seat ", other,
                                                       "'s too; each is rated once"));
      }
    }
  }
  if (absl::Status s = CheckDuration("clock.per_move", request.clock().per_move()); !s.ok()) {
    return s;
  }
  if (!request.queue().empty()) {
    absl::string_view id = request.queue();
    if (request.queue().size() > kMaxRequestIdBytes ||
        !(absl::ConsumePrefix(&id, "queues/") || absl::ConsumePrefix(&id, "tournaments/") ||
          absl::ConsumePrefix(&id, "ladders/")) ||
        !CheckId("queue", id).ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("queue: ", Quote(request.queue()),
                       " is not of the form \"queues/{id}\", \"tournaments/{id}\" or "
                       "\"ladders/{id}\""));
    }
  }
  if (request.has_deal_group()) {
    if (absl::Status s = CheckDealGroup(request.deal_group()); !s.ok()) return s;
  }
  return CheckEnum("clock.timeout_policy", request.clock().timeout_policy());
}

// How many handed-over matches a client's call loads at once (the rest at the lease's next look).
constexpr int kHandedOverBatch = 500;

absl::Status ShuttingDown() {
  return absl::UnavailableError("the service is shutting down; retry with backoff");
}

}  // namespace

class MatchHost::Impl {
 public:
  Impl(MatchStore& store, GroupCommitter& log, HostOptions options)
      : store_(store),
        log_(log),
        options_(std::move(options)),
        auth_(AuthConfig{options_.operator_token, {}}),
        page_tokens_(PageTokenKey(options_.operator_token)),
        own_registry_(options_.metrics ? nullptr : std::make_unique<prometheus::Registry>()),
        metrics_(options_.metrics ? *options_.metrics : *own_registry_),
        strands_(options_.workers, "strands"),
        bots_(options_.bot_workers, "bots"),
        blocking_(kBlockingThreads, "blocking"),
        creations_([this](std::vector<NewMatch>& batch) { return store_.CreateMatches(batch); },
                   absl::UnavailableError("the service is stopping"),
                   {.max_batch = kMaxCreationsPerCommit}) {
    context_.log = &log_;
    context_.strands = &strands_;
    context_.bots = &bots_;
    context_.timers = &timers_;
    context_.metrics = &metrics_;
    context_.bot_registry = &DefaultBots();
    context_.bot_think_budget = options_.bot_think_budget;
    context_.bot_delay = options_.bot_delay;
    context_.seat_flood = options_.seat_flood;
    context_.max_watchers = options_.max_watchers_per_match;
    context_.on_ended = [this](const std::string& id) { Forget(id); };
    context_.on_finished = options_.on_finished;
  }

  ~Impl() { Shutdown(); }

  absl::Status Recover() {
    absl::StatusOr<std::vector<ActiveMatch>> active = store_.LoadActiveMatches();
    if (!active.ok()) return active.status();
    std::vector<std::shared_ptr<LiveMatch>> loaded;
    for (ActiveMatch& stored : *active) {
      absl::StatusOr<std::shared_ptr<LiveMatch>> match = Rebuild(stored);
      if (!match.ok()) return match.status();
      loaded.push_back(*match);
    }
    for (const std::shared_ptr<LiveMatch>& match : loaded) Serve(match);
    return absl::OkStatus();
  }

  absl::Status AdoptMatches(std::vector<ActiveMatch> matches) {
    if (Stopping()) return ShuttingDown();
    std::vector<std::string> failed;
    for (ActiveMatch& stored : matches) {
      absl::StatusOr<std::shared_ptr<LiveMatch>> match = Rebuild(stored);
      if (!match.ok()) {
        failed.push_back(std::string(match.status().message()));
        continue;
      }
      Serve(*match);
    }
    if (failed.empty()) return absl::OkStatus();
    return absl::FailedPreconditionError(absl::StrJoin(failed, "; "));
  }

  // A stored match rebuilt from its log (FAILED_PRECONDITION naming it when it does not replay).
  absl::StatusOr<std::shared_ptr<LiveMatch>> Rebuild(ActiveMatch& stored) {
    absl::StatusOr<std::shared_ptr<const Game>> game = GameOf(stored.match.match);
    if (!game.ok()) {
      return absl::FailedPreconditionError(absl::StrCat(
          MatchName(stored.match.id), " cannot be recovered: ", game.status().message()));
    }
    return LiveMatch::Load(context_, std::move(stored.match), *game, stored.events);
  }

  void Serve(const std::shared_ptr<LiveMatch>& match) {
    Adopt(match);
    metrics_.matches_recovered.Increment();
    match->Begin();
  }

  // ----- CreateMatch ------------------------------------------------------------------------

  void CreateMatch(std::optional<std::string> token, v1::CreateMatchRequest request,
                   Callback<v1::CreateMatchResponse> done) {
    Blocking(std::move(done), [this, token = std::move(token), request = std::move(request)]()
                                  -> absl::StatusOr<v1::CreateMatchResponse> {
      if (absl::Status status = RequireOperator(token); !status.ok()) return status;
      return Create(request);
    });
  }

  absl::StatusOr<v1::CreateMatchResponse> Create(const v1::CreateMatchRequest& request) {
    if (absl::Status s = CheckCreateRequest(request); !s.ok()) return s;
    const GameSpec* spec = DefaultRegistry().Find(request.game());
    if (spec == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("game: unknown game ", validation::Quote(request.game()),
                       "; the games are: ", absl::StrJoin(DefaultRegistry().Names(), ", ")));
    }
    absl::StatusOr<std::map<std::string, OptionValue>> overrides =
        RuleValuesFromProto(request.rules(), *spec);
    if (!overrides.ok()) return overrides.status();
    const bool has_players_option =
        std::any_of(spec->options.begin(), spec->options.end(),
                    [](const OptionSpec& o) { return o.name == "players"; });
    if (has_players_option && !overrides->contains("players")) {
      (*overrides)["players"] = static_cast<int64_t>(request.seats_size());
    }
    absl::StatusOr<std::shared_ptr<const Game>> game =
        DefaultRegistry().CreateGame(request.game(), *overrides);
    if (!game.ok()) return absl::InvalidArgumentError(game.status().message());
    if (request.seats_size() != (*game)->num_seats()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the rules make a ", (*game)->num_seats(), "-seat game but ", request.seats_size(),
          " seats were given"));
    }
    const std::vector<std::string> bot_kinds = DefaultBots().BotsFor(request.game());
    for (int seat = 0; seat < request.seats_size(); ++seat) {
      const v1::Seat& occupant = request.seats(seat);
      if (occupant.has_bot()) {
        if (std::find(bot_kinds.begin(), bot_kinds.end(), occupant.bot().kind()) ==
            bot_kinds.end()) {
          return absl::InvalidArgumentError(
              absl::StrCat("seat ", seat, ": ", request.game(), " has no bot \"",
                           occupant.bot().kind(), "\"; its bots are: ",
                           absl::StrJoin(bot_kinds, ", ")));
        }
        if (absl::Status s = DefaultBots().CheckLevel(request.game(), occupant.bot().kind(),
                                                      occupant.bot().level());
            !s.ok()) {
          return absl::InvalidArgumentError(
              absl::StrCat("seat ", seat, ": bot.level: ", s.message()));
        }
      } else if (!occupant.has_player()) {  // a player's id was checked with the request
        return absl::InvalidArgumentError(
            absl::StrCat("seat ", seat, ": set either a player or a bot"));
      }
    }
    const v1::ClockSettings& clock = request.clock();
    if (FromDuration(clock.per_move()) < absl::ZeroDuration()) {
      return absl::InvalidArgumentError("clock.per_move: is negative");
    }
    if (clock.timeout_policy() != v1::ClockSettings::TIMEOUT_POLICY_UNSPECIFIED &&
        FromDuration(clock.per_move()) == absl::ZeroDuration()) {
      return absl::InvalidArgumentError("clock.timeout_policy is set without clock.per_move");
    }

    NewMatch created;
    created.id = NewMatchId();
    created.seed = request.has_seed() ? request.seed() : NewSeed();
    created.request_id = request.request_id();
    created.request_digest = RequestDigest(request);
    const absl::Time now = StorableNow();
    v1::Match& match = created.match;
    match.set_name(MatchName(created.id));
    match.set_game(request.game());
    *match.mutable_rules() = RulesToProto((*game)->rules());
    *match.mutable_seats() = request.seats();
    for (const std::vector<int>& team : (*game)->teams()) *match.add_teams() = TeamToProto(team);
    *match.mutable_clock() = clock;
    if (FromDuration(clock.per_move()) > absl::ZeroDuration() &&
        clock.timeout_policy() == v1::ClockSettings::TIMEOUT_POLICY_UNSPECIFIED) {
      match.mutable_clock()->set_timeout_policy(v1::ClockSettings::AUTO_PLAY_DEFAULT_BOT);
    }
    match.set_casual(request.casual());
    match.set_queue(request.queue());
    if (request.has_deal_group()) *match.mutable_deal_group() = request.deal_group();
    match.set_state(v1::Match::ACTIVE);
    *match.mutable_create_time() = ToTimestamp(now);
    *match.mutable_update_time() = ToTimestamp(now);
    for (int seat = 0; seat < request.seats_size(); ++seat) {
      created.seat_tokens.push_back(request.seats(seat).has_player() ? NewSecretToken() : "");
    }

    // With the others being created meanwhile: one commit for them all.
    absl::StatusOr<CreateResult> stored = creations_.Submit(std::move(created));
    if (!stored.ok()) return stored.status();
    v1::CreateMatchResponse response;
    if (stored->existed) {
      *response.mutable_match() = CurrentResource(stored->match);
    } else {
      absl::StatusOr<std::shared_ptr<LiveMatch>> live =
          LiveMatch::Load(context_, stored->match, *game, {});
      if (!live.ok()) return live.status();
      Adopt(*live);
      metrics_.matches_created.Increment();
      (*live)->Begin();
      *response.mutable_match() = stored->match.match;
    }
    for (int seat = 0; seat < static_cast<int>(stored->match.seat_tokens.size()); ++seat) {
      if (stored->match.seat_tokens[seat].empty()) continue;
      v1::SeatToken* token = response.add_seat_tokens();
      token->set_seat(seat);
      token->set_token(stored->match.seat_tokens[seat]);
    }
    return response;
  }

  // ----- Reads ------------------------------------------------------------------------------

  void GetMatch(std::string name, Callback<v1::Match> done) {
    if (Stopping()) return done(ShuttingDown());
    absl::StatusOr<std::string> id = ParseMatchName(name);
    if (!id.ok()) return done(id.status());
    if (std::shared_ptr<LiveMatch> match = FindLive(*id)) return match->Describe(std::move(done));
    Blocking(std::move(done), [this, id = *id]() -> absl::StatusOr<v1::Match> {
      absl::StatusOr<v1::Match> match = store_.GetMatch(id);
      if (!match.ok() || match->state() != v1::Match::ACTIVE) return match;
      // Played elsewhere (another replica): the stored row is as created; its log says where
      // the match stands.
      absl::StatusOr<std::optional<EventRow>> last = store_.LastEvent(id);
      if (!last.ok()) return last.status();
      if (last->has_value()) {
        match->set_sequence((*last)->sequence);
        *match->mutable_update_time() = ToTimestamp((*last)->create_time);
      }
      return match;
    });
  }

  void ListMatches(v1::ListMatchesRequest request, Callback<v1::ListMatchesResponse> done) {
    absl::StatusOr<int> page_size = validation::PageSize(request.page_size());
    if (!page_size.ok()) return done(page_size.status());
    for (absl::Status s :
         {validation::CheckEnum("state", request.state()),
          validation::CheckOptionalId("game", request.game()),
          validation::CheckOptionalId("page_token", request.page_token(),
                                      validation::kMaxPageTokenBytes)}) {
      if (!s.ok()) return done(s);
    }
    Blocking(std::move(done), [this, request = std::move(request), page_size = *page_size]()
                                  -> absl::StatusOr<v1::ListMatchesResponse> {
      MatchFilter filter{request.state(), request.game()};
      absl::StatusOr<std::optional<MatchCursor>> after =
          DecodePageToken(page_tokens_, request.page_token(), filter);
      if (!after.ok()) return after.status();
      absl::StatusOr<MatchPage> page = store_.ListMatches(filter, page_size, *after);
      if (!page.ok()) return page.status();
      v1::ListMatchesResponse response;
      for (v1::Match& match : page->matches) {
        // An active match's row is as created; its sequence lives in memory.
        if (match.state() == v1::Match::ACTIVE) {
          absl::StatusOr<std::string> id = ParseMatchName(match.name());
          if (id.ok()) {
            if (std::shared_ptr<LiveMatch> live = FindLive(*id)) match = live->Snapshot();
          }
        }
        *response.add_matches() = std::move(match);
      }
      if (page->next) {
        response.set_next_page_token(EncodePageToken(page_tokens_, filter, *page->next));
      }
      return response;
    });
  }

  void GetRecord(std::string name, Callback<v1::Record> done) {
    if (Stopping()) return done(ShuttingDown());
    absl::StatusOr<std::string> id = ParseRecordName(name);
    if (!id.ok()) return done(id.status());
    if (FindLive(*id)) {
      return done(absl::FailedPreconditionError(
          absl::StrCat(MatchName(*id), " is still being played; its record holds hidden tiles")));
    }
    Blocking(std::move(done), [this, id = *id, name]() -> absl::StatusOr<v1::Record> {
      absl::StatusOr<StoredRecord> stored = store_.GetRecordJson(id);
      if (!stored.ok()) return stored.status();
      // Only a match of a deal group needs its resource (the group's size) before it is shown.
      std::optional<v1::Match> match;
      if (!stored->deal_group.empty()) {
        absl::StatusOr<v1::Match> grouped = store_.GetMatch(id);
        if (!grouped.ok()) return grouped.status();
        if (absl::Status s = DealGroupOver(*grouped); !s.ok()) {
          return absl::FailedPreconditionError(s.message());
        }
        match = *std::move(grouped);
      }
      absl::StatusOr<Record> record = ParseRecord(stored->json);
      if (!record.ok()) {
        return absl::InternalError(
            absl::StrCat("the stored record of ", MatchName(id), " does not parse: ",
                         record.status().message()));
      }
      v1::Record proto = RecordToProto(*record);
      proto.set_name(name);
      if (!proto.has_result()) {
        // A forfeit ends a match before the engine does: the result is the service's.
        if (!match.has_value()) {
          absl::StatusOr<v1::Match> read = store_.GetMatch(id);
          if (!read.ok()) return read.status();
          match = *std::move(read);
        }
        if (match->has_result()) *proto.mutable_result() = match->result();
      }
      return proto;
    });
  }

  // ----- Parked results ---------------------------------------------------------------------

  void ListParkedResults(std::optional<std::string> token, v1::ListParkedResultsRequest request,
                         Callback<v1::ListParkedResultsResponse> done) {
    Blocking(std::move(done), [this, token = std::move(token), request = std::move(request)]()
                                  -> absl::StatusOr<v1::ListParkedResultsResponse> {
      if (absl::Status status = RequireOperator(token); !status.ok()) return status;
      absl::StatusOr<int> page_size = validation::PageSize(request.page_size());
      if (!page_size.ok()) return page_size.status();
      if (absl::Status s = validation::CheckOptionalId("page_token", request.page_token(),
                                                       validation::kMaxPageTokenBytes);
          !s.ok()) {
        return s;
      }
      absl::StatusOr<std::optional<std::vector<std::string>>> cursor =
          page_tokens_.DecodeCursor(request.page_token(), {"parked"}, 1);
      if (!cursor.ok()) return cursor.status();
      int64_t after = 0;
      if (cursor->has_value() && !absl::SimpleAtoi((**cursor)[0], &after)) {
        return absl::InternalError("page_token: a signed cursor does not parse");
      }
      // One more than asked for tells whether a next page exists.
      absl::StatusOr<std::vector<ParkedItem>> items = store_.ListParked(*page_size + 1, after);
      if (!items.ok()) return items.status();
      v1::ListParkedResultsResponse response;
      for (int i = 0; i < static_cast<int>(items->size()) && i < *page_size; ++i) {
        *response.add_parked_results() = ParkedToProto((*items)[i]);
      }
      if (static_cast<int>(items->size()) > *page_size) {
        response.set_next_page_token(page_tokens_.Encode(
            {"parked", absl::StrCat((*items)[*page_size - 1].id)}));
      }
      return response;
    });
  }

  enum class ParkedAction { kRetry, kDrop };

  void ResolveParkedResult(std::optional<std::string> token, std::string name,
                           ParkedAction action, Callback<v1::ParkedResult> done) {
    Blocking(std::move(done), [this, token = std::move(token), name = std::move(name),
                               action]() -> absl::StatusOr<v1::ParkedResult> {
      if (absl::Status status = RequireOperator(token); !status.ok()) return status;
      absl::StatusOr<int64_t> id = ParseParkedName(name);
      if (!id.ok()) return id.status();
      const bool retry = action == ParkedAction::kRetry;
      absl::StatusOr<ParkedItem> item =
          retry ? store_.RetryParked(*id, absl::Now()) : store_.DropParked(*id);
      if (!item.ok()) return item.status();
      spdlog::info("outbox: parked result {} of matches/{} {} by the operator", *id,
                   item->match_id, retry ? "queued for delivery" : "dropped");
      if (retry && options_.on_finished) options_.on_finished();  // wakes the dispatcher
      return ParkedToProto(*item);
    });
  }

  static absl::StatusOr<int64_t> ParseParkedName(absl::string_view name) {
    absl::string_view id_text = name;
    int64_t id = 0;
    // SimpleAtoi refuses empty and overflowing text; the round trip refuses "+1" and "01".
    if (!absl::ConsumePrefix(&id_text, "parked_results/") || !absl::SimpleAtoi(id_text, &id) ||
        id <= 0 || absl::StrCat(id) != id_text) {
      return absl::InvalidArgumentError(absl::StrCat(
          "name: ", validation::Quote(name), " is not of the form \"parked_results/{id}\""));
    }
    return id;
  }

  static v1::ParkedResult ParkedToProto(const ParkedItem& item) {
    v1::ParkedResult out;
    out.set_name(absl::StrCat("parked_results/", item.id));
    out.set_match(MatchName(item.match_id));
    out.set_attempts(item.attempts);
    out.set_last_error(item.last_error);
    *out.mutable_park_time() = ToTimestamp(item.park_time);
    out.set_receiver(item.receiver);
    return out;
  }

  // ----- Abort ------------------------------------------------------------------------------

  void AbortMatch(std::optional<std::string> token, v1::AbortMatchRequest request,
                  Callback<v1::Match> done) {
    if (Stopping()) return done(ShuttingDown());
    blocking_.Post([this, token = std::move(token), request = std::move(request),
                    done = std::move(done)]() mutable {
      if (absl::Status status = RequireOperator(token); !status.ok()) return done(status);
      absl::StatusOr<std::string> id = ParseMatchName(request.name());
      if (!id.ok()) return done(id.status());
      if (request.reason().empty()) {
        return done(absl::InvalidArgumentError("reason: is empty; say why the match is aborted"));
      }
      if (absl::Status s = validation::CheckText("reason", request.reason(),
                                                 validation::kMaxReasonBytes);
          !s.ok()) {
        return done(s);
      }
      if (std::shared_ptr<LiveMatch> match = FindLive(*id)) {
        return match->Abort(request.reason(), std::move(done));
      }
      absl::StatusOr<v1::Match> stored = store_.GetMatch(*id);
      if (!stored.ok()) return done(stored.status());
      if (stored->state() == v1::Match::ACTIVE) return done(NotHere(*id));
      if (stored->state() == v1::Match::ABORTED) return done(*stored);
      done(absl::FailedPreconditionError(absl::StrCat(request.name(), " has already finished")));
    });
  }

  // ----- Playing ----------------------------------------------------------------------------

  // Seat calls check the token first (UNAUTHENTICATED before anything else), then the name,
  // then that the token plays this match. The fast path is a live seat token naming its own
  // live match; everything else is decided on the blocking pool, with the database.
  void SubmitAction(std::optional<std::string> token, v1::SubmitActionRequest request,
                    Callback<v1::SeatView> done) {
    if (Stopping()) return done(ShuttingDown());
    if (!token) return done(MissingSeatToken());
    if (auto seat = FindLiveSeat(*token, request.name())) {
      return seat->first->Submit(seat->second, request.action(), request.seen_sequence(),
                                 std::move(done));
    }
    blocking_.Post([this, token = *token, request = std::move(request),
                    done = std::move(done)]() mutable {
      absl::StatusOr<SeatGrant> grant = AuthorizeSeat(token, request.name());
      if (!grant.ok()) return done(grant.status());
      if (auto seat = FindLiveSeat(token, request.name())) {
        return seat->first->Submit(seat->second, request.action(), request.seen_sequence(),
                                   std::move(done));
      }
      absl::StatusOr<v1::Match> stored = store_.GetMatch(grant->match_id);
      if (!stored.ok()) return done(stored.status());
      if (stored->state() == v1::Match::ACTIVE) return done(NotHere(grant->match_id));
      done(absl::FailedPreconditionError(
          absl::StrCat(request.name(), " is over: no more actions")));
    });
  }

  void OpenSeatStream(std::optional<std::string> token, std::string name,
                      const google::protobuf::FieldMask& view_mask, bool replay_events,
                      std::shared_ptr<SeatSink> sink,
                      Callback<std::shared_ptr<SeatStream>> done) {
    if (Stopping()) return done(ShuttingDown());
    if (!token) return done(MissingSeatToken());
    // Reported after the token is checked: credentials come first.
    absl::StatusOr<ViewMask> mask =
        ViewMask::Parse(view_mask, *v1::SeatView::descriptor(), "view_mask");
    if (auto seat = FindLiveSeat(*token, name)) {
      if (!mask.ok()) return done(mask.status());
      return done(OpenLiveSeatStream(seat->first, seat->second, sink, *mask, replay_events));
    }
    Blocking(std::move(done), [this, token = *token, name = std::move(name), sink, mask,
                               replay_events]() -> absl::StatusOr<std::shared_ptr<SeatStream>> {
      absl::StatusOr<SeatGrant> grant = AuthorizeSeat(token, name);
      if (!grant.ok()) return grant.status();
      if (!mask.ok()) return mask.status();
      if (auto seat = FindLiveSeat(token, name)) {
        return OpenLiveSeatStream(seat->first, seat->second, sink, *mask, replay_events);
      }
      absl::StatusOr<v1::PlayResponse> final_view =
          EndedSeatView(grant->match_id, grant->seat, *mask);
      if (!final_view.ok()) return final_view.status();
      auto stream = std::make_shared<EndedSeatStream>(
          sink, std::make_shared<v1::PlayResponse>(std::move(*final_view)));
      stream->Hello();
      sink->Close(absl::OkStatus());
      return std::shared_ptr<SeatStream>(stream);
    });
  }

  void Watch(std::string name, const google::protobuf::FieldMask& view_mask,
             std::shared_ptr<WatchSink> sink, std::function<void(absl::Status)> done) {
    if (Stopping()) return done(ShuttingDown());
    absl::StatusOr<std::string> id = ParseMatchName(name);
    if (!id.ok()) return done(id.status());
    absl::StatusOr<ViewMask> mask =
        ViewMask::Parse(view_mask, *v1::PublicView::descriptor(), "view_mask");
    if (!mask.ok()) return done(mask.status());
    if (std::shared_ptr<LiveMatch> match = FindLive(*id)) {
      if (!match->deal_group().name().empty()) {
        return done(absl::PermissionDeniedError(
            absl::StrCat(MatchName(*id), " is being played in deal group ",
                         match->deal_group().name(),
                         ", whose other tables hold the same tiles; watch it once all are over")));
      }
      match->AttachWatcher(std::move(sink), *std::move(mask));
      return done(absl::OkStatus());
    }
    blocking_.Post([this, id = *id, sink = std::move(sink), mask = *std::move(mask),
                    done = std::move(done)] {
      absl::StatusOr<EndedMatch> ended = LoadEnded(id);
      if (!ended.ok()) return done(ended.status());
      if (absl::Status s = DealGroupOver(ended->match); !s.ok()) return done(s);
      auto response = std::make_shared<v1::WatchMatchResponse>();
      v1::PublicView& view = *response->mutable_view();
      FillPublicView(*ended->state->ViewFor(kSpectator), view,
                     LayoutFormFor<v1::PublicView>(mask));
      FinishEndedView(*ended, view);
      mask.Trim(view);
      done(absl::OkStatus());
      sink->Send(std::move(response));
      sink->Close(absl::OkStatus());
    });
  }

  void Shutdown() {
    std::vector<std::shared_ptr<LiveMatch>> matches;
    {
      absl::MutexLock lock(&mu_);
      if (stopping_) return;
      stopping_ = true;
      for (const auto& [id, match] : live_) matches.push_back(match);
    }
    for (const std::shared_ptr<LiveMatch>& match : matches) {
      match->CloseStreams(absl::UnavailableError(
          "the service is shutting down; reconnect with your seat token"));
    }
    timers_.Stop();
    bots_.Stop();
    // Events in flight are committed and their strands told, so every answer that can be given
    // is given; then the strands and the database work stop.
    log_.Flush();
    strands_.Stop();
    blocking_.Stop();
  }

  int live_matches() const {
    absl::MutexLock lock(&mu_);
    return static_cast<int>(live_.size());
  }

 private:
  class LiveSeatStream : public SeatStream {
   public:
    LiveSeatStream(std::shared_ptr<LiveMatch> match, int seat, std::shared_ptr<SeatSink> sink,
                   ViewMask mask)
        : match_(std::move(match)), seat_(seat), sink_(std::move(sink)), mask_(std::move(mask)) {}
    void Hello() override { match_->SendSeatView(seat_, sink_, mask_); }
    void Play(v1::Action action, int64_t seen_sequence) override {
      match_->PlayFromStream(seat_, sink_, std::move(action), seen_sequence);
    }

   private:
    std::shared_ptr<LiveMatch> match_;
    int seat_;
    std::shared_ptr<SeatSink> sink_;
    ViewMask mask_;
  };

  static std::shared_ptr<SeatStream> OpenLiveSeatStream(std::shared_ptr<LiveMatch> match, int seat,
                                                        std::shared_ptr<SeatSink> sink,
                                                        const ViewMask& mask,
                                                        bool replay_events) {
    match->AttachSeat(seat, sink, mask, replay_events);
    return std::make_shared<LiveSeatStream>(std::move(match), seat, std::move(sink), mask);
  }

  // Views are only sent: the layout as wire bytes, when the mask asks for it.
  template <class ViewMessage>
  static LayoutForm LayoutFormFor(const ViewMask& mask) {
    return mask.Includes(ViewMessage::kLayoutFieldNumber) ? LayoutForm::kWire : LayoutForm::kNone;
  }

  // A seat stream of a match that is over: its final view, and no actions.
  class EndedSeatStream : public SeatStream {
   public:
    EndedSeatStream(std::shared_ptr<SeatSink> sink, std::shared_ptr<const v1::PlayResponse> view)
        : sink_(std::move(sink)), view_(std::move(view)) {}
    void Hello() override { sink_->Send(view_); }
    void Play(v1::Action action, int64_t seen_sequence) override {
      auto response = std::make_shared<v1::PlayResponse>();
      v1::ActionRejected& rejected = *response->mutable_rejected();
      *rejected.mutable_action() = std::move(action);
      rejected.set_seen_sequence(seen_sequence);
      rejected.set_code(static_cast<int>(absl::StatusCode::kFailedPrecondition));
      rejected.set_message("the match is over: no more actions");
      sink_->Send(std::move(response));
    }

   private:
    std::shared_ptr<SeatSink> sink_;
    std::shared_ptr<const v1::PlayResponse> view_;
  };

  // Runs `work` on the blocking pool and passes its result to `done`.
  template <class T, class Work>
  void Blocking(Callback<T> done, Work work) {
    if (Stopping()) return done(ShuttingDown());
    auto task = [done, work = std::move(work)]() mutable { done(work()); };
    if (!blocking_.Post(std::move(task))) done(ShuttingDown());
  }

  bool Stopping() const {
    absl::MutexLock lock(&mu_);
    return stopping_;
  }

  static absl::Status MissingSeatToken() {
    return absl::UnauthenticatedError(
        "missing bearer token: send the seat token as 'authorization: Bearer <token>'");
  }

  // For operator RPCs. May query the database (to tell a seat token, PERMISSION_DENIED, from an
  // unknown one, UNAUTHENTICATED), so it runs on the blocking pool.
  absl::Status RequireOperator(const std::optional<std::string>& token) {
    const bool seat_token =
        auth_.Classify(token) == Authenticator::Role::kOther && IsSeatToken(*token);
    return auth_.RequireOperator(token, seat_token);
  }

  bool IsSeatToken(const std::string& token) {
    {
      absl::MutexLock lock(&mu_);
      if (tokens_.contains(token)) return true;
    }
    return store_.FindSeatToken(token).ok();
  }

  // The live match and seat `token` plays, when the token is a live seat token for the match
  // named `name`.
  std::optional<std::pair<std::shared_ptr<LiveMatch>, int>> FindLiveSeat(const std::string& token,
                                                                         const std::string& name) {
    absl::StatusOr<std::string> parsed = ParseMatchName(name);
    if (!parsed.ok()) return std::nullopt;
    const std::string& id = *parsed;
    absl::MutexLock lock(&mu_);
    auto grant = tokens_.find(token);
    if (grant == tokens_.end() || grant->second.match_id != id) return std::nullopt;
    auto match = live_.find(id);
    if (match == live_.end()) return std::nullopt;
    return std::make_pair(match->second, grant->second.seat);
  }

  // The slow path of seat authentication, with the database: UNAUTHENTICATED for an unknown
  // token, then INVALID_ARGUMENT for a malformed name, NOT_FOUND for an unknown match,
  // PERMISSION_DENIED for another match's token (or the operator's).
  absl::StatusOr<SeatGrant> AuthorizeSeat(const std::string& token, const std::string& name) {
    std::optional<SeatGrant> grant;
    {
      absl::MutexLock lock(&mu_);
      if (auto it = tokens_.find(token); it != tokens_.end()) grant = it->second;
    }
    if (!grant) {
      absl::StatusOr<SeatGrant> stored = store_.FindSeatToken(token);
      if (stored.ok()) {
        grant = *stored;
      } else if (absl::IsNotFound(stored.status())) {
        if (auth_.Classify(token) == Authenticator::Role::kOperator) {
          return absl::PermissionDeniedError(
              "the operator token does not play seats; use the seat's token");
        }
        return absl::UnauthenticatedError("unknown token");
      } else {
        return stored.status();
      }
    }
    absl::StatusOr<std::string> parsed = ParseMatchName(name);
    if (!parsed.ok()) return parsed.status();
    const std::string& id = *parsed;
    if (grant->match_id != id) {
      if (!FindLive(id)) {
        absl::StatusOr<v1::Match> match = store_.GetMatch(id);
        if (!match.ok()) return match.status();
      }
      return absl::PermissionDeniedError(
          absl::StrCat("the token is not a seat token of ", MatchName(id)));
    }
    return *grant;
  }

  // A match that is over, as its last views showed it: the final state replayed from the stored
  // record, the resource, and the last event with its effect.
  struct EndedMatch {
    std::unique_ptr<State> state;
    v1::Match match;
    std::optional<v1::MatchEvent> last_event;
  };

  absl::StatusOr<EndedMatch> LoadEnded(const std::string& id) {
    EndedMatch ended;
    absl::StatusOr<v1::Match> match = store_.GetMatch(id);
    if (!match.ok()) return match.status();
    if (match->state() == v1::Match::ACTIVE) return NotHere(id);
    ended.match = *std::move(match);
    absl::StatusOr<StoredRecord> stored = store_.GetRecordJson(id);
    if (!stored.ok()) return stored.status();
    absl::StatusOr<Record> record = ParseRecord(stored->json);
    if (!record.ok()) return absl::InternalError(record.status().message());
    absl::StatusOr<std::optional<EventRow>> last = store_.LastEvent(id);
    if (!last.ok()) return last.status();
    const bool last_is_action = *last && ((*last)->reason == v1::MatchEvent::PLAYED ||
                                          (*last)->reason == v1::MatchEvent::TIMEOUT_AUTO_PLAY);
    // One replay: up to the last action, which is then applied by hand, so the last event's
    // effect can compare the state before it with the state after.
    std::optional<RecordedAction> last_action;
    if (last_is_action && !record->rounds.empty() && !record->rounds.back().actions.empty()) {
      last_action = record->rounds.back().actions.back();
      record->rounds.back().actions.pop_back();
      record->result.reset();
    }
    absl::StatusOr<std::unique_ptr<State>> state = Replay(*record);
    if (!state.ok()) return absl::InternalError(state.status().message());
    ended.state = std::move(*state);
    if (!*last) return ended;
    google::protobuf::Struct effect = EndingEffect();
    std::string public_action;
    if (last_action) {
      absl::StatusOr<Action> action =
          ended.state->ResolveAction(last_action->seat, last_action->action);
      if (!action.ok()) return absl::InternalError(action.status().message());
      std::unique_ptr<State> before = ended.state->Clone();
      public_action = before->PublicActionToString(*action);
      ended.state->Apply(*action);
      effect = EffectOf(*before, *ended.state);
    }
    ended.last_event = EventProto(**last, std::move(public_action), std::move(effect));
    return ended;
  }

  template <class View>
  static void FinishEndedView(const EndedMatch& ended, View& view) {
    const v1::Match& match = ended.match;
    view.set_match(match.name());
    view.set_game(match.game());
    view.set_sequence(match.sequence());
    view.set_terminal(true);
    view.set_current_seat(kNobody);
    if (ended.last_event) *view.mutable_last_event() = *ended.last_event;
    if (match.has_result()) *view.mutable_result() = match.result();
  }

  absl::StatusOr<v1::PlayResponse> EndedSeatView(const std::string& id, int seat,
                                                 const ViewMask& mask) {
    absl::StatusOr<EndedMatch> ended = LoadEnded(id);
    if (!ended.ok()) return ended.status();
    v1::PlayResponse response;
    v1::SeatView& view = *response.mutable_view();
    FillSeatView(*ended->state->ViewFor(seat), view, LayoutFormFor<v1::SeatView>(mask));
    FinishEndedView(*ended, view);
    view.set_seat(seat);
    view.clear_legal_actions();
    mask.Trim(view);
    return response;
  }

  // The stored match, with the live sequence when it is being played here.
  v1::Match CurrentResource(const NewMatch& stored) {
    if (std::shared_ptr<LiveMatch> live = FindLive(stored.id)) return live->Snapshot();
    absl::StatusOr<v1::Match> match = store_.GetMatch(stored.id);
    return match.ok() ? *match : stored.match;
  }

  absl::StatusOr<std::shared_ptr<const Game>> GameOf(const v1::Match& match) {
    const GameSpec* spec = DefaultRegistry().Find(match.game());
    if (spec == nullptr) return absl::NotFoundError(absl::StrCat("unknown game ", match.game()));
    absl::StatusOr<std::map<std::string, OptionValue>> rules =
        RuleValuesFromProto(match.rules(), *spec);
    if (!rules.ok()) return rules.status();
    return DefaultRegistry().CreateGame(match.game(), *rules);
  }

  // OK when `match` is in no deal group, or every match of its group is stored and over;
  // PERMISSION_DENIED naming the group otherwise (GetRecord answers FAILED_PRECONDITION). The
  // store counts, so a group spread over replicas is judged whole.
  absl::Status DealGroupOver(const v1::Match& match) {
    const v1::DealGroup& group = match.deal_group();
    if (group.name().empty()) return absl::OkStatus();
    absl::StatusOr<DealGroupProgress> progress = store_.CountDealGroup(group.name());
    if (!progress.ok()) return progress.status();
    if (progress->created < group.size() || progress->active > 0) {
      return absl::PermissionDeniedError(absl::StrCat(
          match.name(), " shares its deals with deal group ", group.name(), ", of which ",
          group.size() - progress->created + progress->active,
          " match(es) are still to be created or being played; it is shown once all are over"));
    }
    return absl::OkStatus();
  }

  // A live match this process does not host (on a blocking thread): UNAVAILABLE, with the
  // replica that plays it as a WrongReplica detail when there is one (another replica, or this
  // one while it adopts the match), so the client calls there; without one (its replica was
  // fenced and nobody has adopted it yet) the client retries.
  absl::Status NotHere(const std::string& id) {
    // A match handed to this replica and not loaded yet is loaded now; the client is then sent
    // here again (its replica's address is this one's).
    LoadHandedOver();
    absl::StatusOr<std::optional<std::string>> address = store_.ReplicaAddressOf(id);
    if (!address.ok() || !address->has_value()) {
      return absl::UnavailableError(absl::StrCat(
          MatchName(id), " is moving to another replica (or being loaded); retry"));
    }
    absl::Status status = absl::UnavailableError(absl::StrCat(
        MatchName(id), " is played by the replica at ", **address, "; call it there"));
    v1::WrongReplica where;
    where.set_match(MatchName(id));
    where.set_address(**address);
    SetStatusDetail(status, where);
    return status;
  }

  // The matches a draining replica handed to this one (MatchStore::HandOver) that the lease's
  // next look has not loaded yet.
  void LoadHandedOver() {
    absl::StatusOr<std::vector<ActiveMatch>> handed = store_.TakeHandedOver(kHandedOverBatch);
    if (!handed.ok() || handed->empty()) return;  // UNIMPLEMENTED: a store without replicas
    if (absl::Status s = AdoptMatches(*std::move(handed)); !s.ok()) {
      spdlog::error("replica: matches handed over do not replay: {}", s.ToString());
    }
  }

  std::shared_ptr<LiveMatch> FindLive(const std::string& id) const {
    absl::MutexLock lock(&mu_);
    auto it = live_.find(id);
    return it == live_.end() ? nullptr : it->second;
  }

  void Adopt(const std::shared_ptr<LiveMatch>& match) {
    absl::MutexLock lock(&mu_);
    if (live_.insert_or_assign(match->id(), match).second) {
      metrics_.live_matches_by_game.Add({{"game", match->game()}}).Increment();
    }
    const std::vector<std::string>& tokens = match->seat_tokens();
    for (int seat = 0; seat < static_cast<int>(tokens.size()); ++seat) {
      if (!tokens[seat].empty()) tokens_[tokens[seat]] = SeatGrant{match->id(), seat};
    }
    metrics_.live_matches.Set(static_cast<double>(live_.size()));
  }

  void Forget(const std::string& id) {
    absl::MutexLock lock(&mu_);
    auto it = live_.find(id);
    if (it == live_.end()) return;
    for (const std::string& token : it->second->seat_tokens()) {
      if (!token.empty()) tokens_.erase(token);
    }
    metrics_.live_matches_by_game.Add({{"game", it->second->game()}}).Decrement();
    live_.erase(it);
    metrics_.live_matches.Set(static_cast<double>(live_.size()));
  }

  MatchStore& store_;
  GroupCommitter& log_;
  const HostOptions options_;
  const Authenticator auth_;
  const PageTokens page_tokens_;
  std::unique_ptr<prometheus::Registry> own_registry_;
  HostMetrics metrics_;
  TimerQueue timers_;
  ThreadPool strands_;
  ThreadPool bots_;
  ThreadPool blocking_;
  // CreateMatch's group commit (MatchStore::CreateMatches), fed by the blocking threads.
  BatchQueue<NewMatch, absl::StatusOr<CreateResult>> creations_;
  MatchContext context_;

  mutable absl::Mutex mu_;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  absl::flat_hash_map<std::string, std::shared_ptr<LiveMatch>> live_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, SeatGrant> tokens_ ABSL_GUARDED_BY(mu_);
};

// ----- MatchHost ------------------------------------------------------------------------------

absl::StatusOr<std::unique_ptr<MatchHost>> MatchHost::Start(MatchStore& store, GroupCommitter& log,
                                                            HostOptions options) {
  if (options.operator_token.empty()) {
    return absl::InvalidArgumentError("the operator token is empty");
  }
  const bool recover = options.recover_all_on_start;
  auto impl = std::make_unique<Impl>(store, log, std::move(options));
  if (recover) {
    if (absl::Status status = impl->Recover(); !status.ok()) return status;
  }
  return std::unique_ptr<MatchHost>(new MatchHost(std::move(impl)));
}

MatchHost::MatchHost(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

MatchHost::~MatchHost() { impl_->Shutdown(); }

void MatchHost::CreateMatch(std::optional<std::string> token, v1::CreateMatchRequest request,
                            Callback<v1::CreateMatchResponse> done) {
  impl_->CreateMatch(std::move(token), std::move(request), std::move(done));
}
void MatchHost::GetMatch(std::string name, Callback<v1::Match> done) {
  impl_->GetMatch(std::move(name), std::move(done));
}
void MatchHost::ListMatches(v1::ListMatchesRequest request, Callback<v1::ListMatchesResponse> done) {
  impl_->ListMatches(std::move(request), std::move(done));
}
void MatchHost::GetRecord(std::string name, Callback<v1::Record> done) {
  impl_->GetRecord(std::move(name), std::move(done));
}
void MatchHost::AbortMatch(std::optional<std::string> token, v1::AbortMatchRequest request,
                           Callback<v1::Match> done) {
  impl_->AbortMatch(std::move(token), std::move(request), std::move(done));
}
void MatchHost::ListParkedResults(std::optional<std::string> token,
                                  v1::ListParkedResultsRequest request,
                                  Callback<v1::ListParkedResultsResponse> done) {
  impl_->ListParkedResults(std::move(token), std::move(request), std::move(done));
}
void MatchHost::RetryParkedResult(std::optional<std::string> token, std::string name,
                                  Callback<v1::ParkedResult> done) {
  impl_->ResolveParkedResult(std::move(token), std::move(name), Impl::ParkedAction::kRetry,
                             std::move(done));
}
void MatchHost::DropParkedResult(std::optional<std::string> token, std::string name,
                                 Callback<v1::ParkedResult> done) {
  impl_->ResolveParkedResult(std::move(token), std::move(name), Impl::ParkedAction::kDrop,
                             std::move(done));
}
void MatchHost::SubmitAction(std::optional<std::string> token, v1::SubmitActionRequest request,
                             Callback<v1::SeatView> done) {
  impl_->SubmitAction(std::move(token), std::move(request), std::move(done));
}
void MatchHost::OpenSeatStream(std::optional<std::string> token, std::string name,
                               const google::protobuf::FieldMask& view_mask, bool replay_events,
                               std::shared_ptr<SeatSink> sink,
                               Callback<std::shared_ptr<SeatStream>> done) {
  impl_->OpenSeatStream(std::move(token), std::move(name), view_mask, replay_events,
                        std::move(sink), std::move(done));
}
void MatchHost::Watch(std::string name, const google::protobuf::FieldMask& view_mask,
                      std::shared_ptr<WatchSink> sink, std::function<void(absl::Status)> done) {
  impl_->Watch(std::move(name), view_mask, std::move(sink), std::move(done));
}
absl::Status MatchHost::AdoptMatches(std::vector<ActiveMatch> matches) {
  return impl_->AdoptMatches(std::move(matches));
}
void MatchHost::Shutdown() { impl_->Shutdown(); }
int MatchHost::live_matches() const { return impl_->live_matches(); }

}  // namespace boneyard::execution
