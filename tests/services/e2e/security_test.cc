// Hidden information and access control, against the real service.
//
// Hidden tiles: matches with known seeds are played by RemotePlayers that keep every SeatView,
// with a WatchMatch spectator keeping every PublicView. Afterwards each record is replayed step
// by step with the engine, and every view is checked against the state it shows (the state
// after `sequence` actions): no tile hidden from its seat (from everyone, for the spectator)
// may appear anywhere in it, and its hand must be the engine's.
//
// Tokens and bad input: each RPC's documented code for missing, unknown and misused tokens, and
// for malformed, illegal, out-of-turn and stale actions, unknown matches and malformed names;
// none of them may change the match.
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/services/e2e/e2e_helpers.h"

namespace boneyard::e2e {
namespace {

// Hidden-tile check: matches per registered game, seeded kFirstSeed, kFirstSeed + 1, ...
constexpr int kLeakMatchesPerGame = 20;
constexpr uint64_t kFirstSeed = 7000;
constexpr absl::Duration kPlayTimeout = absl::Seconds(600);
// The seed of the matches the token and input tests use.
constexpr uint64_t kInputSeed = 99;
// A well-formed match name no match has.
constexpr char kUnknownMatch[] = "matches/0123456789abcdef0123456789abcdef";
constexpr char kUnknownToken[] = "tok_0000000000000000000000000000000000000000000";

class SecurityTest : public ServiceTest {};

// ----- The leak detector itself --------------------------------------------------------------

TEST(LeakDetectorTest, FindsTilesAsWholeTokensOnly) {
  absl::StatusOr<TileSet> set = TileSet::DoubleN(6);
  ASSERT_TRUE(set.ok());
  TileMask hidden;
  hidden.Set(set->IdOf(Tile(6, 4)));
  hidden.Set(set->IdOf(Tile(3, 1)));
  EXPECT_EQ(HiddenTilesIn("hand: \"6-4\"", *set, hidden, true).size(), 1u);
  EXPECT_EQ(HiddenTilesIn("line: \"4-6\"", *set, hidden, false).size(), 1u);
  EXPECT_TRUE(HiddenTilesIn("line: \"4-6\"", *set, hidden, true).empty());
  EXPECT_TRUE(HiddenTilesIn("take 1-3", *set, hidden, true).empty());  // positions, low first
  EXPECT_TRUE(HiddenTilesIn("16-4 6-45 6-4' 6-4\\'", *set, hidden, true).empty());
  EXPECT_TRUE(HiddenTilesIn("6-3 5-4", *set, hidden, false).empty());
  EXPECT_EQ(HiddenTilesIn("a:6-4,b", *set, hidden, true).size(), 1u);
}

TEST(LeakDetectorTest, FindsAHiddenTilePlantedInARealView) {
  for (const std::string& game : DefaultRegistry().Names()) {
    const Variant variant = VariantsFor(game).front();
    std::map<std::string, OptionValue> rules;
    for (const auto& [name, value] : variant.rules) {
      rules[name] = *OptionValueFromProto(value);
    }
    absl::StatusOr<std::shared_ptr<const Game>> made = DefaultRegistry().CreateGame(game, rules);
    ASSERT_TRUE(made.ok()) << made.status();
    absl::StatusOr<std::unique_ptr<State>> state = (*made)->NewMatch(kFirstSeed);
    ASSERT_TRUE(state.ok()) << state.status();
    const TileMask hidden = (*state)->HiddenFrom(0);
    ASSERT_FALSE(hidden.Empty()) << game << ": nothing is hidden at the start";
    int id = -1;
    hidden.ForEach([&id](int i) { id = id < 0 ? i : id; });
    const std::string tile = (*made)->tile_set().TileAt(id).ToString();
    v1::SeatView view;
    view.set_seat(0);
    EXPECT_TRUE(LeakedTiles(view, **state, 0).empty());
    view.add_legal_actions()->set_text(absl::StrCat(tile, " left"));
    EXPECT_EQ(LeakedTiles(view, **state, 0).size(), 1u) << game << " " << tile;
    v1::PublicView spectator;
    (*spectator.mutable_layout()->mutable_fields())["line"].set_string_value(tile);
    EXPECT_FALSE(LeakedTiles(spectator, **state, kSpectator).empty()) << game << " " << tile;
  }
}

// ----- No view shows a hidden tile ------------------------------------------------------------

TEST_F(SecurityTest, NoSeatOrSpectatorViewEverShowsAHiddenTile) {
  struct Played {
    std::string label;
    uint64_t seed;
    std::unique_ptr<Spectator> spectator;
  };
  std::vector<MatchRun> runs;
  std::vector<Played> played;
  const std::vector<std::string> games = DefaultRegistry().Names();
  runs.reserve(games.size() * kLeakMatchesPerGame);
  PlayerSetup setup;
  setup.keep_views = true;
  uint64_t seed = kFirstSeed;
  for (const std::string& game : games) {
    const std::vector<Variant> variants = VariantsFor(game);
    for (int i = 0; i < kLeakMatchesPerGame; ++i, ++seed) {
      const Variant& variant = variants[static_cast<size_t>(i) % variants.size()];
      v1::CreateMatchRequest request = MatchRequest(game, variant.rules, variant.seats);
      request.set_seed(seed);
      absl::StatusOr<v1::CreateMatchResponse> created =
          CreateMatch(stub(i), operator_token(), request);
      ASSERT_TRUE(created.ok()) << variant.label << ": " << created.status();
      const int index = static_cast<int>(runs.size());
      runs.push_back(MatchRun{*created, {}, {}, {}});
      AddPlayers(runs.back(), index, stubs(), setup);
      played.push_back(Played{absl::StrCat(variant.label, " seed ", seed), seed,
                              std::make_unique<Spectator>(stub(index + 1), runs.back().name())});
      // The spectator is attached (it has the view at sequence 0) before anyone plays.
      ASSERT_TRUE(played.back().spectator->WaitForViews(1, kPlayTimeout));
    }
  }
  StartAll(runs);
  const std::vector<std::vector<absl::Status>> statuses = WaitAll(runs, kPlayTimeout);

  int64_t views_checked = 0;
  int64_t views_with_hidden_tiles = 0;
  int64_t hidden_tiles_checked = 0;
  int64_t round_ends = 0;
  for (size_t m = 0; m < runs.size(); ++m) {
    MatchRun& run = runs[m];
    SCOPED_TRACE(absl::StrCat(run.name(), " (", played[m].label, ")"));
    const std::optional<absl::Status> watched = played[m].spectator->WaitDone(kPlayTimeout);
    ASSERT_TRUE(watched.has_value()) << "the spectator's stream did not end";
    EXPECT_TRUE(watched->ok()) << *watched;

    absl::StatusOr<v1::Record> record = GetRecord(stub(), run.name());
    ASSERT_TRUE(record.ok()) << record.status();
    ASSERT_TRUE(record->has_seed());
    EXPECT_EQ(record->seed(), played[m].seed);
    absl::StatusOr<std::vector<std::unique_ptr<State>>> states = StatesAfterEachAction(*record);
    ASSERT_TRUE(states.ok()) << states.status();
    const int64_t last = static_cast<int64_t>(states->size()) - 1;
    const std::vector<v1::Record::RecordedAction> actions = FlattenActions(*record);
    ASSERT_TRUE(states->back()->IsTerminal());

    auto check = [&](const auto& view, int seat, const std::string& who) {
      SCOPED_TRACE(absl::StrCat(who, ", view at sequence ", view.sequence()));
      ASSERT_GE(view.sequence(), 0);
      ASSERT_LE(view.sequence(), last);
      const State& state = *(*states)[static_cast<size_t>(view.sequence())];
      const std::vector<std::string> leaks = LeakedTiles(view, state, seat);
      if (EventEndedARound(view)) {
        // The action that ended the round, judged against the record: the action played.
        ASSERT_GE(view.sequence(), 1);
        EXPECT_EQ(view.last_event().action().text(),
                  actions[static_cast<size_t>(view.sequence() - 1)].action());
        EXPECT_EQ(view.last_event().round() + 1, view.round());
        ++round_ends;
      }
      EXPECT_TRUE(leaks.empty()) << "hidden tiles shown: " << absl::StrJoin(leaks, "; ")
                                 << "\nthe view:\n" << Text(view);
      const int hidden = state.HiddenFrom(seat).Count();
      hidden_tiles_checked += hidden;
      views_with_hidden_tiles += hidden > 0 ? 1 : 0;
      ++views_checked;
    };

    for (size_t p = 0; p < run.players.size(); ++p) {
      const int seat = run.seats[p];
      EXPECT_TRUE(statuses[m][p].ok()) << statuses[m][p];
      const std::vector<v1::SeatView> views = run.logs[p]->views();
      ASSERT_FALSE(views.empty());
      // One view for the hello (the match as it was then), then one after every event.
      for (size_t i = 0; i < views.size(); ++i) {
        EXPECT_EQ(views[i].sequence(), views[0].sequence() + static_cast<int64_t>(i))
            << "seat " << seat << " view " << i;
      }
      EXPECT_EQ(views.back().sequence(), last);
      EXPECT_TRUE(views.back().terminal());
      for (const v1::SeatView& view : views) {
        check(view, seat, absl::StrCat("seat ", seat));
        EXPECT_EQ(view.seat(), seat);
        const State& state = *(*states)[static_cast<size_t>(view.sequence())];
        const std::unique_ptr<View> engine = state.ViewFor(seat);
        EXPECT_EQ(std::vector<std::string>(view.hand().begin(), view.hand().end()),
                  TileStrings(engine->hand))
            << "seat " << seat << " at sequence " << view.sequence();
        if (!view.terminal() && view.current_seat() == seat) {
          std::vector<std::string> legal;
          for (const v1::Action& action : view.legal_actions()) legal.push_back(action.text());
          EXPECT_EQ(legal, state.LegalActionStrings()) << "at sequence " << view.sequence();
        } else {
          EXPECT_EQ(view.legal_actions_size(), 0) << "at sequence " << view.sequence();
        }
      }
    }

    const std::vector<v1::PublicView> public_views = played[m].spectator->views();
    ASSERT_FALSE(public_views.empty());
    for (size_t i = 0; i < public_views.size(); ++i) {
      EXPECT_EQ(public_views[i].sequence(), static_cast<int64_t>(i)) << "spectator view " << i;
      check(public_views[i], kSpectator, "spectator");
    }
    EXPECT_TRUE(public_views.back().terminal());
    EXPECT_EQ(public_views.back().sequence(), last);
  }
  // The check had something to find.
  EXPECT_GT(views_checked, 1000);
  EXPECT_GT(views_with_hidden_tiles, views_checked / 2);
  EXPECT_GT(hidden_tiles_checked, views_checked);
  EXPECT_GT(round_ends, 0) << "no view followed the end of a round";
}

// ----- Tokens ---------------------------------------------------------------------------------

// A 2-player Muggins match to 100 with a known seed, and its seat tokens by seat.
struct TwoSeats {
  std::string name;
  std::string token[2];
};

TwoSeats NewTwoSeatMatch(Stub& stub, const std::string& operator_token, uint64_t seed) {
  v1::CreateMatchRequest request = MatchRequest("muggins", {{"target", IntRule(100)}}, 2);
  request.set_seed(seed);
  absl::StatusOr<v1::CreateMatchResponse> created = CreateMatch(stub, operator_token, request);
  EXPECT_TRUE(created.ok()) << created.status();
  TwoSeats out;
  if (!created.ok()) return out;
  out.name = created->match().name();
  for (const v1::SeatToken& token : created->seat_tokens()) out.token[token.seat()] = token.token();
  return out;
}

v1::PlayRequest Hello(const std::string& name) {
  v1::PlayRequest hello;
  hello.set_name(name);
  return hello;
}

absl::StatusCode PlayError(Stub& stub, absl::string_view token, const v1::PlayRequest& first,
                           std::string* message = nullptr) {
  const StreamResult result = PlayOnce(stub, token, first, 2);
  if (message != nullptr) *message = std::string(result.status.message());
  return result.responses.empty() ? result.status.code() : absl::StatusCode::kOk;
}

absl::StatusCode WatchError(Stub& stub, const std::string& name) {
  Spectator spectator(stub, name);
  const std::optional<absl::Status> status = spectator.WaitDone(kRpcDeadline);
  if (!status.has_value()) return absl::StatusCode::kDeadlineExceeded;
  return spectator.views().empty() ? status->code() : absl::StatusCode::kOk;
}

TEST_F(SecurityTest, MissingUnknownAndMisusedTokensAreRefused) {
  const TwoSeats a = NewTwoSeatMatch(stub(), operator_token(), kInputSeed);
  const TwoSeats b = NewTwoSeatMatch(stub(), operator_token(), kInputSeed + 1);
  ASSERT_FALSE(a.name.empty());
  ASSERT_FALSE(b.name.empty());
  absl::StatusOr<std::vector<v1::Match>> before = ListAllMatches(stub());
  ASSERT_TRUE(before.ok()) << before.status();
  absl::StatusOr<v1::SeatView> view = HelloView(stub(), a.token[0], a.name);
  ASSERT_TRUE(view.ok()) << view.status();
  const int mover = view->current_seat();
  ASSERT_TRUE(mover == 0 || mover == 1);
  absl::StatusOr<v1::SeatView> mover_view = HelloView(stub(), a.token[mover], a.name);
  ASSERT_TRUE(mover_view.ok()) << mover_view.status();
  ASSERT_GT(mover_view->legal_actions_size(), 0);
  const std::string legal = mover_view->legal_actions(0).text();
  const v1::CreateMatchRequest create = MatchRequest("muggins", {{"target", IntRule(100)}}, 2);

  // CreateMatch needs the operator token.
  EXPECT_EQ(CreateMatch(stub(), "", create).status().code(), absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(CreateMatch(stub(), kUnknownToken, create).status().code(),
            absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(CreateMatch(stub(), a.token[0], create).status().code(),
            absl::StatusCode::kPermissionDenied);
  // Tokens come first: a bad request without a token is still UNAUTHENTICATED.
  EXPECT_EQ(CreateMatch(stub(), "", MatchRequest("no-such-game", {}, 2)).status().code(),
            absl::StatusCode::kUnauthenticated);

  // AbortMatch needs the operator token.
  EXPECT_EQ(AbortMatch(stub(), "", a.name, "x").status().code(),
            absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(AbortMatch(stub(), kUnknownToken, a.name, "x").status().code(),
            absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(AbortMatch(stub(), a.token[0], a.name, "x").status().code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(AbortMatch(stub(), a.token[0], a.name, "").status().code(),
            absl::StatusCode::kPermissionDenied);

  // SubmitAction needs a seat token of that match.
  EXPECT_EQ(SubmitAction(stub(), "", a.name, legal, 0).status().code(),
            absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(SubmitAction(stub(), kUnknownToken, a.name, legal, 0).status().code(),
            absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(SubmitAction(stub(), b.token[mover], a.name, legal, 0).status().code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(SubmitAction(stub(), operator_token(), a.name, legal, 0).status().code(),
            absl::StatusCode::kPermissionDenied);
  // Tokens come first: an unknown token with a malformed name or action is UNAUTHENTICATED.
  EXPECT_EQ(SubmitAction(stub(), kUnknownToken, "not-a-name", legal, 0).status().code(),
            absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(SubmitAction(stub(), kUnknownToken, a.name, "", 0).status().code(),
            absl::StatusCode::kUnauthenticated);

  // Play needs a seat token of the match named.
  std::string message;
  EXPECT_EQ(PlayError(stub(), "", Hello(a.name), &message), absl::StatusCode::kUnauthenticated)
      << message;
  EXPECT_EQ(PlayError(stub(), kUnknownToken, Hello(a.name), &message),
            absl::StatusCode::kUnauthenticated)
      << message;
  EXPECT_EQ(PlayError(stub(), b.token[0], Hello(a.name), &message),
            absl::StatusCode::kPermissionDenied)
      << message;
  EXPECT_EQ(PlayError(stub(), operator_token(), Hello(a.name), &message),
            absl::StatusCode::kPermissionDenied)
      << message;
  v1::PlayRequest foreign_action = Hello(a.name);
  foreign_action.mutable_action()->set_text(legal);
  EXPECT_EQ(PlayError(stub(), b.token[mover], foreign_action, &message),
            absl::StatusCode::kPermissionDenied)
      << message;

  // Nothing was created, played or aborted.
  absl::StatusOr<std::vector<v1::Match>> after = ListAllMatches(stub());
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(after->size(), before->size());
  for (const std::string& name : {a.name, b.name}) {
    absl::StatusOr<v1::Match> match = GetMatch(stub(), name);
    ASSERT_TRUE(match.ok()) << match.status();
    EXPECT_EQ(match->state(), v1::Match::ACTIVE) << name;
    EXPECT_EQ(match->sequence(), 0) << name;
  }
}

// ----- Bad input changes nothing --------------------------------------------------------------

// A tile of the set that is neither in `view`'s hand nor on its table (Muggins' line).
std::string TileNotInHandNorLine(const v1::SeatView& view) {
  std::set<Tile> seen;
  for (const std::string& text : view.hand()) seen.insert(*Tile::Parse(text));
  const auto& fields = view.layout().fields();
  if (auto line = fields.find("line"); line != fields.end()) {
    for (const auto& value : line->second.list_value().values()) {
      if (absl::StatusOr<Tile> tile = Tile::Parse(value.string_value()); tile.ok()) {
        seen.insert(*tile);
      }
    }
  }
  absl::StatusOr<TileSet> set = TileSet::DoubleN(6);
  for (const Tile& tile : set->AllTiles()) {
    if (!seen.contains(tile)) return tile.ToString();
  }
  return "";
}

class BadInputTest : public SecurityTest {
 protected:
  // A Muggins match one action in (so a stale sequence exists), with both seats' tokens and
  // which seat is to move.
  void SetUp() override {
    SecurityTest::SetUp();
    if (HasFatalFailure()) return;
    match_ = NewTwoSeatMatch(stub(), operator_token(), kInputSeed);
    ASSERT_FALSE(match_.name.empty());
    absl::StatusOr<v1::SeatView> first = HelloView(stub(), match_.token[0], match_.name);
    ASSERT_TRUE(first.ok()) << first.status();
    const int opener = first->current_seat();
    absl::StatusOr<v1::SeatView> opener_view = HelloView(stub(), match_.token[opener], match_.name);
    ASSERT_TRUE(opener_view.ok()) << opener_view.status();
    ASSERT_GT(opener_view->legal_actions_size(), 0);
    absl::StatusOr<v1::SeatView> played = SubmitAction(
        stub(), match_.token[opener], match_.name, opener_view->legal_actions(0).text(), 0);
    ASSERT_TRUE(played.ok()) << played.status();
    ASSERT_EQ(played->sequence(), 1);
    ASSERT_EQ(played->last_event().seat(), opener);
    mover_ = played->current_seat();
    ASSERT_TRUE(mover_ == 0 || mover_ == 1);
    ASSERT_FALSE(played->terminal());
    Snapshot(before_);
    ASSERT_GT(before_.views[mover_].legal_actions_size(), 0);
    legal_ = before_.views[mover_].legal_actions(0).text();
    foreign_tile_ = TileNotInHandNorLine(before_.views[mover_]);
    ASSERT_FALSE(foreign_tile_.empty());
    ASSERT_GT(before_.views[1 - mover_].hand_size(), 0);
    waiting_tile_ = before_.views[1 - mover_].hand(0);
  }

  struct Seen {
    v1::Match match;
    v1::SeatView views[2];
  };

  void Snapshot(Seen& seen) {
    absl::StatusOr<v1::Match> match = GetMatch(stub(), match_.name);
    ASSERT_TRUE(match.ok()) << match.status();
    seen.match = *match;
    for (int seat = 0; seat < 2; ++seat) {
      absl::StatusOr<v1::SeatView> view = HelloView(stub(), match_.token[seat], match_.name);
      ASSERT_TRUE(view.ok()) << view.status();
      seen.views[seat] = *view;
    }
  }

  void ExpectUnchanged() {
    Seen after;
    Snapshot(after);
    EXPECT_EQ(after.match.sequence(), before_.match.sequence());
    EXPECT_TRUE(SameMessage(after.match, before_.match))
        << "before:\n" << Text(before_.match) << "after:\n" << Text(after.match);
    for (int seat = 0; seat < 2; ++seat) {
      EXPECT_TRUE(SameMessage(after.views[seat], before_.views[seat]))
          << "seat " << seat << " before:\n" << Text(before_.views[seat]) << "after:\n"
          << Text(after.views[seat]);
    }
  }

  const std::string& mover_token() const { return match_.token[mover_]; }
  const std::string& waiting_token() const { return match_.token[1 - mover_]; }

  TwoSeats match_;
  int mover_ = -1;
  Seen before_;
  std::string legal_;         // a legal action of the mover
  std::string foreign_tile_;  // a tile the mover does not hold
  std::string waiting_tile_;  // a tile the waiting seat holds
};

TEST_F(BadInputTest, SubmitActionRefusesBadInputWithItsCodeAndChangesNothing) {
  absl::StatusOr<v1::SeatView> result = SubmitAction(stub(), mover_token(), match_.name, "banana split", 1);
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument) << result.status();
  EXPECT_FALSE(result.status().message().empty());

  result = SubmitAction(stub(), mover_token(), match_.name, "", 1);
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument) << result.status();

  result = SubmitAction(stub(), mover_token(), match_.name, foreign_tile_ + " left", 1);
  EXPECT_EQ(result.status().code(), absl::StatusCode::kFailedPrecondition) << result.status();
  EXPECT_TRUE(absl::StrContains(result.status().message(), "not in your hand")) << result.status();

  result = SubmitAction(stub(), waiting_token(), match_.name, waiting_tile_ + " left", 1);
  EXPECT_EQ(result.status().code(), absl::StatusCode::kFailedPrecondition) << result.status();
  EXPECT_TRUE(absl::StrContains(result.status().message(), "turn")) << result.status();

  result = SubmitAction(stub(), mover_token(), match_.name, legal_, 0);
  EXPECT_EQ(result.status().code(), absl::StatusCode::kAborted) << result.status();
  result = SubmitAction(stub(), mover_token(), match_.name, legal_, 5);
  EXPECT_EQ(result.status().code(), absl::StatusCode::kAborted) << result.status();

  result = SubmitAction(stub(), mover_token(), kUnknownMatch, legal_, 1);
  EXPECT_EQ(result.status().code(), absl::StatusCode::kNotFound) << result.status();
  result = SubmitAction(stub(), mover_token(), "games/x", legal_, 1);
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument) << result.status();
  result = SubmitAction(stub(), mover_token(), "matches/NOT AN ID!", legal_, 1);
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument) << result.status();

  ExpectUnchanged();

  // And the match still plays: the mover's legal action at the current sequence.
  result = SubmitAction(stub(), mover_token(), match_.name, legal_, 1);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->sequence(), 2);
  EXPECT_EQ(result->last_event().seat(), mover_);
}

TEST_F(BadInputTest, UnknownMatchesAndMalformedNamesOnEveryRpc) {
  EXPECT_EQ(GetMatch(stub(), kUnknownMatch).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(GetRecord(stub(), kUnknownMatch).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(AbortMatch(stub(), operator_token(), kUnknownMatch, "why").status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(WatchError(stub(), kUnknownMatch), absl::StatusCode::kNotFound);
  EXPECT_EQ(PlayError(stub(), mover_token(), Hello(kUnknownMatch)), absl::StatusCode::kNotFound);

  for (const std::string bad : {"", "games/1", "matches/", "matches/ABC!", "matches/a/b"}) {
    SCOPED_TRACE(absl::StrCat("name \"", bad, "\""));
    EXPECT_EQ(GetMatch(stub(), bad).status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(AbortMatch(stub(), operator_token(), bad, "why").status().code(),
              absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(WatchError(stub(), bad), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(GetRecordNamed(stub(), bad + "/record").status().code(),
              absl::StatusCode::kInvalidArgument);
    if (!bad.empty()) {
      EXPECT_EQ(PlayError(stub(), mover_token(), Hello(bad)), absl::StatusCode::kInvalidArgument);
    }
  }
  // A record's name is "matches/{id}/record".
  EXPECT_EQ(GetRecordNamed(stub(), match_.name).status().code(),
            absl::StatusCode::kInvalidArgument);
  // The first Play message must name the match.
  EXPECT_EQ(PlayError(stub(), mover_token(), v1::PlayRequest()),
            absl::StatusCode::kInvalidArgument);
  // ListMatches: a negative page size, a page token the service did not issue.
  {
    grpc::ClientContext context;
    Prepare(context, "");
    v1::ListMatchesRequest request;
    request.set_page_size(-1);
    v1::ListMatchesResponse response;
    EXPECT_EQ(stub().ListMatches(&context, request, &response).error_code(),
              grpc::StatusCode::INVALID_ARGUMENT);
  }
  {
    grpc::ClientContext context;
    Prepare(context, "");
    v1::ListMatchesRequest request;
    request.set_page_token("not-a-token");
    v1::ListMatchesResponse response;
    EXPECT_EQ(stub().ListMatches(&context, request, &response).error_code(),
              grpc::StatusCode::INVALID_ARGUMENT);
  }
  ExpectUnchanged();
}

TEST_F(BadInputTest, OnAPlayStreamBadActionsAreRejectedInBandAndTheStreamStaysUsable) {
  PlayStream mover(stub(), mover_token());
  ASSERT_TRUE(mover.Hello(match_.name));
  std::optional<v1::PlayResponse> response = mover.Next();
  ASSERT_TRUE(response.has_value() && response->has_view());
  EXPECT_TRUE(SameMessage(response->view(), before_.views[mover_]));

  struct Bad {
    std::string text;
    int64_t seen_sequence;
    int code;
    std::string message_part;
  };
  const std::vector<Bad> bad = {
      {"banana split", 1, 3, ""},
      {foreign_tile_ + " left", 1, 9, "not in your hand"},
      {legal_, 0, 10, "stale"},
  };
  for (const Bad& b : bad) {
    SCOPED_TRACE(absl::StrCat("'", b.text, "' at ", b.seen_sequence));
    ASSERT_TRUE(mover.Act(match_.name, b.text, b.seen_sequence));
    response = mover.Next();
    ASSERT_TRUE(response.has_value()) << "the stream ended";
    ASSERT_TRUE(response->has_rejected()) << Text(*response);
    EXPECT_EQ(response->rejected().code(), b.code) << response->rejected().message();
    EXPECT_EQ(response->rejected().action().text(), b.text);
    EXPECT_EQ(response->rejected().seen_sequence(), b.seen_sequence);
    EXPECT_FALSE(response->rejected().message().empty());
    EXPECT_TRUE(absl::StrContains(response->rejected().message(), b.message_part))
        << response->rejected().message();
  }

  PlayStream waiting(stub(), waiting_token());
  ASSERT_TRUE(waiting.Hello(match_.name));
  response = waiting.Next();
  ASSERT_TRUE(response.has_value() && response->has_view());
  ASSERT_TRUE(waiting.Act(match_.name, waiting_tile_ + " left", 1));
  response = waiting.Next();
  ASSERT_TRUE(response.has_value());
  ASSERT_TRUE(response->has_rejected()) << Text(*response);
  EXPECT_EQ(response->rejected().code(), 9);
  EXPECT_TRUE(absl::StrContains(response->rejected().message(), "turn"))
      << response->rejected().message();

  ExpectUnchanged();

  // The same stream still plays.
  ASSERT_TRUE(mover.Act(match_.name, legal_, 1));
  response = mover.Next();
  ASSERT_TRUE(response.has_value());
  ASSERT_TRUE(response->has_view()) << Text(*response);
  EXPECT_EQ(response->view().sequence(), 2);
  EXPECT_EQ(response->view().last_event().seat(), mover_);
  EXPECT_EQ(response->view().last_event().action().text(), legal_);
  EXPECT_EQ(response->view().last_event().reason(), v1::MatchEvent::PLAYED);
  // The other seat's stream sees the event too.
  response = waiting.Next();
  ASSERT_TRUE(response.has_value() && response->has_view());
  EXPECT_EQ(response->view().sequence(), 2);
  // A hello on a used stream answers with the current view.
  ASSERT_TRUE(mover.Hello(match_.name));
  response = mover.Next();
  ASSERT_TRUE(response.has_value() && response->has_view());
  EXPECT_EQ(response->view().sequence(), 2);
}

}  // namespace
}  // namespace boneyard::e2e
