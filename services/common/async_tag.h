// What a tag on a gRPC completion queue of ours is, on the server (async_queues.h) and in the
// client (services/client/client_queues.h): the queue's thread calls Complete with the
// operation's outcome.
#ifndef BONEYARD_SERVICES_COMMON_ASYNC_TAG_H_
#define BONEYARD_SERVICES_COMMON_ASYNC_TAG_H_

namespace boneyard {

class AsyncTag {
 public:
  virtual void Complete(bool ok) = 0;

 protected:
  ~AsyncTag() = default;
};

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_ASYNC_TAG_H_
