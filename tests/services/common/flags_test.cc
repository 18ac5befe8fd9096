#include "services/common/flags.h"

#include <cstdlib>
#include <fstream>
#include <string>

#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace boneyard {
namespace {

using ::testing::HasSubstr;

constexpr char kToken[] = "operator-token-0123456789";

// Each test starts from the defaults plus a valid database URL and operator token (in the
// environment), and leaves flags and environment as it found them.
class CommonConfigFromFlagsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv(kDatabaseUrlEnv);
    unsetenv(kOperatorTokenEnv);
    setenv(kDatabaseUrlEnv, "postgresql://localhost/boneyard", 1);
    setenv(kOperatorTokenEnv, kToken, 1);
  }
  void TearDown() override {
    unsetenv(kDatabaseUrlEnv);
    unsetenv(kOperatorTokenEnv);
  }

  std::string WriteFile(const std::string& name, const std::string& contents) {
    std::string path = ::testing::TempDir() + "/" + name;
    std::ofstream(path) << contents;
    return path;
  }

  // The error's message, which must be INVALID_ARGUMENT.
  std::string Error() {
    absl::StatusOr<ServiceConfig> config = CommonConfigFromFlags();
    EXPECT_EQ(config.status().code(), absl::StatusCode::kInvalidArgument) << config.status();
    return std::string(config.status().message());
  }

  absl::FlagSaver saver_;
};

TEST_F(CommonConfigFromFlagsTest, DefaultsWithEnvironment) {
  absl::StatusOr<ServiceConfig> config = CommonConfigFromFlags();
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->listen_address, "127.0.0.1:50051");
  EXPECT_EQ(config->metrics_address, "127.0.0.1:9464");
  EXPECT_EQ(config->database_url, "postgresql://localhost/boneyard");
  EXPECT_EQ(config->operator_token, kToken);
  EXPECT_EQ(config->db_pool_size, 8);
  EXPECT_EQ(config->log_level, "info");
  EXPECT_EQ(config->shutdown_grace, absl::Seconds(10));
}

TEST_F(CommonConfigFromFlagsTest, FlagsWinOverEnvironment) {
  absl::SetFlag(&FLAGS_listen, "127.0.0.1:0");
  absl::SetFlag(&FLAGS_metrics_listen, "");
  absl::SetFlag(&FLAGS_database_url, "postgresql://db/other");
  absl::SetFlag(&FLAGS_operator_token_file,
                WriteFile("operator_token", std::string("  from-a-file-0123456789\n")));
  absl::SetFlag(&FLAGS_db_pool_size, 3);
  absl::SetFlag(&FLAGS_log_level, "debug");
  absl::SetFlag(&FLAGS_shutdown_grace, absl::Seconds(2));
  absl::StatusOr<ServiceConfig> config = CommonConfigFromFlags();
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->listen_address, "127.0.0.1:0");
  EXPECT_EQ(config->metrics_address, "");
  EXPECT_EQ(config->database_url, "postgresql://db/other");
  EXPECT_EQ(config->operator_token, "from-a-file-0123456789");
  EXPECT_EQ(config->db_pool_size, 3);
  EXPECT_EQ(config->log_level, "debug");
  EXPECT_EQ(config->shutdown_grace, absl::Seconds(2));
}

TEST_F(CommonConfigFromFlagsTest, MissingDatabaseUrl) {
  unsetenv(kDatabaseUrlEnv);
  EXPECT_THAT(Error(), HasSubstr("--database_url"));
}

TEST_F(CommonConfigFromFlagsTest, MissingOperatorToken) {
  unsetenv(kOperatorTokenEnv);
  EXPECT_THAT(Error(), HasSubstr("--operator_token_file"));
}

TEST_F(CommonConfigFromFlagsTest, UnreadableOperatorTokenFile) {
  absl::SetFlag(&FLAGS_operator_token_file, ::testing::TempDir() + "/no/such/file");
  std::string error = Error();
  EXPECT_THAT(error, HasSubstr("--operator_token_file"));
  EXPECT_THAT(error, HasSubstr("no/such/file"));
}

TEST_F(CommonConfigFromFlagsTest, ShortOrSpacedOperatorToken) {
  setenv(kOperatorTokenEnv, "too-short", 1);
  EXPECT_THAT(Error(), HasSubstr("--operator_token_file"));
  absl::SetFlag(&FLAGS_operator_token_file, WriteFile("short_token", "0123456789abcde\n"));
  EXPECT_THAT(Error(), HasSubstr("at least 16"));
  absl::SetFlag(&FLAGS_operator_token_file, WriteFile("spaced_token", "0123456789 abcdefgh"));
  EXPECT_THAT(Error(), HasSubstr("whitespace"));
  absl::SetFlag(&FLAGS_operator_token_file, WriteFile("ok_token", "0123456789abcdef"));
  EXPECT_TRUE(CommonConfigFromFlags().ok());
}

TEST_F(CommonConfigFromFlagsTest, OutOfRangeValues) {
  absl::SetFlag(&FLAGS_db_pool_size, 0);
  EXPECT_THAT(Error(), HasSubstr("--db_pool_size"));
  absl::SetFlag(&FLAGS_db_pool_size, 257);
  EXPECT_THAT(Error(), HasSubstr("--db_pool_size"));
  absl::SetFlag(&FLAGS_db_pool_size, 256);
  EXPECT_TRUE(CommonConfigFromFlags().ok());

  absl::SetFlag(&FLAGS_log_level, "chatty");
  EXPECT_THAT(Error(), HasSubstr("--log_level"));
  absl::SetFlag(&FLAGS_log_level, "info");

  absl::SetFlag(&FLAGS_shutdown_grace, absl::Seconds(-1));
  EXPECT_THAT(Error(), HasSubstr("--shutdown_grace"));
  absl::SetFlag(&FLAGS_shutdown_grace, absl::InfiniteDuration());
  EXPECT_THAT(Error(), HasSubstr("--shutdown_grace"));
  absl::SetFlag(&FLAGS_shutdown_grace, absl::ZeroDuration());
  EXPECT_TRUE(CommonConfigFromFlags().ok());

  absl::SetFlag(&FLAGS_listen, "");
  EXPECT_THAT(Error(), HasSubstr("--listen"));
}

}  // namespace
}  // namespace boneyard
