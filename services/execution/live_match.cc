#include "services/execution/live_match.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <span>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/bots/search_bot.h"
#include "engine/bots/worlds.h"
#include "engine/core/action.h"
#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "engine/records/referee.h"
#include "google/protobuf/arena.h"
#include "services/common/engine_proto.h"
#include "services/common/internal_error.h"
#include "services/common/validation.h"
#include "services/execution/bot_seeds.h"
#include "services/execution/events.h"
#include "services/execution/ids.h"

namespace boneyard::execution {

// An event on its way to the database, with everything needed to apply it once durable.
struct LiveMatch::Pending {
  EventRow row;
  std::optional<MatchEnd> end;
  std::optional<Action> action;              // an engine action; none for a forfeit or an abort
  std::unique_ptr<State> next;               // the state after the action; null without one
  v1::MatchEvent event;                      // the public event, as views will show it
  std::function<void(absl::Status)> origin;  // the submitter's answer; may be empty
  absl::Time received;                       // when a player's action reached the match
};

namespace {

// The stand-in for timed-out seats and over-budget bots: the game's default bot
// (GameSpec::default_bot), which sees only the seat's view like any bot.
std::unique_ptr<Bot> MakeStandIn(const BotRegistry& registry, const Game& game, uint64_t seed) {
  absl::StatusOr<std::unique_ptr<Bot>> bot = registry.MakeDefault(game, seed);
  return bot.ok() ? std::move(*bot) : nullptr;
}

v1::ActionRejected Rejection(const v1::Action& action, int64_t seen_sequence,
                             const absl::Status& status) {
  v1::ActionRejected rejected;
  *rejected.mutable_action() = action;
  if (action.text().size() > validation::kMaxActionBytes) {
    // Refused for its size: the answer does not carry it back whole.
    rejected.mutable_action()->set_text(validation::Quote(action.text()));
  }
  rejected.set_seen_sequence(seen_sequence);
  // A commit's failure may hold the database's own text: never sent to a seat.
  const absl::Status shown = PublicStatus(status);
  rejected.set_code(static_cast<int>(shown.code()));
  rejected.set_message(std::string(shown.message()));
  return rejected;
}

}  // namespace

LiveMatch::LiveMatch(MatchContext& context, NewMatch created, std::shared_ptr<const Game> game)
    : context_(context),
      created_(std::move(created)),
      game_(std::move(game)),
      strand_(Strand::Make(*context.strands)) {
  const int seats = game_->num_seats();
  player_ids_.resize(seats);
  seat_labels_.resize(seats);
  bots_.resize(seats);
  bot_levels_.assign(seats, 0);
  think_caps_.assign(seats, context_.bot_think_budget);
  for (int seat = 0; seat < seats; ++seat) bot_locks_.push_back(std::make_unique<absl::Mutex>());
  seat_sinks_.resize(seats);
  seat_flood_.assign(seats, TokenBucket(context_.seat_flood, absl::Now()));
  for (int seat = 0; seat < seats; ++seat) {
    const v1::Seat& occupant = created_.match.seats(seat);
    if (occupant.has_bot()) {
      seat_labels_[seat] = occupant.bot().kind();
    } else {
      player_ids_[seat] = occupant.player().player_id();
      seat_labels_[seat] = player_ids_[seat];
    }
  }
  const auto& clock = created_.match.clock();
  per_move_ = FromDuration(clock.per_move());
}

absl::StatusOr<std::shared_ptr<LiveMatch>> LiveMatch::Load(MatchContext& context, NewMatch created,
                                                           std::shared_ptr<const Game> game,
                                                           const std::vector<EventRow>& events) {
  std::shared_ptr<LiveMatch> match(new LiveMatch(context, std::move(created), std::move(game)));
  const std::string name = MatchName(match->id());
  absl::StatusOr<std::unique_ptr<State>> state = match->game_->NewMatch(match->created_.seed);
  if (!state.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat(name, ": cannot start the match: ", state.status().message()));
  }
  match->state_ = std::move(*state);
  match->builder_ =
      std::make_unique<RecordBuilder>(*match->state_, match->created_.seed, match->seat_labels_);
  for (int seat = 0; seat < match->game_->num_seats(); ++seat) {
    const v1::Seat& occupant = match->created_.match.seats(seat);
    if (!occupant.has_bot()) continue;
    absl::StatusOr<std::unique_ptr<Bot>> bot = context.bot_registry->Make(
        occupant.bot().kind(), *match->game_,
        DeriveSeed(match->created_.seed, kBotSeedStream + seat), occupant.bot().level());
    if (!bot.ok()) {
      return absl::FailedPreconditionError(
          absl::StrCat(name, ": seat ", seat, ": ", bot.status().message()));
    }
    match->bots_[seat] = std::move(*bot);
    match->bot_levels_[seat] = occupant.bot().level();
    // A search level's own budget, when it is smaller than the service's.
    if (occupant.bot().kind() == "search") {
      match->think_caps_[seat] = std::min(
          context.bot_think_budget, absl::FromChrono(SearchLevelFor(occupant.bot().level()).think));
    }
  }
  match->stand_in_ = MakeStandIn(*context.bot_registry, *match->game_,
                                 DeriveSeed(match->created_.seed, kStandInSeedStream));
  match->turn_start_ = FromTimestamp(match->created_.match.create_time());

