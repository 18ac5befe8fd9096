#include "services/matchmaking/stream_support.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "services/common/threads.h"

namespace boneyard::matchmaking {

StreamWorkers::StreamWorkers(int threads, std::string name) {
  for (int i = 0; i < std::max(1, threads); ++i) {
    workers_.emplace_back([this, name] {
      SetThreadName(name);
      Work();
    });
  }
}

StreamWorkers::~StreamWorkers() { Stop(); }

bool StreamWorkers::Post(std::function<void()> task) {
  absl::MutexLock lock(&mu_);
  if (stopping_) return false;
  queue_.push_back(std::move(task));
  return true;
}

void StreamWorkers::Stop() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  for (std::thread& worker : workers_) {
    if (worker.joinable()) worker.join();
  }
}

void StreamWorkers::Work() {
  while (true) {
    std::function<void()> task;
    {
      absl::MutexLock lock(&mu_);
      auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return stopping_ || !queue_.empty();
      };
      mu_.Await(absl::Condition(&ready));
      // Queued tasks still run when stopping: each ends its stream (UNAVAILABLE).
      if (queue_.empty()) return;
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
  }
}

absl::Status StreamCaps::Acquire(const std::string& resource, const std::string& client) {
  absl::MutexLock lock(&mu_);
  if (options_.per_resource > 0 && resources_[resource] >= options_.per_resource) {
    if (resources_[resource] == 0) resources_.erase(resource);
    return absl::ResourceExhaustedError(
        absl::StrCat(resource, " has ", options_.per_resource, " streams open, the most ",
                     options_.per_resource_name, " allows"));
  }
  if (options_.per_client > 0 && clients_[client] >= options_.per_client) {
    if (clients_[client] == 0) clients_.erase(client);
    if (resources_[resource] == 0) resources_.erase(resource);
    return absl::ResourceExhaustedError(
        absl::StrCat("this client has ", options_.per_client, " streams open, the most ",
                     options_.per_client_name, " allows"));
  }
  ++resources_[resource];
  ++clients_[client];
  return absl::OkStatus();
}

void StreamCaps::Release(const std::string& resource, const std::string& client) {
  absl::MutexLock lock(&mu_);
  if (auto it = resources_.find(resource); it != resources_.end() && --it->second <= 0) {
    resources_.erase(it);
  }
  if (auto it = clients_.find(client); it != clients_.end() && --it->second <= 0) {
    clients_.erase(it);
  }
}

std::string StreamClient(const std::optional<std::string>& player, absl::string_view peer) {
  if (player.has_value()) return absl::StrCat("players/", *player);
  // "ipv4:1.2.3.4:80", "ipv6:[::1]:80": the port follows the last colon. A peer without one
  // ("unix:/path") is kept whole.
  const size_t colon = peer.rfind(':');
  const size_t first = peer.find(':');
  if (colon == absl::string_view::npos || colon == first) return std::string(peer);
  return std::string(peer.substr(0, colon));
}

}  // namespace boneyard::matchmaking
