// CredentialGuard (services/web/credential_guard.h): a rotated or revoked player token ends the
// sessions and streams opened with it, and an outage of matchmaking signs nobody out.
#include "services/web/credential_guard.h"

#include <atomic>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace boneyard::web {
namespace {

using ::testing::HasSubstr;

// What matchmaking would answer: tokens in `valid` sign in, `away` makes every answer
// UNAVAILABLE, anything else is UNAUTHENTICATED.
class FakeMatchmaking {
 public:
  absl::Status Check(const std::string& token) {
    ++calls_;
    absl::MutexLock lock(&mu_);
    if (away_) return absl::UnavailableError("matchmaking is away");
    return valid_.contains(token) ? absl::OkStatus() : absl::UnauthenticatedError("no such token");
  }
  void Set(std::set<std::string> valid, bool away = false) {
    absl::MutexLock lock(&mu_);
    valid_ = std::move(valid);
    away_ = away;
  }
  int calls() const { return calls_; }

 private:
  std::atomic<int> calls_{0};
  absl::Mutex mu_;
  std::set<std::string> valid_ ABSL_GUARDED_BY(mu_);
  bool away_ ABSL_GUARDED_BY(mu_) = false;
};

class RecordingSink : public EventSink {
 public:
  void Send(absl::string_view event, absl::string_view data, Clock::time_point) override {
    absl::MutexLock lock(&mu_);
    if (!finished_) events_.push_back(absl::StrCat(event, " ", data));
  }
  void Finish() override {
    absl::MutexLock lock(&mu_);
    finished_ = true;
  }
  void OnClose(std::function<void()>) override {}
  bool finished() {
    absl::MutexLock lock(&mu_);
    return finished_;
  }
  std::vector<std::string> events() {
    absl::MutexLock lock(&mu_);
    return events_;
  }
  // Waits up to `limit` for the stream to end.
  bool FinishedWithin(absl::Duration limit) {
    absl::MutexLock lock(&mu_);
    return mu_.AwaitWithTimeout(absl::Condition(&finished_), limit);
  }

 private:
  absl::Mutex mu_;
  bool finished_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::string> events_ ABSL_GUARDED_BY(mu_);
};

CredentialGuard::Checker CheckerOf(FakeMatchmaking& matchmaking) {
  return [&matchmaking](const std::string& token) { return matchmaking.Check(token); };
}

TEST(CredentialGuardTest, ARevokedTokenIsRefusedAtTheNextCheckAndStaysRefused) {
  FakeMatchmaking matchmaking;
  matchmaking.Set({"ann-1"});
  CredentialGuard guard(CheckerOf(matchmaking), absl::Milliseconds(50));
  EXPECT_TRUE(guard.Check("ann-1").ok());
  matchmaking.Set({"ann-2"});  // rotated
  absl::SleepFor(absl::Milliseconds(60));
  const absl::Status refused = guard.Check("ann-1");
  EXPECT_TRUE(absl::IsUnauthenticated(refused)) << refused;
  EXPECT_THAT(refused.message(), HasSubstr("rotated or revoked"));
  EXPECT_TRUE(guard.Check("ann-2").ok());
  // Refused for good, even were matchmaking to answer otherwise (tokens never come back).
  matchmaking.Set({"ann-1", "ann-2"});
  absl::SleepFor(absl::Milliseconds(60));
  EXPECT_TRUE(absl::IsUnauthenticated(guard.Check("ann-1")));
}

TEST(CredentialGuardTest, AnswersAreReusedWhileFreshSoRequestsDoNotEachCallMatchmaking) {
  FakeMatchmaking matchmaking;
  matchmaking.Set({"bob"});
  CredentialGuard guard(CheckerOf(matchmaking), absl::Seconds(30));
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(guard.Check("bob").ok());
  EXPECT_EQ(matchmaking.calls(), 1);
}

TEST(CredentialGuardTest, AnOutageOfMatchmakingSignsNobodyOutButKeepsARefusal) {
  FakeMatchmaking matchmaking;
  matchmaking.Set({"cat"});
  CredentialGuard guard(CheckerOf(matchmaking), absl::Milliseconds(20));
  ASSERT_TRUE(guard.Check("cat").ok());
  EXPECT_TRUE(absl::IsUnauthenticated(guard.Check("dog")));
  matchmaking.Set({}, /*away=*/true);
  absl::SleepFor(absl::Milliseconds(30));
  EXPECT_TRUE(guard.Check("cat").ok());
  EXPECT_TRUE(guard.Check("never-seen").ok());  // cannot tell: let it through
  EXPECT_TRUE(absl::IsUnauthenticated(guard.Check("dog")));
}

TEST(CredentialGuardTest, TheStreamsOfARevokedTokenEndWithAnErrorAndTheOthersGoOn) {
  FakeMatchmaking matchmaking;
  matchmaking.Set({"eve", "fay"});
  CredentialGuard guard(CheckerOf(matchmaking), absl::Milliseconds(50));
  auto eve_play = std::make_shared<RecordingSink>();
  auto eve_ticket = std::make_shared<RecordingSink>();
  auto fay_play = std::make_shared<RecordingSink>();
  guard.Track("eve", eve_play);
  guard.Track("eve", eve_ticket);
  guard.Track("fay", fay_play);
  EXPECT_EQ(guard.tracked(), 2);
  matchmaking.Set({"fay"});  // eve's token rotated: nobody calls in
  ASSERT_TRUE(eve_play->FinishedWithin(absl::Seconds(10)));
  ASSERT_TRUE(eve_ticket->FinishedWithin(absl::Seconds(10)));
  ASSERT_EQ(eve_play->events().size(), 1u);
  EXPECT_THAT(eve_play->events()[0], HasSubstr("error "));
  EXPECT_THAT(eve_play->events()[0], HasSubstr("UNAUTHENTICATED"));
  absl::SleepFor(absl::Milliseconds(150));
  EXPECT_FALSE(fay_play->finished());
  // A stream started after the refusal ends at once.
  auto late = std::make_shared<RecordingSink>();
  guard.Track("eve", late);
  EXPECT_TRUE(late->finished());
}

TEST(CredentialGuardTest, StreamsThatEndedAreForgotten) {
  FakeMatchmaking matchmaking;
  matchmaking.Set({"gus"});
  CredentialGuard guard(CheckerOf(matchmaking), absl::Milliseconds(20));
  {
    auto sink = std::make_shared<RecordingSink>();
    guard.Track("gus", sink);
    EXPECT_EQ(guard.tracked(), 1);
  }
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  while (guard.tracked() != 0 && absl::Now() < deadline) absl::SleepFor(absl::Milliseconds(10));
  EXPECT_EQ(guard.tracked(), 0);
}

}  // namespace
}  // namespace boneyard::web