  // Replay the log. Every stored event of an ACTIVE match is an action: forfeits and aborts end
  // their match in the same transaction.
  for (const EventRow& row : events) {
    const std::string where = absl::StrCat(name, " event ", row.sequence);
    if (row.sequence != match->sequence_ + 1) {
      return absl::FailedPreconditionError(
          absl::StrCat(where, ": expected sequence ", match->sequence_ + 1));
    }
    if (row.reason != v1::MatchEvent::PLAYED && row.reason != v1::MatchEvent::TIMEOUT_AUTO_PLAY) {
      return absl::FailedPreconditionError(
          absl::StrCat(where, ": an ending event in an active match"));
    }
    absl::StatusOr<Action> action = match->state_->ResolveAction(row.seat, row.action);
    if (!action.ok()) {
      return absl::FailedPreconditionError(absl::StrCat(
          where, " (seat ", row.seat, " '", row.action, "'): ", action.status().message()));
    }
    std::unique_ptr<State> next = match->state_->Clone();
    next->Apply(*action);
    match->builder_->Add(*match->state_, *action);
    match->last_event_ = EventProto(row, match->state_->PublicActionToString(*action),
                                    EffectOf(*match->state_, *next));
    match->state_ = std::move(next);
    match->sequence_ = row.sequence;
    match->turn_start_ = row.create_time;
  }
  if (match->state_->IsTerminal()) {
    // The last event ended the match, so its end was stored with it and the match is not
    // ACTIVE; finding it here means the database is inconsistent.
    return absl::FailedPreconditionError(
        absl::StrCat(name, ": the log ends the match but the match is stored as active"));
  }
  {
    absl::MutexLock lock(&match->summary_mu_);
    match->summary_sequence_ = match->sequence_;
    match->summary_update_time_ = match->turn_start_;
  }
  return match;
}

void LiveMatch::Post(std::function<void()> task) {
  strand_->Dispatch([self = shared_from_this(), task = std::move(task)] { task(); });
}

void LiveMatch::PostToWorker(std::function<void()> task) {
  strand_->Post([self = shared_from_this(), task = std::move(task)] { task(); });
}

void LiveMatch::RunOrDefer(std::function<void()> task) {
  if (in_flight_) {
    deferred_.push_back(std::move(task));
  } else {
    task();
  }
}

void LiveMatch::RunDeferred() {
  while (!in_flight_ && !deferred_.empty()) {
    std::function<void()> task = std::move(deferred_.front());
    deferred_.pop_front();
    task();
  }
}

void LiveMatch::Begin() {
  Post([this] { StartTurn(); });
}

// ----- Actions ------------------------------------------------------------------------------

absl::StatusOr<Action> LiveMatch::Validate(int seat, const v1::Action& action,
                                           int64_t seen_sequence) const {
  if (action.text().empty()) {
    return absl::InvalidArgumentError(
        "action.text: is empty; send the action's text, e.g. \"6-4 left\"");
  }
  // Bounded before the engine parses it: its errors quote the text.
  if (absl::Status s =
          validation::CheckText("action.text", action.text(), validation::kMaxActionBytes);
      !s.ok()) {
    return s;
  }
  if (end_state_ != v1::Match::ACTIVE) {
    return absl::FailedPreconditionError("the match is over: no more actions");
  }
  if (seen_sequence > sequence_) {
    // Not stale: no view ever showed it. ABORTED all the same, as for any sequence mismatch.
    return absl::AbortedError(absl::StrCat("seen_sequence ", seen_sequence,
                                           " is ahead of the match, which is at sequence ",
                                           sequence_, "; send the sequence of the view you saw"));
  }
  if (seen_sequence != sequence_) {
    return absl::AbortedError(absl::StrCat("seen_sequence ", seen_sequence,
                                           " is stale: the match is at sequence ", sequence_,
                                           "; decide again from the current view"));
  }
  return state_->ResolveAction(seat, action.text());
}

