#include "services/ratings/result_batcher.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "services/common/internal_error.h"
#include "services/common/logging.h"
#include "spdlog/spdlog.h"

namespace boneyard::ratings {
namespace {

constexpr absl::Duration kFirstBackoff = absl::Milliseconds(5);
constexpr absl::Duration kMaxBackoff = absl::Milliseconds(500);

// Worth another attempt: the database was unreachable or busy, the commit's outcome is
// unknown (a retry sees whether it happened), or another process wrote a match id meanwhile
// (a retry answers it as a repeat or a conflict).
bool Retryable(absl::StatusCode code) {
  return code == absl::StatusCode::kUnavailable || code == absl::StatusCode::kAborted ||
         code == absl::StatusCode::kDeadlineExceeded || code == absl::StatusCode::kUnknown ||
         code == absl::StatusCode::kAlreadyExists;
}

// Errors of a result's own data (a row the database cannot store): permanent, so the batch is
// split to find the offender, and it alone is answered with its error. Not
// IsPermanentDataError: ALREADY_EXISTS is transient here (another process recorded the match
// meanwhile, and the retry finds its idempotency record).
bool IsDataError(absl::StatusCode code) {
  return code == absl::StatusCode::kInvalidArgument ||
         code == absl::StatusCode::kFailedPrecondition || code == absl::StatusCode::kOutOfRange;
}

}  // namespace

ResultBatcher::ResultBatcher(PgRatingStore& store, Options options)
    : store_(store), options_(std::move(options)) {
  absl::MutexLock lock(&mu_);
  writer_.emplace([this] { WriterLoop(); });
}

ResultBatcher::~ResultBatcher() { Stop(); }

void ResultBatcher::Record(ValidResult result, Done done) {
  {
    absl::MutexLock lock(&mu_);
    if (!stopping_) {
      queue_.push_back(Item{std::move(result), std::move(done), nullptr});
      work_ready_.Signal();
      return;
    }
  }
  done(absl::UnavailableError("the ratings service is shutting down; retry with backoff"));
}

void ResultBatcher::RunExclusive(Task task) {
  {
    absl::MutexLock lock(&mu_);
    if (!stopping_) {
      queue_.push_back(Item{std::nullopt, nullptr, std::move(task)});
      work_ready_.Signal();
      return;
    }
  }
  task(absl::UnavailableError("the ratings service is shutting down; retry with backoff"));
}

void ResultBatcher::Stop() {
  std::optional<std::thread> writer;
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
    work_ready_.Signal();
    writer.swap(writer_);
  }
  if (writer.has_value()) writer->join();
}

void ResultBatcher::WriterLoop() {
  const size_t max_batch = static_cast<size_t>(std::max(1, options_.max_batch));
  for (;;) {
    std::vector<Item> items;
    {
      absl::MutexLock lock(&mu_);
      while (queue_.empty() && !stopping_) work_ready_.Wait(&mu_);
      if (queue_.empty()) return;  // stopping, and everything done
      if (!queue_.front().result.has_value()) {
        items.push_back(std::move(queue_.front()));
        queue_.pop_front();
      } else {
        while (!queue_.empty() && queue_.front().result.has_value() && items.size() < max_batch) {
          items.push_back(std::move(queue_.front()));
          queue_.pop_front();
        }
      }
    }
    if (items.front().task) {
      items.front().task(absl::OkStatus());
      continue;
    }
    std::vector<const ValidResult*> batch;
    batch.reserve(items.size());
    for (const Item& item : items) batch.push_back(&*item.result);
    std::vector<RecordOutcome> outcomes = Commit(batch);
    for (size_t i = 0; i < items.size(); ++i) items[i].done(std::move(outcomes[i]));
  }
}

std::vector<RecordOutcome> ResultBatcher::Commit(const std::vector<const ValidResult*>& batch) {
  absl::StatusOr<std::vector<RecordOutcome>> outcomes = CommitWithRetry(batch);
  if (outcomes.ok()) return *std::move(outcomes);
  const absl::Status& status = outcomes.status();
  if (IsDataError(status.code())) {
    if (batch.size() > 1) {
      // One result's data fails the batch: each half on its own, in arrival order, so only the
      // offender fails and the others are stored.
      const auto middle = batch.begin() + static_cast<std::ptrdiff_t>(batch.size() / 2);
      using Batch = std::vector<const ValidResult*>;
      std::vector<RecordOutcome> first = Commit(Batch(batch.begin(), middle));
      std::vector<RecordOutcome> second = Commit(Batch(middle, batch.end()));
      first.insert(first.end(), std::make_move_iterator(second.begin()),
                   std::make_move_iterator(second.end()));
      return first;
    }
    // Permanent: the same result would fail again. The database's words stay in the log.
    return {MarkInternal(status)};
  }
  return std::vector<RecordOutcome>(
      batch.size(), MarkInternal(absl::UnavailableError(absl::StrCat(
                        "the result could not be stored (", status.ToString(),
                        "); nothing was changed, retry with backoff"))));
}

absl::StatusOr<std::vector<RecordOutcome>> ResultBatcher::CommitWithRetry(
    const std::vector<const ValidResult*>& batch) {
  const absl::Time give_up = absl::Now() + options_.retry_for;
  absl::Duration backoff = kFirstBackoff;
  for (int attempt = 1;; ++attempt) {
    const absl::Time start = absl::Now();
    absl::StatusOr<std::vector<RecordOutcome>> outcomes = store_.RecordBatch(batch);
    if (options_.on_commit) {
      options_.on_commit(BatchStats{static_cast<int>(batch.size()), absl::Now() - start,
                                    outcomes.ok()});
    }
    if (outcomes.ok()) return outcomes;
    const bool retry = Retryable(outcomes.status().code()) && absl::Now() + backoff < give_up;
    spdlog::warn("batch failed {}", Fields()
                                        .Add("results", static_cast<int>(batch.size()))
                                        .Add("attempt", attempt)
                                        .Add("retry", retry)
                                        .Add("error", outcomes.status()));
    if (!retry) return outcomes.status();
    absl::SleepFor(backoff);
    backoff = std::min(backoff * 2, kMaxBackoff);
  }
}

}  // namespace boneyard::ratings
