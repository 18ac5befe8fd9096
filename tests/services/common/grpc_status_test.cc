#include "services/common/grpc_status.h"

#include <optional>
#include <string>

#include "boneyard/v1/execution.pb.h"
#include "gtest/gtest.h"
#include "services/common/internal_error.h"
#include "services/common/status_detail.h"

namespace boneyard {
namespace {

TEST(GrpcStatusTest, OkIsOk) {
  EXPECT_TRUE(ToGrpcStatus(absl::OkStatus()).ok());
  EXPECT_TRUE(FromGrpcStatus(grpc::Status::OK).ok());
}

TEST(GrpcStatusTest, EveryCodeAndMessageRoundTrips) {
  for (int code = 1; code <= 16; ++code) {
    SCOPED_TRACE(code);
    const std::string message = "message for code " + std::to_string(code);
    absl::Status original(static_cast<absl::StatusCode>(code), message);

    grpc::Status converted = ToGrpcStatus(original);
    EXPECT_EQ(static_cast<int>(converted.error_code()), code);
    EXPECT_EQ(converted.error_message(), message);

    EXPECT_EQ(FromGrpcStatus(converted), original);
  }
}

TEST(GrpcStatusTest, NamedCodesMatch) {
  EXPECT_EQ(ToGrpcStatus(absl::NotFoundError("x")).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(ToGrpcStatus(absl::FailedPreconditionError("x")).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(ToGrpcStatus(absl::UnauthenticatedError("x")).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(FromGrpcStatus(grpc::Status(grpc::StatusCode::ABORTED, "stale")),
            absl::AbortedError("stale"));
}

TEST(GrpcStatusTest, NonCanonicalCodesBecomeUnknown) {
  absl::Status odd(static_cast<absl::StatusCode>(42), "odd");
  grpc::Status converted = ToGrpcStatus(odd);
  EXPECT_EQ(converted.error_code(), grpc::StatusCode::UNKNOWN);
  EXPECT_EQ(converted.error_message(), "odd");

  absl::Status back = FromGrpcStatus(grpc::Status(static_cast<grpc::StatusCode>(20), "odder"));
  EXPECT_EQ(back, absl::UnknownError("odder"));
}

// A database's own text (a status marked internal) never leaves: the code stays, the message
// becomes a plain sentence with an error id.
TEST(GrpcStatusTest, InternalTextIsReplacedByAnErrorId) {
  const absl::Status internal = MarkInternal(absl::InvalidArgumentError(
      "the data cannot be stored (SQLSTATE 22P05): unsupported Unicode escape sequence"));
  const grpc::Status sent = ToGrpcStatus(internal);
  EXPECT_EQ(sent.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(sent.error_message().find("SQLSTATE"), std::string::npos) << sent.error_message();
  EXPECT_EQ(sent.error_message().find("Unicode"), std::string::npos) << sent.error_message();
  EXPECT_NE(sent.error_message().find("error id "), std::string::npos) << sent.error_message();
  // Each time a new id, so a client's report points at one log line.
  EXPECT_NE(ToGrpcStatus(internal).error_message(), sent.error_message());

  const grpc::Status unavailable =
      ToGrpcStatus(MarkInternal(absl::UnavailableError("could not connect to server: 127.0.0.1")));
  EXPECT_EQ(unavailable.error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(unavailable.error_message().find("127.0.0.1"), std::string::npos);

  // The service's own messages pass unchanged.
  EXPECT_EQ(ToGrpcStatus(absl::InvalidArgumentError("game: unknown")).error_message(),
            "game: unknown");
  EXPECT_FALSE(IsMarkedInternal(absl::InvalidArgumentError("x")));
}

TEST(GrpcStatusTest, SchemaDetailsTravelAsRichErrorDetailsAndOtherPayloadsStayBehind) {
  absl::Status status = absl::UnavailableError("matches/ab is played by the replica at h:1");
  v1::WrongReplica where;
  where.set_match("matches/ab");
  where.set_address("h:1");
  SetStatusDetail(status, where);
  status.SetPayload("example.com/private", absl::Cord("not for clients"));

  const grpc::Status wire = ToGrpcStatus(status);
  // The trailer is a google.rpc.Status: code, message, the detail as an Any.
  v1::RpcStatus rpc;
  ASSERT_TRUE(rpc.ParseFromString(wire.error_details()));
  EXPECT_EQ(rpc.code(), static_cast<int>(grpc::StatusCode::UNAVAILABLE));
  EXPECT_EQ(rpc.message(), status.message());
  ASSERT_EQ(rpc.details_size(), 1);
  EXPECT_EQ(rpc.details(0).type_url(), "type.googleapis.com/boneyard.v1.WrongReplica");

  const absl::Status back = FromGrpcStatus(wire);
  std::optional<v1::WrongReplica> got = GetStatusDetail<v1::WrongReplica>(back);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->address(), "h:1");
  EXPECT_EQ(got->match(), "matches/ab");
  EXPECT_FALSE(back.GetPayload("example.com/private").has_value());
  // Without details nothing is sent.
  EXPECT_EQ(ToGrpcStatus(absl::UnavailableError("x")).error_details(), "");
}

}  // namespace
}  // namespace boneyard