void LiveMatch::CountRejection(const absl::Status& status) const {
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
      context_.metrics->rejected_invalid.Increment();
      break;
    case absl::StatusCode::kAborted:
      context_.metrics->rejected_stale.Increment();
      break;
    default:
      context_.metrics->rejected_precondition.Increment();
      break;
  }
}

void LiveMatch::Submit(int seat, v1::Action action, int64_t seen_sequence,
                       Callback<v1::SeatView> done) {
  PlayerAction(seat, std::move(action), seen_sequence,
               [this, seat, done = std::move(done)](absl::Status status) {
                 if (status.ok()) {
                   done(MakeSeatView(seat));
                 } else {
                   done(status);
                 }
               });
}

void LiveMatch::PlayFromStream(int seat, std::shared_ptr<SeatSink> sink, v1::Action action,
                               int64_t seen_sequence) {
  // Success shows in the views every stream of the seat gets; only a rejection is answered here.
  PlayerAction(seat, action, seen_sequence,
               [sink = std::move(sink), action, seen_sequence](absl::Status status) {
                 if (status.ok()) return;
                 if (absl::IsResourceExhausted(status)) return sink->Close(std::move(status));
                 auto response = std::make_shared<v1::PlayResponse>();
                 *response->mutable_rejected() = Rejection(action, seen_sequence, status);
                 sink->Send(std::move(response));
               });
}

void LiveMatch::PlayerAction(int seat, v1::Action action, int64_t seen_sequence,
                             std::function<void(absl::Status)> answer) {
  const absl::Time received = absl::Now();
  Post([this, seat, action = std::move(action), seen_sequence, answer = std::move(answer),
        received]() mutable {
    RunOrDefer([this, seat, action = std::move(action), seen_sequence, answer = std::move(answer),
                received]() mutable {
      absl::StatusOr<Action> resolved = Validate(seat, action, seen_sequence);
      if (!resolved.ok()) {
        CountRejection(resolved.status());
        absl::Status flood = TakeFloodToken(seat);
        answer(flood.ok() ? resolved.status() : std::move(flood));
        return;
      }
      ApplyAction(seat, *resolved, v1::MatchEvent::PLAYED, std::move(answer), received);
    });
  });
}

void LiveMatch::ApplyAction(int seat, Action action, v1::MatchEvent::Reason reason,
                            std::function<void(absl::Status)> origin, absl::Time received) {
  auto pending = std::make_unique<Pending>();
  pending->action = action;
  pending->next = state_->Clone();
  pending->next->Apply(action);
  const absl::Time now = StorableNow();
  pending->row = EventRow{.match_id = id(),
                          .sequence = sequence_ + 1,
                          .seat = seat,
                          .action = state_->ActionToString(action),
                          .reason = reason,
                          .round = state_->Round(),
                          .message = "",
                          .turn_start_time = turn_start_,
                          .create_time = now};
  pending->event = EventProto(pending->row, state_->PublicActionToString(action),
                              EffectOf(*state_, *pending->next));
  if (pending->next->IsTerminal()) {
    RecordBuilder builder = *builder_;
    builder.Add(*state_, action);
    pending->end =
        MatchEnd{.match_id = id(),
                 .state = v1::Match::FINISHED,
                 .sequence = pending->row.sequence,
                 .result = ResultToProto(ResultOf(*pending->next), player_ids_, game_->teams()),
                 .record_json = RecordJson(builder, *pending->next),
                 .abort_reason = "",
                 .end_time = now};
  }
  pending->origin = std::move(origin);
  pending->received = received;
  CommitEvent(std::move(pending));
}

void LiveMatch::EndWithoutResult(int seat, v1::MatchEvent::Reason reason, v1::Match::State state,
                                 std::string message, std::function<void(absl::Status)> origin) {
  auto pending = std::make_unique<Pending>();
  const absl::Time now = StorableNow();
  pending->row = EventRow{.match_id = id(),
                          .sequence = sequence_ + 1,
                          .seat = seat,
                          .action = "",
                          .reason = reason,
                          .round = state_->Round(),
                          .message = std::move(message),
                          .turn_start_time = turn_start_,
                          .create_time = now};
  pending->event = EventProto(pending->row, "", EndingEffect());
  pending->end = MatchEnd{.match_id = id(),
                          .state = state,
                          .sequence = pending->row.sequence,
                          .result = std::nullopt,
                          .record_json = RecordJson(*builder_, *state_),
                          .abort_reason = "",
                          .end_time = now};
  if (state == v1::Match::FINISHED) {
    pending->end->result = ForfeitResult(seat);
  } else {
    pending->end->abort_reason = pending->row.message;
  }
  pending->origin = std::move(origin);
  pending->received = now;
  CommitEvent(std::move(pending));
}

