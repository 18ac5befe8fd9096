#include "services/common/grpc_status.h"

#include <string>

#include "gtest/gtest.h"

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

}  // namespace
}  // namespace boneyard
