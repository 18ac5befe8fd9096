#include "services/web/relays.h"

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <thread>
#include <utility>
#include <vector>

#include "services/client/channel.h"
#include "services/web/backends.h"
#include "services/web/json_wire.h"

namespace boneyard::web {
namespace {

// The last events of a stream that ended: `end` after OK, else `error` with the
// status.
void FinishSink(EventSink& sink, const grpc::Status& status) {
  if (status.ok()) {
    sink.Send("end", "{}");
  } else {
    sink.Send("error", ErrorJson(client::FromGrpc(status)));
  }
  sink.Finish();
}

}  // namespace

// One WatchMatch stream and the browsers it feeds. Held by the hub while it
// runs and by itself until gRPC's OnDone.
class WatchHub::Feed : public grpc::ClientReadReactor<v1::WatchMatchResponse>,
                       public std::enable_shared_from_this<Feed> {
 public:
  Feed(WatchHub& hub, std::string match, int follows)
      : hub_(hub), match_(std::move(match)), follows_(follows) {
    context_ = Backends::Context("", /*unary=*/false);
    request_.set_name(match_);
  }

  void Start(v1::ExecutionService::Stub& execution) {
    self_ = shared_from_this();
    execution.async()->WatchMatch(context_.get(), &request_, this);
    StartRead(&response_);
    StartCall();
  }

  // False once the feed is cancelled or over: the hub starts a new one for
  // newcomers.
  bool Add(std::shared_ptr<EventSink> sink) {
    int id;
    {
      absl::MutexLock lock(&mu_);
      if (ending_) return false;
      id = next_id_++;
      if (!latest_.empty()) sink->Send("view", latest_);
      watchers_[id] = sink;
    }
    sink->OnClose([weak = weak_from_this(), id] {
      if (auto feed = weak.lock()) feed->Remove(id);
    });
    return true;
  }

  void Cancel() {
    {
      absl::MutexLock lock(&mu_);
      ending_ = true;
    }
    context_->TryCancel();
  }

  void OnReadDone(bool ok) override {
    if (!ok) return;  // OnDone follows
    const EventSink::Clock::time_point arrived = EventSink::Clock::now();
    std::string json = ProtoJson(response_.view());
    std::vector<std::shared_ptr<EventSink>> to;
    {
      absl::MutexLock lock(&mu_);
      latest_ = json;
      to.reserve(watchers_.size());
      for (auto& [id, sink] : watchers_) to.push_back(sink);
    }
    for (auto& sink : to) sink->Send("view", json, arrived);
    StartRead(&response_);
  }

  void OnDone(const grpc::Status& status) override {
    std::map<int, std::shared_ptr<EventSink>> watchers;
    {
      absl::MutexLock lock(&mu_);
      ending_ = true;
      watchers.swap(watchers_);
    }
    hub_.Forget(match_, this);
    if (!watchers.empty() && follows_ < ReplicaRouter::kMaxFollows &&
        hub_.execution_.Reroute(match_, status)) {
      // Played elsewhere: the watchers go on with a feed from that replica, whose first view
      // is the match as it stands.
      for (auto& [id, sink] : watchers) hub_.Subscribe(match_, sink, follows_ + 1);
    } else {
      for (auto& [id, sink] : watchers) FinishSink(*sink, status);
    }
    self_.reset();  // may destroy this
  }

 private:
  void Remove(int id) {
    bool cancel = false;
    {
      absl::MutexLock lock(&mu_);
      watchers_.erase(id);
      // Nobody watches: the gRPC stream goes too (a newcomer starts a new one).
      if (watchers_.empty() && !ending_) cancel = ending_ = true;
    }
    if (cancel) context_->TryCancel();
  }

  WatchHub& hub_;
  const std::string match_;
  const int follows_;  // WrongReplica answers followed to get here
  std::shared_ptr<grpc::ClientContext> context_;
  v1::WatchMatchRequest request_;
  v1::WatchMatchResponse response_;
  std::shared_ptr<Feed> self_;
  absl::Mutex mu_;
  bool ending_ ABSL_GUARDED_BY(mu_) = false;
  int next_id_ ABSL_GUARDED_BY(mu_) = 0;
  std::string latest_ ABSL_GUARDED_BY(mu_);
  std::map<int, std::shared_ptr<EventSink>> watchers_ ABSL_GUARDED_BY(mu_);
};

WatchHub::~WatchHub() {
  std::vector<std::shared_ptr<Feed>> feeds;
  {
    absl::MutexLock lock(&mu_);
    for (auto& [match, feed] : feeds_) feeds.push_back(feed);
  }
  for (auto& feed : feeds) feed->Cancel();
  // The feeds' OnDone calls Forget on this hub: wait for them (briefly; they
  // are cancelled).
  for (int i = 0; i < 500; ++i) {
    {
      absl::MutexLock lock(&mu_);
      if (feeds_.empty()) return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

void WatchHub::Subscribe(const std::string& match, std::shared_ptr<EventSink> sink) {
  Subscribe(match, std::move(sink), /*follows=*/0);
}

void WatchHub::Subscribe(const std::string& match, std::shared_ptr<EventSink> sink, int follows) {
  std::shared_ptr<Feed> started;
  {
    absl::MutexLock lock(&mu_);
    auto it = feeds_.find(match);
    if (it != feeds_.end() && it->second->Add(sink)) return;
    started = std::make_shared<Feed>(*this, match, follows);
    feeds_[match] = started;
    started->Add(std::move(sink));
  }
  // Outside the lock: a call that ends at once may run OnDone, which takes it (Forget).
  started->Start(execution_.StubFor(match));
}

void WatchHub::Forget(const std::string& match, const Feed* feed) {
  absl::MutexLock lock(&mu_);
  auto it = feeds_.find(match);
  if (it != feeds_.end() && it->second.get() == feed) feeds_.erase(it);
}

namespace {

// One seat's Play stream for one browser page. Deletes itself in OnDone.
class PlayRelay : public grpc::ClientBidiReactor<v1::PlayRequest, v1::PlayResponse> {
 public:
  PlayRelay(ReplicaRouter& execution, const std::string& seat_token, const std::string& match,
            std::shared_ptr<EventSink> sink, int follows)
      : execution_(execution),
        seat_token_(seat_token),
        follows_(follows),
        context_(Backends::Context(seat_token, /*unary=*/false)),
        sink_(std::move(sink)) {
    hello_.set_name(match);
  }

  void Start() {
    execution_.StubFor(hello_.name()).async()->Play(context_.get(), this);
    // The browser leaving ends the call; the context outlives this relay for
    // that.
    sink_->OnClose([context = context_] { context->TryCancel(); });
    StartWrite(&hello_);
    StartRead(&response_);
    StartCall();
  }

  void OnReadDone(bool ok) override {
    if (!ok) return;
    if (response_.has_view()) {
      const EventSink::Clock::time_point arrived = EventSink::Clock::now();
      sink_->Send("view", ProtoJson(response_.view()), arrived);
    }
    StartRead(&response_);
  }

  void OnDone(const grpc::Status& status) override {
    if (follows_ < ReplicaRouter::kMaxFollows && execution_.Reroute(hello_.name(), status)) {
      // Played elsewhere: the same seat there; its first view is the match as it stands.
      (new PlayRelay(execution_, seat_token_, hello_.name(), sink_, follows_ + 1))->Start();
    } else {
      FinishSink(*sink_, status);
    }
    delete this;
  }

 private:
  ReplicaRouter& execution_;
  const std::string seat_token_;
  const int follows_;  // WrongReplica answers followed to get here
  std::shared_ptr<grpc::ClientContext> context_;
  std::shared_ptr<EventSink> sink_;
  v1::PlayRequest hello_;
  v1::PlayResponse response_;
};

// One ticket's WatchTicket stream for one browser page. Deletes itself in
// OnDone.
class TicketRelay : public grpc::ClientReadReactor<v1::TicketUpdate> {
 public:
  TicketRelay(const std::string& token, const std::string& ticket, std::shared_ptr<EventSink> sink)
      : context_(Backends::Context(token, /*unary=*/false)), sink_(std::move(sink)) {
    request_.set_name(ticket);
  }

  void Start(v1::MatchmakingService::Stub& matchmaking) {
    matchmaking.async()->WatchTicket(context_.get(), &request_, this);
    sink_->OnClose([context = context_] { context->TryCancel(); });
    StartRead(&response_);
    StartCall();
  }

  void OnReadDone(bool ok) override {
    if (!ok) return;
    // The seat token stays here: the browser plays through the web service.
    for (v1::Assignment& a : *response_.mutable_ticket()->mutable_assignments()) {
      a.clear_seat_token();
    }
    sink_->Send("ticket", ProtoJson(response_.ticket()));
    if (response_.has_search()) sink_->Send("search", ProtoJson(response_.search()));
    StartRead(&response_);
  }

  void OnDone(const grpc::Status& status) override {
    FinishSink(*sink_, status);
    delete this;
  }

 private:
  std::shared_ptr<grpc::ClientContext> context_;
  std::shared_ptr<EventSink> sink_;
  v1::WatchTicketRequest request_;
  v1::TicketUpdate response_;
};

}  // namespace

void StartPlayRelay(ReplicaRouter& execution, const std::string& seat_token,
                    const std::string& match, std::shared_ptr<EventSink> sink) {
  (new PlayRelay(execution, seat_token, match, std::move(sink), /*follows=*/0))->Start();
}

void StartTicketRelay(v1::MatchmakingService::Stub& matchmaking, const std::string& token,
                      const std::string& ticket, std::shared_ptr<EventSink> sink) {
  (new TicketRelay(token, ticket, std::move(sink)))->Start(matchmaking);
}

}  // namespace boneyard::web
