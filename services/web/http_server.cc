#include "services/web/http_server.h"

#include <array>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "nlohmann/json.hpp"
#include "services/web/url.h"
#include "spdlog/spdlog.h"

namespace boneyard::web {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// A browser this many events behind is dropped: its EventSource reconnects and
// starts from the current state, which is better than the server holding an
// unbounded queue for it.
constexpr std::size_t kMaxQueuedEvents = 512;
constexpr auto kRequestTimeout = std::chrono::seconds(60);
// Proxies and browsers close a response that is silent for long; a comment line
// is ignored.
constexpr auto kKeepAliveEvery = std::chrono::seconds(15);

// Headers every answer carries: the pages load nothing from elsewhere and are
// never framed.
void AddSecurityHeaders(http::response<http::string_body>& response) {
  response.set("Content-Security-Policy",
               "default-src 'self'; img-src 'self' data:; style-src 'self' "
               "'unsafe-inline'; "
               "frame-ancestors 'none'; base-uri 'none'; form-action 'self'");
  response.set("X-Content-Type-Options", "nosniff");
  response.set("Referrer-Policy", "no-referrer");
  response.set("X-Frame-Options", "DENY");
}

class ConnectionRegistry;

class Connection final : public Exchange,
                         public EventSink,
                         public std::enable_shared_from_this<Connection> {
 public:
  Connection(tcp::socket socket, const HttpHandler& handler, const HttpServerOptions& options,
             ConnectionRegistry& registry);
  ~Connection() override;

  void Start() { Read(); }
  // From any thread: ends the connection (the server is stopping).
  void Close() {
    asio::post(stream_.get_executor(), [self = shared_from_this()] { self->DoClose(); });
  }

  // Exchange
  void Reply(HttpResponse response) override;
  std::shared_ptr<EventSink> StartEvents() override;
  // EventSink
  void Send(absl::string_view event, absl::string_view data, Clock::time_point origin) override;
  void Finish() override;
  void OnClose(std::function<void()> on_close) override;

 private:
  void Read();
  void OnRead(beast::error_code error);
  void OnReplyWritten(beast::error_code error, bool keep_alive);
  struct Pending {
    std::string text;
    Clock::time_point origin;  // unset: untimed
  };
  void Enqueue(std::string text, Clock::time_point origin = {});
  void WriteNext();
  void WatchForClose();
  void Ping();
  void DoClose();

  beast::tcp_stream stream_;
  const HttpHandler& handler_;
  const HttpServerOptions& options_;
  ConnectionRegistry& registry_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::shared_ptr<http::response<http::string_body>> response_;
  bool keep_alive_ = false;
  // Event stream state (on the strand only).
  bool streaming_ = false;
  bool writing_ = false;
  bool finishing_ = false;
  bool closed_ = false;
  std::deque<Pending> queue_;
  std::function<void()> on_close_;
  asio::steady_timer ping_timer_;
  std::array<char, 512> discard_{};
};

// The live connections, so that Stop can close them (and their relays hear of
// it).
class ConnectionRegistry {
 public:
  void Add(Connection* c, std::weak_ptr<Connection> weak) {
    std::lock_guard<std::mutex> lock(mu_);
    live_[c] = std::move(weak);
  }
  void Remove(Connection* c) {
    std::lock_guard<std::mutex> lock(mu_);
    live_.erase(c);
  }
  void CloseAll() {
    std::vector<std::shared_ptr<Connection>> open;
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (auto& [raw, weak] : live_) {
        if (auto c = weak.lock()) open.push_back(std::move(c));
      }
    }
    for (auto& c : open) c->Close();
  }
  std::size_t size() {
    std::lock_guard<std::mutex> lock(mu_);
    return live_.size();
  }

 private:
  std::mutex mu_;
  std::map<Connection*, std::weak_ptr<Connection>> live_;
};

Connection::Connection(tcp::socket socket, const HttpHandler& handler,
                       const HttpServerOptions& options,
                       ConnectionRegistry& registry)
    : stream_(std::move(socket)),
      handler_(handler),
      options_(options),
      registry_(registry),
      ping_timer_(stream_.get_executor()) {}

Connection::~Connection() { registry_.Remove(this); }

void Connection::Read() {
  parser_.emplace();
  parser_->body_limit(options_.max_body_bytes);
  parser_->header_limit(16 * 1024);
  stream_.expires_after(kRequestTimeout);
  http::async_read(
      stream_, buffer_, *parser_,
      [self = shared_from_this()](beast::error_code error, std::size_t) { self->OnRead(error); });
}

