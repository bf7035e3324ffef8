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
#include <set>
#include <thread>

namespace ccb::test {

namespace {

// The child's command line and environment, built before fork: between fork and exec a
// child of a threaded process may only make async-signal-safe calls. A malloc there
// (setenv's) can wait forever on a lock another thread held at the fork, as ASan's
// allocator did. The environment is ours without any launcher or job-id variable,
// plus `env`.
struct ChildPlan {
  std::vector<std::string> env_strings;
  std::vector<char*> args, envp;

  ChildPlan(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env) {
    static const std::set<std::string> dropped{
        "CCB_RANK", "CCB_WORLD_SIZE", "CCB_MASTER_ADDR", "CCB_MASTER_PORT", "CCB_TOKEN", "CCB_LAUNCHED", "RANK",
        "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "SLURM_JOB_ID",
        "SLURM_JOBID", "SLURM_STEP_ID", "SLURM_STEPID", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_STEP_NODELIST",
        "SLURM_JOB_NODELIST", "SLURM_NODELIST", "TORCHELASTIC_RUN_ID",
        "OMPI_MCA_ess_base_jobid", "PMIX_NAMESPACE"};
    for (char** e = environ; *e; ++e) {
      const std::string entry(*e), name = entry.substr(0, entry.find('='));
      if (!dropped.count(name) && !env.count(name)) env_strings.push_back(entry);
    }
    for (const auto& [k, v] : env) env_strings.push_back(k + "=" + v);
    for (auto& s : env_strings) envp.push_back(s.data());
    envp.push_back(nullptr);
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
  }
};

// In the child: a process group of its own (so a timeout kills the ranks it forked
// too), output to `out`, then exec. Async-signal-safe calls only.
[[noreturn]] void exec_child(const ChildPlan& plan, int out) {
  setpgid(0, 0);
  dup2(out, 1);
  dup2(out, 2);
  execvpe(plan.args[0], plan.args.data(), plan.envp.data());
  _exit(127);
}

}  // namespace

pid_t spawn_process(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env) {
  const ChildPlan plan(argv, env);
  int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
  pid_t pid = fork();
  if (pid == 0) exec_child(plan, devnull);
  close(devnull);
  return pid;
}

bool process_gone(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  if (!std::getline(in, stat)) return true;
  auto close_paren = stat.rfind(')');
  return close_paren == std::string::npos || stat.substr(close_paren + 2, 1) == "Z";
}

ProcessResult run_process(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                          std::chrono::seconds limit) {
  int pipefd[2];
  if (pipe2(pipefd, O_CLOEXEC) != 0) return {};
  const ChildPlan plan(argv, env);
  auto t0 = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid == 0) exec_child(plan, pipefd[1]);
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

std::vector<pid_t> find_tagged(const std::string& tag, int rank) {
  std::vector<pid_t> found;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(entry.path() / "environ", std::ios::binary);
    std::string env((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (env.find("CCB_TEST_TAG=" + tag + '\0') == std::string::npos) continue;
    if (rank >= 0 && env.find(std::string("CCB_RANK=") + std::to_string(rank) + '\0') == std::string::npos) continue;
    if (!process_gone(static_cast<pid_t>(std::stol(name)))) found.push_back(static_cast<pid_t>(std::stol(name)));
  }
  return found;
}

namespace {

pid_t find_rank(const std::string& tag, int rank) {
  auto found = find_tagged(tag, rank);
  return found.empty() ? -1 : found.front();
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