void LiveMatch::CommitEvent(std::unique_ptr<Pending> pending) {
  in_flight_ = true;
  EventRow row = pending->row;
  std::optional<MatchEnd> end = pending->end;
  pending_ = std::move(pending);
  context_.log->Append(std::move(row), std::move(end),
                       [self = shared_from_this()](absl::Status status) {
                         // Not on the writer's thread: it is wanted for the next commit.
                         self->PostToWorker([self, status] { self->OnCommitted(status); });
                       });
}

void LiveMatch::OnCommitted(absl::Status status) {
  in_flight_ = false;
  std::unique_ptr<Pending> pending = std::move(pending_);
  if (!status.ok()) {
    context_.metrics->commit_failures.Increment();
    if (pending->origin) {
      pending->origin(absl::UnavailableError(absl::StrCat(
          "the event could not be stored, so it was not applied: ", status.message())));
    }
    // A bot's or a clock's move that was not stored is tried again by the next turn start.
    StartTurn();
    RunDeferred();
    return;
  }

  const EventRow& row = pending->row;
  if (pending->action) builder_->Add(*state_, *pending->action);
  if (pending->next) state_ = std::move(pending->next);
  sequence_ = row.sequence;
  turn_start_ = row.create_time;
  last_event_ = std::move(pending->event);
  switch (row.reason) {
    case v1::MatchEvent::PLAYED:
      context_.metrics->events_played.Increment();
      break;
    case v1::MatchEvent::TIMEOUT_AUTO_PLAY:
      context_.metrics->events_timeout_auto_play.Increment();
      break;
    case v1::MatchEvent::TIMEOUT_FORFEIT:
      context_.metrics->events_timeout_forfeit.Increment();
      break;
    default:
      context_.metrics->events_abort.Increment();
      break;
  }
  if (pending->origin) {
    context_.metrics->action_seconds.Observe(
        absl::ToDoubleSeconds(absl::Now() - pending->received));
  }
  if (pending->end) {
    end_state_ = pending->end->state;
    result_ = pending->end->result;
    abort_reason_ = pending->end->abort_reason;
    end_time_ = pending->end->end_time;
  }
  {
    absl::MutexLock lock(&summary_mu_);
    summary_sequence_ = sequence_;
    summary_update_time_ = row.create_time;
  }

  const bool ended = end_state_ != v1::Match::ACTIVE;
  if (ended) {
    // Forget the match before anyone sees its end, so a client that reacts to the terminal
    // view (fetching the record, say) is served from the database, where the end is.
    if (end_state_ == v1::Match::FINISHED) {
      context_.metrics->matches_finished.Increment();
      if (context_.on_finished) context_.on_finished();
    } else {
      context_.metrics->matches_aborted.Increment();
    }
    context_.on_ended(id());
  }
  if (pending->origin) pending->origin(absl::OkStatus());
  Broadcast();
  if (ended) {
    CloseAll(absl::OkStatus());
  } else {
    StartTurn();
  }
  RunDeferred();
}

// ----- Turns: bots and clocks -----------------------------------------------------------------

void LiveMatch::StartTurn() {
  if (end_state_ != v1::Match::ACTIVE || in_flight_) return;
  const int seat = state_->CurrentSeat();
  if (seat < 0) return;
  if (IsBot(seat)) {
    ScheduleBot(seat);
    return;
  }
  if (std::optional<absl::Time> deadline = CurrentDeadline()) {
    std::weak_ptr<LiveMatch> weak = weak_from_this();
    const int64_t sequence = sequence_;
    context_.timers->Schedule(*deadline, [weak, sequence] {
      if (std::shared_ptr<LiveMatch> self = weak.lock()) {
        self->Post([self, sequence] {
          self->RunOrDefer([self, sequence] { self->OnDeadline(sequence); });
        });
      }
    });
  }
}

std::optional<absl::Time> LiveMatch::CurrentDeadline() const {
  if (per_move_ <= absl::ZeroDuration() || end_state_ != v1::Match::ACTIVE) return std::nullopt;
  const int seat = state_->CurrentSeat();
  if (seat < 0 || IsBot(seat)) return std::nullopt;
  return turn_start_ + per_move_;
}

