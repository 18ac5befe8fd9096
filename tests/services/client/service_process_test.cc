// The parts of the service test harness (tests/services/service_process.h) that need neither a
// database nor a service binary.
#include "tests/services/service_process.h"

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace boneyard::testing {
namespace {

TEST(WithDatabaseNameTest, ReplacesTheDatabaseOfAUrl) {
  EXPECT_EQ(WithDatabaseName("postgresql://postgres@127.0.0.1:5433/boneyard", "t_1"),
            "postgresql://postgres@127.0.0.1:5433/t_1");
  EXPECT_EQ(WithDatabaseName("postgresql://u:p@h:1/db?sslmode=disable&connect_timeout=5", "t_2"),
            "postgresql://u:p@h:1/t_2?sslmode=disable&connect_timeout=5");
  EXPECT_EQ(WithDatabaseName("postgres://h:1", "t_3"), "postgres://h:1/t_3");
  EXPECT_EQ(WithDatabaseName("postgres://h:1?sslmode=disable", "t_4"),
            "postgres://h:1/t_4?sslmode=disable");
}

TEST(WithDatabaseNameTest, ReplacesOrAddsDbnameInAKeywordString) {
  EXPECT_EQ(WithDatabaseName("host=/tmp port=5433 dbname=boneyard user=postgres", "t_5"),
            "host=/tmp port=5433 dbname=t_5 user=postgres");
  EXPECT_EQ(WithDatabaseName("host=h dbname='my db' port=1", "t_6"), "host=h dbname=t_6 port=1");
  EXPECT_EQ(WithDatabaseName("host=h port=1", "t_7"), "host=h port=1 dbname=t_7");
}

TEST(CheckServingTest, NothingListeningIsAnError) {
  absl::StatusOr<int> port = PickFreePort();
  ASSERT_TRUE(port.ok()) << port.status();
  EXPECT_GT(*port, 0);
  absl::StatusOr<bool> serving =
      CheckServing(absl::StrCat("127.0.0.1:", *port), absl::Milliseconds(500));
  EXPECT_FALSE(serving.ok());
}

TEST(ServiceProcessTest, AMissingBinaryFailsToStartWithItsLog) {
  absl::StatusOr<std::unique_ptr<ServiceProcess>> service =
      ServiceProcess::Start("/nonexistent/boneyard-nothing", {}, absl::Seconds(10));
  ASSERT_FALSE(service.ok());
  EXPECT_NE(service.status().message().find("cannot execute /nonexistent/boneyard-nothing"),
            std::string::npos)
      << service.status();
}

}  // namespace
}  // namespace boneyard::testing