void Connection::OnRead(beast::error_code error) {
  if (error == http::error::body_limit) {
    HttpResponse too_large{.status = 413,
                           .content_type = "application/json",
                           .body = R"({"error":{"code":"INVALID_ARGUMENT","message":)"
                                   R"("the request body is larger than the server accepts"}})",
                           .headers = {}};
    keep_alive_ = false;
    Reply(std::move(too_large));
    return;
  }
  if (error) {
    DoClose();
    return;
  }
  stream_.expires_never();
  http::request<http::string_body> raw = parser_->release();
  keep_alive_ = raw.keep_alive();
  HttpRequest request;
  request.method = std::string(raw.method_string());
  const absl::string_view target(raw.target().data(), raw.target().size());
  const std::size_t question = target.find('?');
  request.path = PercentDecode(target.substr(0, question));
  if (question != absl::string_view::npos) request.query = ParseQuery(target.substr(question + 1));
  request.body = std::move(raw.body());
  request.content_type = std::string(raw[http::field::content_type]);
  request.cookie = std::string(raw[http::field::cookie]);
  request.csrf_token = std::string(raw["X-CSRF-Token"]);
  if (absl::Status target = CheckTarget(request.path, request.query); !target.ok()) {
    const nlohmann::json error = {
        {"error", {{"code", "INVALID_ARGUMENT"}, {"message", std::string(target.message())}}}};
    Reply(HttpResponse{
        .status = 400,
        .content_type = "application/json",
        .body = error.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
        .headers = {}});
    return;
  }
  handler_(std::move(request), shared_from_this());
}

void Connection::Reply(HttpResponse answer) {
  asio::post(stream_.get_executor(), [self = shared_from_this(), answer = std::move(answer)] {
    if (self->closed_) return;
    auto response = std::make_shared<http::response<http::string_body>>(
        static_cast<http::status>(answer.status), 11);
    response->set(http::field::server, "boneyard-web");
    response->set(http::field::content_type, answer.content_type);
    response->set(http::field::cache_control, "no-store");
    AddSecurityHeaders(*response);
    for (auto& [name, value] : answer.headers) response->insert(name, value);
    response->body() = std::move(answer.body);
    response->keep_alive(self->keep_alive_);
    response->prepare_payload();
    self->response_ = response;
    const bool keep_alive = self->keep_alive_;
    http::async_write(self->stream_, *response,
                      [self, keep_alive](beast::error_code error, std::size_t) {
                        self->OnReplyWritten(error, keep_alive);
                      });
  });
}

void Connection::OnReplyWritten(beast::error_code error, bool keep_alive) {
  response_.reset();
  if (error || !keep_alive) {
    DoClose();
    return;
  }
  Read();
}

std::shared_ptr<EventSink> Connection::StartEvents() {
  asio::post(stream_.get_executor(), [self = shared_from_this()] {
    if (self->closed_) return;
    self->streaming_ = true;
    if (self->options_.on_streams) self->options_.on_streams(+1);
    // No length and no chunking: the body runs until the connection closes,
    // which is what an event stream is; no request follows it on this
    // connection.
    self->Enqueue(
        "HTTP/1.1 200 OK\r\nServer: boneyard-web\r\nContent-Type: "
        "text/event-stream\r\n"
        "Cache-Control: no-store\r\nX-Accel-Buffering: "
        "no\r\nX-Content-Type-Options: nosniff\r\n"
        "Connection: close\r\n\r\n");
    self->WatchForClose();
    self->Ping();
  });
  return shared_from_this();
}

void Connection::Send(absl::string_view event, absl::string_view data, Clock::time_point origin) {
  std::string text = absl::StrCat("event: ", event, "\ndata: ", data, "\n\n");
  asio::post(stream_.get_executor(), [self = shared_from_this(), text = std::move(text), origin] {
    if (self->closed_ || self->finishing_) return;
    if (self->queue_.size() >= kMaxQueuedEvents) {
      spdlog::warn("event stream dropped: the browser is too far behind");
      self->DoClose();
      return;
    }
    self->Enqueue(std::move(text), origin);
  });
}

void Connection::Finish() {
  asio::post(stream_.get_executor(), [self = shared_from_this()] {
    if (self->closed_) return;
    self->finishing_ = true;
    if (!self->writing_) self->DoClose();
  });
}

void Connection::OnClose(std::function<void()> on_close) {
  asio::post(stream_.get_executor(),
             [self = shared_from_this(), on_close = std::move(on_close)]() mutable {
               if (self->closed_) {
                 on_close();
                 return;
               }
               self->on_close_ = std::move(on_close);
             });
}

void Connection::Enqueue(std::string text, Clock::time_point origin) {
  queue_.push_back(Pending{.text = std::move(text), .origin = origin});
  if (!writing_) WriteNext();
}

void Connection::WriteNext() {
  if (queue_.empty() || closed_) {
    writing_ = false;
    if (finishing_) DoClose();
    return;
  }
  writing_ = true;
  asio::async_write(stream_.socket(), asio::buffer(queue_.front().text),
                    [self = shared_from_this()](beast::error_code error, std::size_t) {
                      // Closed meanwhile (the browser left, or the stream was too far
                      // behind): the queue is gone, this write's item with it.
                      if (error || self->closed_) {
                        self->DoClose();
                        return;
                      }
                      const Clock::time_point origin = self->queue_.front().origin;
                      if (origin != Clock::time_point() && self->options_.on_relayed) {
                        self->options_.on_relayed(
                            std::chrono::duration<double>(Clock::now() - origin).count());
                      }
                      self->queue_.pop_front();
                      self->WriteNext();
                    });
}

