// The HTTP server on loopback: answers from another thread, keep-alive, the
// body limit, event streams (events in order, the end, and hearing that a
// browser left or the server stopped).
#include "services/web/http_server.h"

#include <arpa/inet.h>
#include <httplib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace boneyard::web {
namespace {

using ::testing::HasSubstr;

class HttpServerTest : public ::testing::Test {
 protected:
  void Start() {
    HttpServerOptions options{.listen_address = "127.0.0.1:0"};
    options.on_relayed = [this](double seconds) {
      relayed_.fetch_add(1);
      if (seconds < 0 || seconds > 10) bad_timing_ = true;
    };
    options.on_streams = [this](int delta) { streams_.fetch_add(delta); };
    auto server =
        HttpServer::Start(options, [this](HttpRequest request, std::shared_ptr<Exchange> exchange) {
          Handle(std::move(request), std::move(exchange));
        });
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
  }

  void Handle(HttpRequest request, std::shared_ptr<Exchange> exchange) {
    ++requests_;
    if (request.path == "/events") {
      std::shared_ptr<EventSink> sink = exchange->StartEvents();
      sink->OnClose([this] {
        if (!notified_.exchange(true)) closed_.Notify();
      });
      sink->Send("view", R"({"n":1})", EventSink::Clock::now());
      sink->Send("view", R"({"n":2})");
      if (request.query.count("finish")) sink->Finish();
      if (request.query.count("flood")) {
        for (int i = 0; i < 400; ++i) sink->Send("view", std::string(2000, 'x'));
      }
      return;
    }
    // Answered from another thread, as the web API does.
    std::thread([request = std::move(request), exchange] {
      exchange->Reply(
          HttpResponse{.status = 200,
                       .content_type = "application/json",
                       .body = absl::StrCat(R"({"path":")", request.path, R"(","q":")",
                                            request.query.count("q") ? request.query.at("q") : "",
                                            R"(","body_bytes":)", request.body.size(), "}"),
                       .headers = {{"Set-Cookie", "a=b"}}});
    }).detach();
  }

  std::string Url() const { return absl::StrCat("http://127.0.0.1:", server_->port()); }

  // A raw connection that has sent `GET target` (so a test can read part of the answer and
  // leave, as a browser does); -1 when it cannot connect.
  int SendRequest(const std::string& target) const {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(server_->port()));
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    const std::string request = absl::StrCat("GET ", target, " HTTP/1.1\r\nHost: x\r\n\r\n");
    if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
        write(fd, request.data(), request.size()) != static_cast<ssize_t>(request.size())) {
      close(fd);
      return -1;
    }
    return fd;
  }

  std::unique_ptr<HttpServer> server_;
  std::atomic<int> requests_{0};
  std::atomic<int> relayed_{0};
  std::atomic<int> streams_{0};
  std::atomic<bool> bad_timing_{false};
  absl::Notification closed_;  // the first stream to close
  std::atomic<bool> notified_{false};
};

TEST_F(HttpServerTest, AnswersRequestsOnOneKeptAliveConnection) {
  Start();
  httplib::Client client(Url());
  client.set_keep_alive(true);
  for (int i = 0; i < 3; ++i) {
    httplib::Result r = client.Get("/api/x%2Fy?q=a%20b");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->body, R"({"path":"/api/x/y","q":"a b","body_bytes":0})");
    EXPECT_EQ(r->get_header_value("Set-Cookie"), "a=b");
    EXPECT_EQ(r->get_header_value("X-Content-Type-Options"), "nosniff");
    EXPECT_THAT(r->get_header_value("Content-Security-Policy"), HasSubstr("default-src 'self'"));
  }
  EXPECT_EQ(requests_, 3);
}