void LiveMatch::ScheduleBot(int seat) {
  std::shared_ptr<const View> view = state_->ViewFor(seat);
  ActionList legal;
  state_->LegalActions(legal);
  std::vector<Action> actions(legal.begin(), legal.end());
  const int64_t sequence = sequence_;
  // A search bot's worlds are drawn here, on the strand, from the live state; the bot thread
  // gets only them (worlds.h). Seeded by the move's sequence, so a replayed match decides alike.
  std::shared_ptr<const Worlds> worlds;
  if (bots_[seat]->SearchesWorlds()) {
    worlds = std::make_shared<SeatWorlds>(
        *state_, seat,
        DeriveSeed(created_.seed, kWorldSeedStream + static_cast<uint64_t>(sequence)));
  }
  std::weak_ptr<LiveMatch> weak = weak_from_this();
  auto think = [weak, seat, sequence, view, worlds, actions = std::move(actions)] {
    std::shared_ptr<LiveMatch> self = weak.lock();
    if (!self) return;
    const absl::Time turn = absl::Now();
    const absl::Duration cap = self->think_caps_[seat];
    // A searching bot's move is due a budget after its turn, however long it queues for the
    // bot pool: at the due time the strand plays the stand-in's move if the bot has not
    // answered (OnBotLate), so a person across the table never waits much past the level's
    // budget. The search itself stops at nine tenths of it, to answer in time.
    std::chrono::steady_clock::time_point due = std::chrono::steady_clock::time_point::max();
    if (worlds) {
      due = std::chrono::steady_clock::now() + absl::ToChronoMilliseconds(cap * 0.9);
      self->context_.timers->Schedule(turn + cap, [weak, seat, sequence, turn] {
        if (std::shared_ptr<LiveMatch> late = weak.lock()) {
          late->Post([late, seat, sequence, turn] {
            late->RunOrDefer(
                [late, seat, sequence, turn] { late->OnBotLate(seat, sequence, turn); });
          });
        }
      });
    }
    self->context_.bots->Post([self, seat, sequence, view, worlds, actions, turn, due] {
      // Dequeued after its time: the strand has played (or is playing) the stand-in's move.
      if (worlds && std::chrono::steady_clock::now() + std::chrono::milliseconds(2) >= due) return;
      Action action;
      {
        // A search the strand stopped waiting for may still be finishing its last iteration on
        // another bot thread when this seat's next turn comes: a bot is used by one at a time.
        absl::MutexLock lock(self->bot_locks_[seat].get());
        action = worlds ? self->bots_[seat]->ChooseWithWorlds(*view, actions, *worlds, due)
                        : self->bots_[seat]->ChooseAction(*view, actions);
      }
      if (!worlds && absl::Now() - turn > self->context_.bot_think_budget) {
        // Over budget: the stand-in's move is played instead, so a slow bot cannot hold up
        // its table. A fresh stand-in here, as the match's own belongs to the strand.
        self->context_.metrics->bot_over_budget.Increment();
        if (std::unique_ptr<Bot> stand_in =
                MakeStandIn(*self->context_.bot_registry, *self->game_, sequence)) {
          action = stand_in->ChooseAction(*view, actions);
        }
      }
      self->Post([self, seat, sequence, action, turn] {
        self->RunOrDefer([self, seat, sequence, action, turn] {
          self->OnBotMove(seat, sequence, action, turn);
        });
      });
    });
  };
  if (context_.bot_delay > absl::ZeroDuration()) {
    context_.timers->Schedule(absl::Now() + context_.bot_delay, std::move(think));
  } else {
    think();
  }
}

void LiveMatch::OnBotMove(int seat, int64_t sequence, Action action, absl::Time turn) {
  if (end_state_ != v1::Match::ACTIVE || sequence != sequence_) return;  // moved on
  context_.metrics->bot_moves.Increment();
  context_.metrics->BotThink(bot_levels_[seat]).Observe(absl::ToDoubleSeconds(absl::Now() - turn));
  ApplyAction(seat, action, v1::MatchEvent::PLAYED, nullptr, absl::Now());
}

void LiveMatch::OnBotLate(int seat, int64_t sequence, absl::Time turn) {
  if (end_state_ != v1::Match::ACTIVE || sequence != sequence_) return;  // it answered in time
  context_.metrics->bot_over_budget.Increment();
  OnBotMove(seat, sequence, StandInAction(seat), turn);
}

Action LiveMatch::StandInAction(int seat) const {
  std::unique_ptr<View> view = state_->ViewFor(seat);
  ActionList legal;
  state_->LegalActions(legal);
  return stand_in_ ? stand_in_->ChooseAction(*view, legal.span()) : legal.span().front();
}

