#include "services/common/shutdown.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace boneyard {
namespace {

sigset_t TerminationSignals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  return signals;
}

[[noreturn]] void Die(const char* what, int error) {
  std::fprintf(stderr, "boneyard: %s: %s\n", what, std::strerror(error));
  std::abort();
}

}  // namespace

void BlockTerminationSignals() {
  sigset_t signals = TerminationSignals();
  if (int error = pthread_sigmask(SIG_BLOCK, &signals, nullptr); error != 0) {
    Die("pthread_sigmask", error);
  }
}

int WaitForTerminationSignal() {
  sigset_t signals = TerminationSignals();
  int signal_number = 0;
  for (;;) {
    int error = sigwait(&signals, &signal_number);
    if (error == 0) return signal_number;
    if (error != EINTR) Die("sigwait", error);
  }
}

void RequestTermination() {
  if (kill(getpid(), SIGTERM) != 0) Die("kill", errno);
}

}  // namespace boneyard
