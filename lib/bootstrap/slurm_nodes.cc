#include "bootstrap/slurm_nodes.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <sstream>

#include "core/error.h"
#include "core/fd.h"

#ifdef CCB_HAVE_SLURM
#include <slurm/slurm.h>
#endif

namespace ccb::slurm {
namespace {

uint64_t id_number(const std::string& text, const char* var) {
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size())
    throw_invalid(std::string(var) + "='" + text + "' is not a Slurm id: set CCB_MASTER_PORT");
  return v;
}

#ifdef CCB_HAVE_SLURM
std::vector<std::string> expand_with_libslurm(const std::string& list) {
  std::unique_ptr<struct hostlist, void (*)(hostlist_t)> hl(slurm_hostlist_create(list.c_str()), slurm_hostlist_destroy);
  std::vector<std::string> nodes;
  if (!hl) return nodes;
  while (char* host = slurm_hostlist_shift(hl.get())) {
    nodes.emplace_back(host);
    std::free(host);
  }
  return nodes;
}

// libslurm reads slurm.conf once per process before its first RPC.
void init_libslurm() {
  static std::once_flag once;
  std::call_once(once, [] { slurm_init(nullptr); });
}

std::string address_with_libslurm(const std::string& node) {
  init_libslurm();
  node_info_msg_t* msg = nullptr;
  std::string name = node;
  if (slurm_load_node_single(&msg, name.data(), SHOW_ALL) != 0 || msg == nullptr || msg->record_count == 0) {
    const std::string why = slurm_strerror(slurm_get_errno());
    if (msg != nullptr) slurm_free_node_info_msg(msg);
    throw_invalid("Slurm does not know node '" + node + "' (" + why + "): set CCB_MASTER_ADDR to rank 0's host");
  }
  const char* addr = msg->node_array[0].node_addr;
  std::string out = addr != nullptr && *addr != '\0' ? addr : node;
  slurm_free_node_info_msg(msg);
  return out;
}
#else
// Runs scontrol with these arguments, no shell between (a nodelist comes from the
// environment); its standard output, at most 1 MiB.
std::string scontrol(const std::vector<std::string>& args, const std::string& what) {
  constexpr size_t kMaxOutput = 1 << 20;
  std::vector<std::string> argv{"scontrol"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (std::string& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  int out_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) throw_errno("pipe for scontrol");
  const pid_t pid = fork();
  if (pid < 0) throw_errno("fork scontrol");
  if (pid == 0) {
    dup2(out_pipe[1], 1);
    const int null = open("/dev/null", O_WRONLY);
    if (null >= 0) dup2(null, 2);
    execvp("scontrol", cargv.data());
    _exit(127);
  }
  close(out_pipe[1]);
  Fd from(out_pipe[0]);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = read(from.get(), buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 || out.size() + static_cast<size_t>(n) > kMaxOutput) break;
    out.append(buf, static_cast<size_t>(n));
  }
  from.reset();
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw_invalid(what + ": scontrol " + args.at(0) + " " + args.at(1) + " failed (is scontrol installed, and SLURM_CONF set?): set CCB_MASTER_ADDR");
  return out;
}
#endif

}  // namespace

std::vector<std::string> expand_nodelist(const std::string& list) {
#ifdef CCB_HAVE_SLURM
  std::vector<std::string> nodes = expand_with_libslurm(list);
#else
  std::vector<std::string> nodes;
  std::istringstream in(scontrol({"show", "hostnames", list}, "nodelist '" + list + "'"));
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) nodes.push_back(line);
#endif
  if (nodes.empty()) throw_invalid("Slurm cannot expand the nodelist '" + list + "': set CCB_MASTER_ADDR to rank 0's host");
  return nodes;
}

std::string node_address(const std::string& node) {
#ifdef CCB_HAVE_SLURM
  return address_with_libslurm(node);
#else
  std::istringstream in(scontrol({"show", "node", node, "--oneliner"}, "node '" + node + "'"));
  std::string word;
  while (in >> word)
    if (word.rfind("NodeAddr=", 0) == 0 && word.size() > 9) return word.substr(9);
  return node;
#endif
}

int store_port(const std::string& job_id, const std::string& step_id) {
  const uint64_t job = id_number(job_id, "SLURM_JOB_ID");
  const uint64_t step = step_id.empty() ? 0 : id_number(step_id, "SLURM_STEP_ID");
  return kSlurmFirstPort + static_cast<int>(job % 1000) * 10 + static_cast<int>(step % 10);
}

}  // namespace ccb::slurm