void LiveMatch::OnDeadline(int64_t sequence) {
  if (end_state_ != v1::Match::ACTIVE || sequence != sequence_) return;  // the seat moved
  const int seat = state_->CurrentSeat();
  if (created_.match.clock().timeout_policy() == v1::ClockSettings::FORFEIT) {
    EndWithoutResult(seat, v1::MatchEvent::TIMEOUT_FORFEIT, v1::Match::FINISHED, "", nullptr);
    return;
  }
  ApplyAction(seat, StandInAction(seat), v1::MatchEvent::TIMEOUT_AUTO_PLAY, nullptr, absl::Now());
}

// ----- Abort, description ---------------------------------------------------------------------

void LiveMatch::Abort(std::string reason, Callback<v1::Match> done) {
  Post([this, reason = std::move(reason), done = std::move(done)]() mutable {
    RunOrDefer([this, reason = std::move(reason), done = std::move(done)]() mutable {
      if (end_state_ == v1::Match::ABORTED) {
        done(Resource());
        return;
      }
      if (end_state_ == v1::Match::FINISHED) {
        done(absl::FailedPreconditionError(absl::StrCat(MatchName(id()), " has already finished")));
        return;
      }
      EndWithoutResult(-1, v1::MatchEvent::OPERATOR_ABORT, v1::Match::ABORTED, std::move(reason),
                       [this, done = std::move(done)](absl::Status status) {
                         if (!status.ok()) {
                           done(status);
                         } else {
                           done(Resource());
                         }
                       });
    });
  });
}

void LiveMatch::Describe(Callback<v1::Match> done) {
  Post([this, done = std::move(done)] { done(Resource()); });
}

v1::Match LiveMatch::Snapshot() const {
  v1::Match match = created_.match;
  absl::MutexLock lock(&summary_mu_);
  match.set_sequence(summary_sequence_);
  *match.mutable_update_time() = ToTimestamp(summary_update_time_);
  return match;
}

v1::Match LiveMatch::Resource() const {
  v1::Match match = created_.match;
  match.set_state(end_state_);
  match.set_sequence(sequence_);
  *match.mutable_update_time() = ToTimestamp(turn_start_);
  if (result_) *match.mutable_result() = *result_;
  if (end_state_ == v1::Match::ABORTED) match.set_abort_reason(abort_reason_);
  if (end_state_ != v1::Match::ACTIVE) *match.mutable_end_time() = ToTimestamp(end_time_);
  return match;
}

v1::MatchResult LiveMatch::ForfeitResult(int seat) const {
  // The forfeiting seat's side ranks last; the others keep their order by the current score.
  const int forfeit_team = game_->TeamOf(seat);
  std::vector<int> forfeited;
  for (int s = 0; s < game_->num_seats(); ++s) {
    if (game_->TeamOf(s) == forfeit_team) forfeited.push_back(s);
  }
  const std::vector<int> base = state_->Ranks();
  std::map<int, int> dense;  // base rank → rank among the seats that did not forfeit
  for (int s = 0; s < game_->num_seats(); ++s) {
    if (game_->TeamOf(s) != forfeit_team) dense[base[s]] = 0;
  }
  int next_rank = 1;
  for (auto& [base_rank, rank] : dense) rank = next_rank++;
  RecordedResult result;
  result.scores = state_->Scores();
  result.ranks.resize(game_->num_seats());
  for (int s = 0; s < game_->num_seats(); ++s) {
    result.ranks[s] = game_->TeamOf(s) == forfeit_team ? next_rank : dense[base[s]];
    if (result.ranks[s] == 1 && game_->TeamOf(s) != forfeit_team) result.winners.push_back(s);
  }
  result.details = {{"forfeit", true}};
  v1::MatchResult proto = ResultToProto(result, player_ids_, game_->teams());
  for (int s : forfeited) proto.add_forfeited_seats(s);
  return proto;
}

std::string LiveMatch::RecordJson(const RecordBuilder& builder, const State& state) const {
  return RecordToJson(builder.Build(state)).dump();
}

// ----- Views and streams ----------------------------------------------------------------------

v1::SeatView LiveMatch::MakeSeatView(int seat) const {
  v1::SeatView view;
  FillSeatViewOf(seat, ViewMask(), view);
  return view;
}

void LiveMatch::FillSeatViewOf(int seat, const ViewMask& mask, v1::SeatView& view) const {
  FillSeatView(
      *state_->ViewFor(seat), view,
      mask.Includes(v1::SeatView::kLayoutFieldNumber) ? LayoutForm::kWire : LayoutForm::kNone);
  view.set_match(MatchName(id()));
  view.set_game(game_->name());
  view.set_seat(seat);
  view.set_sequence(sequence_);
  if (end_state_ != v1::Match::ACTIVE) {
    // A forfeit or an abort ends the match before the engine would.
    view.set_terminal(true);
    view.set_current_seat(kNobody);
    view.clear_legal_actions();
  }
  if (std::optional<absl::Time> deadline = CurrentDeadline()) {
    *view.mutable_deadline() = ToTimestamp(*deadline);
  }
  if (last_event_) *view.mutable_last_event() = *last_event_;
  if (result_) *view.mutable_result() = *result_;
  mask.Trim(view);
}