// A browser that leaves closes its socket; a read pending all along is how we
// hear of it.
void Connection::WatchForClose() {
  stream_.socket().async_read_some(
      asio::buffer(discard_), [self = shared_from_this()](beast::error_code error, std::size_t) {
        if (error) {
          self->DoClose();
          return;
        }
        self->WatchForClose();
      });
}

void Connection::Ping() {
  ping_timer_.expires_after(kKeepAliveEvery);
  ping_timer_.async_wait([self = shared_from_this()](beast::error_code error) {
    if (error || self->closed_) return;
    self->Enqueue(": keep-alive\n\n");
    self->Ping();
  });
}

void Connection::DoClose() {
  if (closed_) return;
  closed_ = true;
  ping_timer_.cancel();
  beast::error_code ignored;
  stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
  stream_.socket().close(ignored);
  // A write in flight still reads its item: the queue goes with the connection, not now.
  if (!writing_) queue_.clear();
  if (streaming_ && options_.on_streams) options_.on_streams(-1);
  if (on_close_) {
    std::function<void()> on_close = std::move(on_close_);
    on_close_ = nullptr;
    on_close();
  }
}

class BeastServer final : public HttpServer {
 public:
  BeastServer(HttpServerOptions options, HttpHandler handler)
      : options_(std::move(options)), handler_(std::move(handler)), acceptor_(ioc_) {}
  ~BeastServer() override { Stop(); }

  absl::Status Listen() {
    std::pair<std::string, std::string> host_port =
        absl::StrSplit(options_.listen_address, absl::MaxSplits(':', 1));
    int port = 0;
    if (host_port.first.empty() || !absl::SimpleAtoi(host_port.second, &port) || port < 0 ||
        port > 65535) {
      return absl::InvalidArgumentError(
          absl::StrCat("--listen: not host:port: ", options_.listen_address));
    }
    beast::error_code error;
    const asio::ip::address address = asio::ip::make_address(host_port.first, error);
    if (error) {
      return absl::InvalidArgumentError(
          absl::StrCat("--listen: not an IP address: ", host_port.first));
    }
    const tcp::endpoint endpoint(address, static_cast<unsigned short>(port));
    acceptor_.open(endpoint.protocol(), error);
    if (!error) acceptor_.set_option(asio::socket_base::reuse_address(true), error);
    if (!error && options_.reuse_port) {
      acceptor_.set_option(asio::detail::socket_option::boolean<SOL_SOCKET, SO_REUSEPORT>(true),
                           error);
    }
    if (!error) acceptor_.bind(endpoint, error);
    if (!error) acceptor_.listen(asio::socket_base::max_listen_connections, error);
    if (error) {
      return absl::UnavailableError(
          absl::StrCat("cannot listen on ", options_.listen_address, ": ", error.message()));
    }
    port_ = acceptor_.local_endpoint().port();
    Accept();
    for (int i = 0; i < options_.threads; ++i) threads_.emplace_back([this] { ioc_.run(); });
    return absl::OkStatus();
  }

  int port() const override { return port_; }

  void Stop() override {
    if (stopped_.exchange(true)) return;
    asio::post(ioc_, [this] {
      beast::error_code ignored;
      acceptor_.close(ignored);
    });
    registry_.CloseAll();
    // Let the closes (and the relays' on-close callbacks) run before the
    // threads stop.
    for (int i = 0; i < 100 && registry_.size() > 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ioc_.stop();
    for (std::thread& t : threads_) t.join();
    threads_.clear();
  }

 private:
  void Accept() {
    acceptor_.async_accept(asio::make_strand(ioc_),
                           [this](beast::error_code error, tcp::socket socket) {
                             if (error) {
                               if (error == asio::error::operation_aborted) return;
                               spdlog::warn("accept failed: {}", error.message());
                             } else {
                               auto connection = std::make_shared<Connection>(
                                   std::move(socket), handler_, options_, registry_);
                               registry_.Add(connection.get(), connection);
                               connection->Start();
                             }
                             if (acceptor_.is_open()) Accept();
                           });
  }

  const HttpServerOptions options_;
  const HttpHandler handler_;
  // Before the io_context, so destroyed after it: a connection whose last handler was still
  // queued when the threads stopped dies with the io_context, and its destructor leaves the
  // registry (destroyed first, that was a use after free, seen as a double free in a test).
  ConnectionRegistry registry_;
  asio::io_context ioc_;
  tcp::acceptor acceptor_;
  std::vector<std::thread> threads_;
  int port_ = 0;
  std::atomic<bool> stopped_{false};
};

}  // namespace

absl::StatusOr<std::unique_ptr<HttpServer>> HttpServer::Start(HttpServerOptions options,
                                                              HttpHandler handler) {
  auto server = std::make_unique<BeastServer>(std::move(options), std::move(handler));
  if (absl::Status s = server->Listen(); !s.ok()) return s;
  return server;
}

}  // namespace boneyard::web
