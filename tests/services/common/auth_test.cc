#include "services/common/auth.h"

#include <set>
#include <string>

#include "absl/strings/ascii.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/common/server.h"
#include "tests/services/common/test_util.h"

namespace boneyard {
namespace {

using ::testing::Optional;
using Role = Authenticator::Role;

TEST(ParseBearerHeaderTest, AcceptsBearerInAnyCase) {
  EXPECT_THAT(ParseBearerHeader("Bearer abc"), Optional(std::string("abc")));
  EXPECT_THAT(ParseBearerHeader("bearer abc"), Optional(std::string("abc")));
  EXPECT_THAT(ParseBearerHeader("BEARER abc"), Optional(std::string("abc")));
  EXPECT_THAT(ParseBearerHeader("Bearer   a-b_c.d~e+f/g="), Optional(std::string("a-b_c.d~e+f/g=")));
}

// HTTP trims a field value's trailing white space: a trailing space is not a missing token.
TEST(ParseBearerHeaderTest, TrailingWhiteSpaceIsTrimmed) {
  EXPECT_THAT(ParseBearerHeader("Bearer abc "), Optional(std::string("abc")));
  EXPECT_THAT(ParseBearerHeader("bearer abc\t "), Optional(std::string("abc")));
  EXPECT_EQ(ParseBearerHeader("Bearer abc\n"), std::nullopt);
}

TEST(ParseBearerHeaderTest, RejectsAnythingElse) {
  EXPECT_EQ(ParseBearerHeader(""), std::nullopt);
  EXPECT_EQ(ParseBearerHeader("Bearer"), std::nullopt);
  EXPECT_EQ(ParseBearerHeader("Bearer "), std::nullopt);
  EXPECT_EQ(ParseBearerHeader("Bearer    "), std::nullopt);
  EXPECT_EQ(ParseBearerHeader("Basic abc"), std::nullopt);
  EXPECT_EQ(ParseBearerHeader("Bearerabc"), std::nullopt);
  EXPECT_EQ(ParseBearerHeader("Bearer abc def"), std::nullopt);
  EXPECT_EQ(ParseBearerHeader("abc"), std::nullopt);
}

// BearerToken reads the metadata of a real call: the test service answers GetMatch with the
// token it saw.
class BearerTokenTest : public testutil::LoopbackServerTest {
 protected:
  // The token the server saw, or the call's error.
  grpc::Status Call(const std::vector<std::string>& authorization, std::string* token) {
    grpc::ClientContext ctx;
    ctx.set_deadline(testutil::CallDeadline());
    for (const std::string& value : authorization) ctx.AddMetadata("authorization", value);
    boneyard::v1::GetMatchRequest request;
    request.set_name("matches/1");
    boneyard::v1::Match match;
    grpc::Status status = stub_->GetMatch(&ctx, request, &match);
    *token = match.name();
    return status;
  }
};

TEST_F(BearerTokenTest, ReadsTheToken) {
  std::string token;
  ASSERT_TRUE(Call({"Bearer secret-1"}, &token).ok());
  EXPECT_EQ(token, "secret-1");
  ASSERT_TRUE(Call({"bearer secret-2"}, &token).ok());
  EXPECT_EQ(token, "secret-2");
}

TEST_F(BearerTokenTest, MissingOrMalformedIsNoToken) {
  std::string token;
  EXPECT_EQ(Call({}, &token).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Call({"Basic dXNlcjpwYXNz"}, &token).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Call({"Bearer"}, &token).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Call({"Bearer a", "Bearer b"}, &token).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
}

TEST(TokensEqualTest, ComparesWholeTokens) {
  EXPECT_TRUE(TokensEqual("abcdef", "abcdef"));
  EXPECT_TRUE(TokensEqual("", ""));
  EXPECT_FALSE(TokensEqual("abcdef", "abcdeg"));
  EXPECT_FALSE(TokensEqual("abcdef", "bbcdef"));
  EXPECT_FALSE(TokensEqual("abcdef", "abcde"));
  EXPECT_FALSE(TokensEqual("abcde", "abcdef"));
  EXPECT_FALSE(TokensEqual("abcabc", "abc"));  // b repeats inside a: still unequal
  EXPECT_FALSE(TokensEqual("abc", ""));
  EXPECT_FALSE(TokensEqual("", "abc"));
}

TEST(NewSecretTokenTest, Is43UnpaddedBase64UrlCharacters) {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    std::string token = NewSecretToken();
    ASSERT_EQ(token.size(), 43u) << token;
    for (char c : token) {
      ASSERT_TRUE(absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_')
          << token;
    }
    seen.insert(token);
  }
  EXPECT_EQ(seen.size(), 100u);
}

// A token may follow a command-line flag (`--token T`): one starting with '-' would read as a
// flag. Without the rule, 10,000 tokens would hold about 156 such.
TEST(NewSecretTokenTest, NeverStartsWithADash) {
  for (int i = 0; i < 10000; ++i) {
    const std::string token = NewSecretToken();
    ASSERT_NE(token.front(), '-') << token;
  }
}

class AuthenticatorTest : public ::testing::Test {
 protected:
  Authenticator auth_{AuthConfig{.operator_token = "operator-token-0123456789",
                                  .service_tokens = {"service-token-a", "service-token-b"}}};
};

TEST_F(AuthenticatorTest, Classify) {
  EXPECT_EQ(auth_.Classify(std::nullopt), Role::kNone);
  EXPECT_EQ(auth_.Classify("operator-token-0123456789"), Role::kOperator);
  EXPECT_EQ(auth_.Classify("service-token-a"), Role::kService);
  EXPECT_EQ(auth_.Classify("service-token-b"), Role::kService);
  EXPECT_EQ(auth_.Classify("operator-token-012345678"), Role::kOther);
  EXPECT_EQ(auth_.Classify("seat-token"), Role::kOther);
  EXPECT_EQ(auth_.Classify(""), Role::kOther);
}

TEST_F(AuthenticatorTest, EmptyConfiguredTokensMatchNothing) {
  Authenticator empty(AuthConfig{.operator_token = "", .service_tokens = {""}});
  EXPECT_EQ(empty.Classify(""), Role::kOther);
  EXPECT_EQ(empty.Classify("x"), Role::kOther);
}

TEST_F(AuthenticatorTest, RequireOperator) {
  EXPECT_TRUE(auth_.RequireOperator("operator-token-0123456789", false).ok());
  EXPECT_TRUE(auth_.RequireOperator("operator-token-0123456789", true).ok());

  EXPECT_EQ(auth_.RequireOperator(std::nullopt, false),
            absl::UnauthenticatedError("missing bearer token"));
  EXPECT_EQ(auth_.RequireOperator("who-knows", false), absl::UnauthenticatedError("unknown token"));

  const absl::Status denied = absl::PermissionDeniedError("this call needs the operator token");
  EXPECT_EQ(auth_.RequireOperator("service-token-a", false), denied);
  EXPECT_EQ(auth_.RequireOperator("a-seat-token", true), denied);
}

}  // namespace
}  // namespace boneyard