void LiveMatch::FillPublicViewOf(const ViewMask& mask, v1::PublicView& view) const {
  FillPublicView(
      *state_->ViewFor(kSpectator), view,
      mask.Includes(v1::PublicView::kLayoutFieldNumber) ? LayoutForm::kWire : LayoutForm::kNone);
  view.set_match(MatchName(id()));
  view.set_game(game_->name());
  view.set_sequence(sequence_);
  if (end_state_ != v1::Match::ACTIVE) {
    view.set_terminal(true);
    view.set_current_seat(kNobody);
  }
  if (std::optional<absl::Time> deadline = CurrentDeadline()) {
    *view.mutable_deadline() = ToTimestamp(*deadline);
  }
  if (last_event_) *view.mutable_last_event() = *last_event_;
  if (result_) *view.mutable_result() = *result_;
  mask.Trim(view);
}

absl::Status LiveMatch::TakeFloodToken(int seat) {
  if (seat_flood_[seat].TryTake(absl::Now())) return absl::OkStatus();
  context_.metrics->flood_limited_seat.Increment();
  return absl::ResourceExhaustedError(
      absl::StrCat("seat ", seat, " sent more than ", context_.seat_flood.per_second,
                   " rejected actions, hellos or stream opens a second (bursts of ",
                   context_.seat_flood.burst, "); slow down"));
}

void LiveMatch::SendSeatView(int seat, std::shared_ptr<SeatSink> sink, ViewMask mask) {
  Post([this, seat, sink = std::move(sink), mask = std::move(mask)] {
    if (absl::Status flood = TakeFloodToken(seat); !flood.ok()) {
      return sink->Close(std::move(flood));
    }
    auto response = std::make_shared<v1::PlayResponse>();
    FillSeatViewOf(seat, mask, *response->mutable_view());
    sink->Send(std::move(response));
    context_.metrics->views_sent.Increment();
  });
}

bool LiveMatch::SendEarlierViews(int seat, SeatSink& sink, const ViewMask& mask) const {
  const Record record = builder_->Build(*state_);
  std::unique_ptr<State> before;
  int64_t sequence = -1;
  bool sending = true;
  const LayoutForm layout =
      mask.Includes(v1::SeatView::kLayoutFieldNumber) ? LayoutForm::kWire : LayoutForm::kNone;
  absl::StatusOr<std::unique_ptr<State>> replayed =
      Replay(record, DefaultRegistry(), [&](const State& state, const RecordedAction* action) {
        ++sequence;
        if (!sending || sequence >= sequence_) return;
        auto response = std::make_shared<v1::PlayResponse>();
        v1::SeatView& view = *response->mutable_view();
        FillSeatView(*state.ViewFor(seat), view, layout);
        view.set_match(MatchName(id()));
        view.set_game(game_->name());
        view.set_seat(seat);
        view.set_sequence(sequence);
        if (action != nullptr && before != nullptr) {
          v1::MatchEvent& event = *view.mutable_last_event();
          event.set_sequence(sequence);
          event.set_seat(action->seat);
          event.set_round(before->Round());
          event.set_reason(v1::MatchEvent::PLAYED);
          // What every seat saw of it: the public text (Moon's discard is face down).
          absl::StatusOr<Action> parsed = before->ParseAction(action->action);
          event.mutable_action()->set_text(parsed.ok() ? before->PublicActionToString(*parsed)
                                                       : std::string());
        }
        mask.Trim(view);
        context_.metrics->views_sent.Increment();
        sending = sink.Send(std::move(response));
        before = state.Clone();
      });
  if (!replayed.ok()) {
    // The record is the match's own: a failure here is a bug, not the client's.
    sink.Close(absl::InternalError(
        absl::StrCat("replaying ", MatchName(id()), ": ", replayed.status().message())));
    return false;
  }
  return sending;
}

