#include "bootstrap/local_launcher.h"

#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <thread>

#include "core/error.h"
#include "net/socket_util.h"

namespace ccb {
namespace {

std::vector<pid_t> g_children;  // for the signal handler only

void forward_signal(int sig) {
  for (pid_t p : g_children)
    if (p > 0) ::kill(p, sig);
}

void bind_to_core(int rank) {
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &allowed)) cpus.push_back(c);
  if (cpus.empty()) return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpus[static_cast<size_t>(rank) % cpus.size()], &one);
  sched_setaffinity(0, sizeof one, &one);
}

[[noreturn]] void exec_rank(const LocalLaunch& plan, int rank, int port, const std::string& token, pid_t launcher) {
  // A rank dies with its launcher, even one killed by SIGKILL that can forward nothing;
  // if the launcher died before this line, the parent is no longer the launcher.
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != launcher) _exit(128 + SIGKILL);
  if (plan.bind_cores) bind_to_core(rank);
  setenv("CCB_RANK", std::to_string(rank).c_str(), 1);
  setenv("CCB_WORLD_SIZE", std::to_string(plan.np).c_str(), 1);
  setenv("CCB_MASTER_ADDR", plan.master_addr.c_str(), 1);
  setenv("CCB_MASTER_PORT", std::to_string(port).c_str(), 1);
  setenv("CCB_TOKEN", token.c_str(), 1);
  setenv("CCB_LAUNCHED", "1", 1);
  std::vector<char*> args;
  for (const auto& a : plan.argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  execvp(plan.program.c_str(), args.data());
  std::fprintf(stderr, "ccbench: cannot start rank %d: %s\n", rank, std::strerror(errno));
  _exit(127);
}

std::string describe_status(int status) {
  if (WIFSIGNALED(status)) return std::string("was killed by signal ") + strsignal(WTERMSIG(status));
  return "exited with status " + std::to_string(WEXITSTATUS(status));
}

// "ranks 0-3 exited with status 1", or "rank 2 was killed by signal Killed; ranks 0, 1, 3
// exited with status 1".
std::string failure_summary(std::map<std::string, std::vector<int>> failed) {
  std::string line;
  for (auto& [how, ranks] : failed) {
    std::sort(ranks.begin(), ranks.end());  // in the order they were reaped otherwise
    std::string list;
    const bool run = ranks.size() > 2 && ranks.back() - ranks.front() + 1 == static_cast<int>(ranks.size());
    if (run) list = std::to_string(ranks.front()) + "-" + std::to_string(ranks.back());
    for (size_t i = 0; !run && i < ranks.size(); ++i) list += (i ? ", " : "") + std::to_string(ranks[i]);
    line += (line.empty() ? "" : "; ") + std::string(ranks.size() > 1 ? "ranks " : "rank ") + list + " " + how;
  }
  return line;
}

int status_code(int status) { return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status); }

}  // namespace

int pick_free_port(const std::string& addr) {
  Fd probe = listen_on(resolve_host(addr, 0), 1);
  return local_address_of(probe.get()).port();
}

std::string random_token() {
  std::ifstream urandom("/dev/urandom", std::ios::binary);
  unsigned char bytes[16] = {};
  if (!urandom.read(reinterpret_cast<char*>(bytes), sizeof bytes)) throw_errno("reading /dev/urandom");
  static const char* hex = "0123456789abcdef";
  std::string s;
  for (unsigned char b : bytes) {
    s += hex[b >> 4];
    s += hex[b & 15];
  }
  return s;
}

int run_local_job(const LocalLaunch& plan) {
  if (plan.np < 1) throw_invalid("--np must be at least 1");
  const int port = pick_free_port(plan.master_addr);
  const std::string token = random_token();
  g_children.assign(plan.np, -1);
  std::cout.flush();
  const pid_t launcher = getpid();
  for (int r = 0; r < plan.np; ++r) {
    pid_t pid = fork();
    if (pid < 0) throw_errno("fork");
    if (pid == 0) exec_rank(plan, r, port, token, launcher);
    g_children[r] = pid;
  }
  struct sigaction sa {};
  sa.sa_handler = forward_signal;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);

  int result = 0, alive = plan.np;
  std::map<std::string, std::vector<int>> failed;  // how ranks ended: one line, not one a rank
  Clock::time_point kill_at = Clock::time_point::max();
  while (alive > 0) {
    int status = 0;
    pid_t pid = waitpid(-1, &status, kill_at == Clock::time_point::max() ? 0 : WNOHANG);
    if (pid == 0) {
      if (Clock::now() >= kill_at) {
        print_line_to_stderr("the remaining ranks did not exit in time after a failure; killing them");
        forward_signal(SIGKILL);
        kill_at = Clock::time_point::max();
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      continue;
    }
    if (pid < 0) {
      if (errno == EINTR) continue;
      break;
    }
    --alive;
    for (int r = 0; r < plan.np; ++r) {
      if (g_children[r] != pid) continue;
      g_children[r] = -1;
      if (status == 0) break;
      failed[describe_status(status)].push_back(r);
      if (result == 0) {
        result = status_code(status);
        kill_at = Clock::now() + plan.grace;
      }
    }
  }
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  if (!failed.empty()) print_line_to_stderr(failure_summary(failed));
  return result;
}

}  // namespace ccb
