// Tamper-evident page tokens (services/common/page_token.h).
#include "services/common/page_token.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace boneyard {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(PageTokens, RoundTripsItsParts) {
  const PageTokens tokens(PageTokenKey("operator-secret"));
  const std::vector<std::string> parts = {"v1", "muggins", "", std::string("a.b~c\0d", 7)};
  absl::StatusOr<std::vector<std::string>> decoded = tokens.Decode(tokens.Encode(parts));
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(*decoded, parts);
}

// Every character of the token, changed to every other base64url character, is refused: also
// the last, whose unused low bits base64 decoders ignore.
TEST(PageTokens, EveryCharacterChangedToAnyOtherIsRefused) {
  const PageTokens tokens(PageTokenKey("operator-secret"));
  const std::string alphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  for (const char* cursor : {"a", "bb", "ccc", "players"}) {
    const std::string token = tokens.Encode({"v1", cursor});
    ASSERT_TRUE(tokens.Decode(token).ok());
    for (size_t i = 0; i < token.size(); ++i) {
      for (char c : alphabet) {
        if (c == token[i]) continue;
        std::string altered = token;
        altered[i] = c;
        EXPECT_FALSE(tokens.Decode(altered).ok()) << "position " << i << " as " << c;
      }
    }
  }
}

TEST(PageTokens, EveryAlteredCharacterIsRefused) {
  const PageTokens tokens(PageTokenKey("operator-secret"));
  const std::string token = tokens.Encode({"v1", "2", "muggins", "1700000000", "abc"});
  for (size_t i = 0; i < token.size(); ++i) {
    std::string altered = token;
    altered[i] = altered[i] == 'A' ? 'B' : 'A';
    absl::StatusOr<std::vector<std::string>> decoded = tokens.Decode(altered);
    EXPECT_EQ(decoded.status().code(), absl::StatusCode::kInvalidArgument) << "position " << i;
  }
  for (const std::string& bad : {std::string(), std::string("~"), token.substr(0, 10),
                                 token + "A", std::string("djE.bXVnZ2lucw")}) {
    absl::StatusOr<std::vector<std::string>> decoded = tokens.Decode(bad);
    EXPECT_EQ(decoded.status().code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_THAT(std::string(decoded.status().message()), HasSubstr("page_token"));
  }
}

TEST(PageTokens, ATokenOfAnotherDeploymentIsRefused) {
  const PageTokens ours(PageTokenKey("our secret"));
  const PageTokens theirs(PageTokenKey("their secret"));
  EXPECT_FALSE(ours.Decode(theirs.Encode({"v1", "x"})).ok());
  // The same secret makes the same key: tokens outlive a restart and work on every replica.
  const PageTokens restarted(PageTokenKey("our secret"));
  EXPECT_THAT(*restarted.Decode(ours.Encode({"v1", "x"})), ElementsAre("v1", "x"));
}

}  // namespace
}  // namespace boneyard