void LiveMatch::AttachSeat(int seat, std::shared_ptr<SeatSink> sink, ViewMask mask,
                           bool replay_events) {
  Post([this, seat, sink = std::move(sink), mask = std::move(mask), replay_events] {
    if (absl::Status flood = TakeFloodToken(seat); !flood.ok()) {
      return sink->Close(std::move(flood));
    }
    if (replay_events && !SendEarlierViews(seat, *sink, mask)) return;
    auto response = std::make_shared<v1::PlayResponse>();
    FillSeatViewOf(seat, mask, *response->mutable_view());
    context_.metrics->views_sent.Increment();
    if (!sink->Send(std::move(response))) return;
    if (streams_closed_) {
      sink->Close(close_status_);
    } else if (end_state_ != v1::Match::ACTIVE) {
      sink->Close(absl::OkStatus());
    } else {
      std::vector<Subscriber<v1::PlayResponse>>& subscribers = seat_sinks_[seat];
      if (subscribers.size() >= kMaxStreamsPerSeat) {
        subscribers.front().sink->Close(absl::ResourceExhaustedError(
            absl::StrCat("seat ", seat, " opened more than ", kMaxStreamsPerSeat,
                         " streams; its oldest is closed")));
        subscribers.erase(subscribers.begin());
      }
      subscribers.push_back({sink, mask});
    }
  });
}

void LiveMatch::AttachWatcher(std::shared_ptr<WatchSink> sink, ViewMask mask) {
  Post([this, sink = std::move(sink), mask = std::move(mask)] {
    if (context_.max_watchers > 0 && std::ssize(watchers_) >= context_.max_watchers) {
      // Spectators who left are otherwise forgotten only at the next event's views.
      std::erase_if(watchers_, [](const auto& watcher) { return !watcher.sink->Alive(); });
    }
    if (context_.max_watchers > 0 && std::ssize(watchers_) >= context_.max_watchers) {
      context_.metrics->flood_limited_watcher.Increment();
      return sink->Close(absl::ResourceExhaustedError(
          absl::StrCat("match ", id(), " has ", context_.max_watchers,
                       " spectators, the most it takes; watch through a relay")));
    }
    auto response = std::make_shared<v1::WatchMatchResponse>();
    FillPublicViewOf(mask, *response->mutable_view());
    context_.metrics->views_sent.Increment();
    if (!sink->Send(std::move(response))) return;
    if (streams_closed_) {
      sink->Close(close_status_);
    } else if (end_state_ != v1::Match::ACTIVE) {
      sink->Close(absl::OkStatus());
    } else {
      watchers_.push_back({sink, mask});
    }
  });
}

template <class Response, class Fill>
void LiveMatch::SendToAll(std::vector<Subscriber<Response>>& subscribers, const Fill& fill) {
  // Every view of an event is built on an arena of its own, which the shared_ptr aliases: the
  // arena frees the message's allocations at once when the last stream has written it.
  // Streams almost always share one mask (usually there is one stream), so a short list of
  // the messages built so far beats a map.
  std::vector<std::pair<ViewMask, std::shared_ptr<const Response>>> built;
  std::erase_if(subscribers, [&](const Subscriber<Response>& subscriber) {
    auto it = std::find_if(built.begin(), built.end(),
                           [&](const auto& entry) { return entry.first == subscriber.mask; });
    if (it == built.end()) {
      auto arena = std::make_shared<google::protobuf::Arena>();
      auto* response = google::protobuf::Arena::CreateMessage<Response>(arena.get());
      fill(subscriber.mask, *response->mutable_view());
      built.emplace_back(subscriber.mask, std::shared_ptr<const Response>(arena, response));
      it = std::prev(built.end());
    }
    context_.metrics->views_sent.Increment();
    return !subscriber.sink->Send(it->second);
  });
}

void LiveMatch::Broadcast() {
  for (int seat = 0; seat < static_cast<int>(seat_sinks_.size()); ++seat) {
    SendToAll(seat_sinks_[seat],
              [&](const ViewMask& mask, v1::SeatView& view) { FillSeatViewOf(seat, mask, view); });
  }
  SendToAll(watchers_,
            [&](const ViewMask& mask, v1::PublicView& view) { FillPublicViewOf(mask, view); });
}

void LiveMatch::CloseAll(absl::Status status) {
  for (std::vector<Subscriber<v1::PlayResponse>>& subscribers : seat_sinks_) {
    for (const Subscriber<v1::PlayResponse>& subscriber : subscribers) {
      subscriber.sink->Close(status);
    }
    subscribers.clear();
  }
  for (const Subscriber<v1::WatchMatchResponse>& subscriber : watchers_) {
    subscriber.sink->Close(status);
  }
  watchers_.clear();
}

void LiveMatch::CloseStreams(absl::Status status) {
  Post([this, status = std::move(status)] {
    streams_closed_ = true;
    close_status_ = status;
    CloseAll(status);
  });
}

}  // namespace boneyard::execution