TEST_F(HttpServerTest, ABodyOverTheLimitIs413AndNeverReachesTheHandler) {
  Start();
  httplib::Client client(Url());
  httplib::Result r = client.Post("/api/x", std::string(65 * 1024, 'x'), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_THAT(r->body, HasSubstr("larger than the server accepts"));
  EXPECT_EQ(requests_, 0);
  r = httplib::Client(Url()).Post("/api/x", std::string(1000, 'x'), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->body, R"({"path":"/api/x","q":"","body_bytes":1000})");
}

TEST_F(HttpServerTest, AnEventStreamSendsItsEventsInOrderThenEnds) {
  Start();
  httplib::Client client(Url());
  httplib::Result r = client.Get("/events?finish=1");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "text/event-stream");
  EXPECT_EQ(r->body, "event: view\ndata: {\"n\":1}\n\nevent: view\ndata: {\"n\":2}\n\n");
  EXPECT_TRUE(closed_.WaitForNotificationWithTimeout(absl::Seconds(10)));
  // Only the timed event is reported; the stream was counted open, then closed.
  EXPECT_EQ(relayed_, 1);
  EXPECT_FALSE(bad_timing_);
  EXPECT_EQ(streams_, 0);
}

// A browser that leaves: the stream hears of it (and a relay cancels its gRPC
// call).
TEST_F(HttpServerTest, AnEventStreamHearsThatTheBrowserLeft) {
  Start();
  const int fd = SendRequest("/events");
  ASSERT_GE(fd, 0);
  std::string got;
  char buffer[4096];
  while (got.find("{\"n\":2}") == std::string::npos) {
    const ssize_t n = read(fd, buffer, sizeof(buffer));
    ASSERT_GT(n, 0);
    got.append(buffer, n);
  }
  EXPECT_FALSE(closed_.HasBeenNotified());
  EXPECT_EQ(streams_, 1);
  close(fd);
  EXPECT_TRUE(closed_.WaitForNotificationWithTimeout(absl::Seconds(10)));
}

// Browsers leaving while their stream is being written, many times over: a write that
// completes after the close must not touch the queue the close dropped.
TEST_F(HttpServerTest, BrowsersLeavingMidStreamLeaveTheServerServing) {
  Start();
  for (int round = 0; round < 200; ++round) {
    const int fd = SendRequest("/events?flood=1");
    ASSERT_GE(fd, 0);
    char buffer[4096];
    ASSERT_GT(read(fd, buffer, sizeof(buffer)), 0);
    close(fd);
  }
  httplib::Result r = httplib::Client(Url()).Get("/after");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  for (int i = 0; i < 500 && streams_ != 0; ++i) absl::SleepFor(absl::Milliseconds(10));
  EXPECT_EQ(streams_, 0);
}

TEST_F(HttpServerTest, StoppingTheServerEndsOpenEventStreams) {
  Start();
  std::thread browser([url = Url()] { httplib::Client(url).Get("/events"); });
  for (int i = 0; i < 500 && requests_ == 0; ++i) absl::SleepFor(absl::Milliseconds(10));
  ASSERT_EQ(requests_, 1);
  server_->Stop();
  EXPECT_TRUE(closed_.WaitForNotificationWithTimeout(absl::Seconds(10)));
  browser.join();
}

TEST(HttpServerStartTest, AMalformedOrTakenAddressIsAnError) {
  auto handler = [](HttpRequest, std::shared_ptr<Exchange>) {};
  EXPECT_EQ(HttpServer::Start({.listen_address = "nonsense"}, handler).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(HttpServer::Start({.listen_address = "not-an-ip:80"}, handler).status().code(),
            absl::StatusCode::kInvalidArgument);
  auto first = HttpServer::Start({.listen_address = "127.0.0.1:0"}, handler);
  ASSERT_TRUE(first.ok());
  auto second =
      HttpServer::Start({.listen_address = absl::StrCat("127.0.0.1:", (*first)->port())}, handler);
  EXPECT_EQ(second.status().code(), absl::StatusCode::kUnavailable);
}

}  // namespace
}  // namespace boneyard::web
