// What the callback-API watch streams (WatchTournament, WatchEvents) share: a small pool of
// workers for the blocking part of a stream's start (token check, first snapshot or backlog,
// all on PostgreSQL), since a gRPC reaction must never block; and the caps on open streams, per
// watched resource and per client, so that one caller cannot hold all of a process's streams.
//
//   StreamWorkers workers(2, "watch");
//   workers.Post([...] { ... blocking read ..., then StartWrite or Finish ... });
//
//   StreamCaps caps({.per_resource = 64, .per_client = 4000, ...});
//   if (absl::Status s = caps.Acquire(player, client); !s.ok()) ...;  // RESOURCE_EXHAUSTED
//   ...
//   caps.Release(player, client);
//
// No gRPC; no database.
#ifndef BONEYARD_SERVICES_MATCHMAKING_STREAM_SUPPORT_H_
#define BONEYARD_SERVICES_MATCHMAKING_STREAM_SUPPORT_H_

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"

namespace boneyard::matchmaking {

class StreamWorkers {
 public:
  // `threads` workers (at least 1), named `name` (SetThreadName).
  StreamWorkers(int threads, std::string name);
  // Stop()s.
  ~StreamWorkers();
  StreamWorkers(const StreamWorkers&) = delete;
  StreamWorkers& operator=(const StreamWorkers&) = delete;

  // Runs `task` on a worker; false (the task dropped) once stopping: the caller ends its
  // stream itself.
  bool Post(std::function<void()> task);
  // Runs the tasks already queued (each sees the service stopping and ends its stream), then
  // joins the workers. Idempotent.
  void Stop();

 private:
  void Work();

  absl::Mutex mu_;
  std::deque<std::function<void()>> queue_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> workers_;
};

class StreamCaps {
 public:
  struct Options {
    int per_resource = 0;  // streams on one resource; 0 or less: no cap
    int per_client = 0;    // streams of one client; 0 or less: no cap
    // How the errors name the caps, e.g. "--max_watchers_per_tournament".
    std::string per_resource_name;
    std::string per_client_name;
  };
  explicit StreamCaps(Options options) : options_(std::move(options)) {}

  // Counts one more stream on `resource` for `client`, or RESOURCE_EXHAUSTED naming the cap
  // (nothing counted). Each OK is paired with one Release.
  absl::Status Acquire(const std::string& resource, const std::string& client);
  void Release(const std::string& resource, const std::string& client);

 private:
  const Options options_;
  absl::Mutex mu_;
  std::map<std::string, int> resources_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, int> clients_ ABSL_GUARDED_BY(mu_);
};

// The open streams of one RPC, each owned here from its start to its OnDone (a reactor must
// outlive gRPC's last call to it), so that a stopping service can end them all.
template <typename Stream>
class StreamRegistry {
 public:
  void Add(std::shared_ptr<Stream> stream) {
    absl::MutexLock lock(&mu_);
    streams_[stream.get()] = std::move(stream);
  }
  // From the stream's OnDone.
  void Forget(const Stream* stream) {
    std::shared_ptr<Stream> last;  // released after the lock: it may be the last reference
    absl::MutexLock lock(&mu_);
    auto it = streams_.find(stream);
    if (it == streams_.end()) return;
    last = std::move(it->second);
    streams_.erase(it);
  }
  // stopping() from now on; returns the streams open now, for the caller to end.
  std::vector<std::shared_ptr<Stream>> Stop() {
    std::vector<std::shared_ptr<Stream>> open;
    absl::MutexLock lock(&mu_);
    stopping_ = true;
    for (const auto& [key, stream] : streams_) open.push_back(stream);
    return open;
  }
  bool stopping() const {
    absl::MutexLock lock(&mu_);
    return stopping_;
  }

 private:
  mutable absl::Mutex mu_;
  std::map<const Stream*, std::shared_ptr<Stream>> streams_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
};

// Who a stream counts against for the per-client cap: the token's player when there is one,
// else the peer's address without its port ("ipv4:10.0.0.7:51234" -> "ipv4:10.0.0.7"), so that
// a client's many connections count together.
std::string StreamClient(const std::optional<std::string>& player, absl::string_view peer);

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_STREAM_SUPPORT_H_
