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

// The tag of one kind of operation of an object that has several in flight (a call's read,
// write, finish, ...): completing it calls owner->Completed(event, ok). The owner declares
// `friend class EventTag<Owner, Event>;` and keeps one tag per event as a member.
template <class Owner, class Event>
class EventTag final : public AsyncTag {
 public:
  EventTag(Owner* owner, Event event) : owner_(owner), event_(event) {}
  void Complete(bool ok) override { owner_->Completed(event_, ok); }

 private:
  Owner* const owner_;
  const Event event_;
};

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_ASYNC_TAG_H_
