#include "process_util.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <thread>

namespace ccb::test {

ProcessResult run_process(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                          std::chrono::seconds limit) {
  int pipefd[2];
  if (pipe2(pipefd, O_CLOEXEC) != 0) return {};
  auto t0 = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);  // its own group, so a timeout kills the ranks it forked too
    dup2(pipefd[1], 1);
    dup2(pipefd[1], 2);
    for (const char* v : {"CCB_RANK", "CCB_WORLD_SIZE", "CCB_MASTER_ADDR", "CCB_MASTER_PORT", "CCB_TOKEN", "CCB_LAUNCHED",
                          "RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"})
      unsetenv(v);
    for (const auto& [k, v] : env) setenv(k.c_str(), v.c_str(), 1);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(pipefd[1]);
  ProcessResult res;
  auto deadline = t0 + limit;
  char buf[4096];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      kill(-pid, SIGKILL);
      break;
    }
    pollfd p{pipefd[0], POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(std::min<long long>(left, 500))) <= 0) continue;
    ssize_t n = read(pipefd[0], buf, sizeof buf);
    if (n <= 0) break;
    res.output.append(buf, static_cast<size_t>(n));
  }
  close(pipefd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  kill(-pid, SIGKILL);  // stragglers of the group, if any
  res.status = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

namespace {

// The pid of the process whose environment holds both `tag` and CCB_RANK=rank.
pid_t find_rank(const std::string& tag, int rank) {
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::ifstream in(entry.path() / "environ", std::ios::binary);
    std::string env((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (env.find("CCB_TEST_TAG=" + tag) != std::string::npos &&
        env.find(std::string("CCB_RANK=") + std::to_string(rank) + '\0') != std::string::npos)
      return static_cast<pid_t>(std::stol(entry.path().filename().string()));
  }
  return -1;
}

}  // namespace

ProcessResult run_and_signal(int sig, const std::string& tag, double timeout_s, const std::vector<std::string>& extra,
                             std::chrono::milliseconds delay) {
  auto job = std::async(std::launch::async, [&] {
    std::vector<std::string> args{CCB_CCBENCH, "run", "--np", "3", "--sizes", "16M", "-n", "100000", "--algo", "ring",
                                  "--timeout", std::to_string(timeout_s)};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_process(args, {{"CCB_TEST_TAG", tag}}, std::chrono::seconds(120));
  });
  pid_t victim = -1;
  for (int i = 0; i < 200 && victim < 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    victim = find_rank(tag, 1);
  }
  if (victim < 0) return job.get();  // the job failed before rank 1 ran
  std::this_thread::sleep_for(delay);
  kill(victim, sig);
  auto t0 = std::chrono::steady_clock::now();
  ProcessResult r = job.get();
  double detect = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "fault " << strsignal(sig) << ": job ended " << detect << " s after the signal\n";
  if (sig == SIGSTOP) kill(victim, SIGKILL);
  return r;
}

}  // namespace ccb::test
