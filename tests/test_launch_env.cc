#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "bootstrap/launch_env.h"
#include "core/error.h"

using namespace ccb;

namespace {
EnvLookup env_of(std::map<std::string, std::string> m) {
  return [m](const std::string& k) -> std::optional<std::string> {
    auto it = m.find(k);
    return it == m.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
}
}  // namespace

TEST_CASE("a plain process is a single rank", "[launch]") {
  LaunchInfo i = detect_launch(env_of({}));
  CHECK(i.world_size == 1);
  CHECK(i.source == "single");
}

TEST_CASE("each launcher's variables are understood", "[launch]") {
  auto c = detect_launch(env_of({{"CCB_RANK", "2"}, {"CCB_WORLD_SIZE", "4"}, {"CCB_MASTER_ADDR", "::1"},
                                 {"CCB_MASTER_PORT", "1234"}, {"CCB_TOKEN", "abc"}}));
  CHECK(c.rank == 2);
  CHECK(c.world_size == 4);
  CHECK(c.master_addr == "::1");
  CHECK(c.master_port == 1234);
  CHECK(c.token == token_from_string("abc"));
  auto t = detect_launch(env_of({{"RANK", "1"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "10.0.0.1"}, {"MASTER_PORT", "29501"}}));
  CHECK(t.source == "torchrun");
  CHECK(t.master_port == 29501);
  auto m = detect_launch(env_of({{"OMPI_COMM_WORLD_RANK", "3"}, {"OMPI_COMM_WORLD_SIZE", "8"}}));
  CHECK(m.use_mpi);
  CHECK(m.rank == 3);
  auto m2 = detect_launch(env_of({{"OMPI_COMM_WORLD_RANK", "0"}, {"OMPI_COMM_WORLD_SIZE", "2"}, {"CCB_MASTER_ADDR", "h"}}));
  CHECK_FALSE(m2.use_mpi);
  auto s = detect_launch(env_of({{"SLURM_PROCID", "5"}, {"SLURM_NTASKS", "6"}, {"CCB_MASTER_ADDR", "node1"}}));
  CHECK(s.source == "slurm");
  CHECK(s.rank == 5);
  auto p = detect_launch(env_of({{"PMI_RANK", "0"}, {"PMI_SIZE", "2"}, {"MASTER_ADDR", "node1"}}));
  CHECK(p.source == "pmi");
}

TEST_CASE("a launcher's own local rank is read, to be checked against the hosts", "[launch]") {
  auto t = detect_launch(env_of({{"RANK", "1"}, {"WORLD_SIZE", "2"}, {"LOCAL_RANK", "1"}}));
  CHECK(t.local_rank_var == "LOCAL_RANK");
  CHECK(t.launcher_local_rank == 1);
  auto s = detect_launch(env_of({{"SLURM_PROCID", "3"}, {"SLURM_NTASKS", "4"}, {"SLURM_LOCALID", "1"}, {"CCB_MASTER_ADDR", "n"}}));
  CHECK(s.local_rank_var == "SLURM_LOCALID");
  CHECK(s.launcher_local_rank == 1);
  auto m = detect_launch(env_of({{"OMPI_COMM_WORLD_RANK", "3"}, {"OMPI_COMM_WORLD_SIZE", "8"}, {"OMPI_COMM_WORLD_LOCAL_RANK", "3"}}));
  CHECK(m.launcher_local_rank == 3);
  // ccbench's own launcher, or a LOCAL_RANK left over from another launcher: nothing to check.
  auto c = detect_launch(env_of({{"CCB_RANK", "0"}, {"CCB_WORLD_SIZE", "2"}, {"LOCAL_RANK", "5"}}));
  CHECK(c.launcher_local_rank == -1);
  CHECK_THROWS_WITH(detect_launch(env_of({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"LOCAL_RANK", "2"}})), Catch::Contains("LOCAL_RANK='2'"));
}

TEST_CASE("bad launch variables name the variable and the fix", "[launch]") {
  CHECK_THROWS_WITH(detect_launch(env_of({{"CCB_RANK", "4"}, {"CCB_WORLD_SIZE", "4"}})), Catch::Contains("CCB_RANK='4'"));
  CHECK_THROWS_WITH(detect_launch(env_of({{"CCB_RANK", "x"}, {"CCB_WORLD_SIZE", "4"}})), Catch::Contains("not an integer"));
  CHECK_THROWS_WITH(detect_launch(env_of({{"CCB_RANK", "0"}})), Catch::Contains("CCB_WORLD_SIZE is not set"));
  CHECK_THROWS_WITH(detect_launch(env_of({{"CCB_RANK", "0"}, {"CCB_WORLD_SIZE", "2"}, {"CCB_MASTER_PORT", "70000"}})),
                    Catch::Contains("CCB_MASTER_PORT"));
  CHECK_THROWS_WITH(detect_launch(env_of({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "2"}})), Catch::Contains("CCB_MASTER_ADDR"));
}

namespace {
// A Slurm that knows three nodes by name, each with its own NodeAddr.
slurm::Directory three_nodes() {
  slurm::Directory d;
  d.expand = [](const std::string& list) {
    if (list != "gpu[1-3]") throw Error(ErrorKind::kInvalidArgument, "unexpected list " + list);
    return std::vector<std::string>{"gpu1", "gpu2", "gpu3"};
  };
  d.address = [](const std::string& node) { return "10.0.0." + node.substr(3); };
  return d;
}
}  // namespace

TEST_CASE("under srun, rank 0's store is the first node's NodeAddr, on a port from the job and step", "[launch][slurm]") {
  const std::map<std::string, std::string> srun{{"SLURM_PROCID", "1"}, {"SLURM_NTASKS", "3"}, {"SLURM_JOB_ID", "4242"},
                                                {"SLURM_STEP_ID", "3"}, {"SLURM_STEP_NODELIST", "gpu[1-3]"},
                                                {"SLURM_JOB_NODELIST", "other[1-9]"}};
  LaunchInfo i = detect_launch(env_of(srun), three_nodes());
  CHECK(i.master_addr == "10.0.0.1");
  CHECK(i.master_port == slurm::kSlurmFirstPort + 242 * 10 + 3);
  CHECK(i.job_label == "Slurm job 4242.3");
  // The job's list when the step has none; the user's address and port win.
  auto without_step = srun;
  without_step.erase("SLURM_STEP_NODELIST");
  without_step["SLURM_JOB_NODELIST"] = "gpu[1-3]";
  CHECK(detect_launch(env_of(without_step), three_nodes()).master_addr == "10.0.0.1");
  auto chosen = srun;
  chosen["CCB_MASTER_ADDR"] = "gpu2";
  chosen["CCB_MASTER_PORT"] = "29999";
  LaunchInfo c = detect_launch(env_of(chosen), three_nodes());
  CHECK(c.master_addr == "gpu2");
  CHECK(c.master_port == 29999);
  chosen["CCB_MASTER_ADDR"] = "10.0.0.3";  // a node's NodeAddr is one of its names
  CHECK(detect_launch(env_of(chosen), three_nodes()).master_addr == "10.0.0.3");
  chosen["CCB_MASTER_ADDR"] = "login1";
  CHECK_THROWS_WITH(detect_launch(env_of(chosen), three_nodes()),
                    Catch::Contains("CCB_MASTER_ADDR=login1 is not a node of this Slurm job (gpu[1-3])"));
  auto no_list = srun;
  no_list.erase("SLURM_STEP_NODELIST");
  no_list.erase("SLURM_JOB_NODELIST");
  CHECK_THROWS_WITH(detect_launch(env_of(no_list), three_nodes()), Catch::Contains("without SLURM_STEP_NODELIST"));
}

TEST_CASE("Slurm store ports: jobs and steps on one node apart, in 10000..19999", "[launch][slurm]") {
  std::set<int> ports;
  for (int job = 100; job < 200; ++job)
    for (int step = 0; step < 10; ++step) {
      const int port = slurm::store_port(std::to_string(job), std::to_string(step));
      CHECK(port >= 10000);
      CHECK(port < 20000);
      ports.insert(port);
    }
  CHECK(ports.size() == 1000);
  CHECK(slurm::store_port("42", "4294967294") >= 10000);  // the batch step's id
  CHECK_THROWS_WITH(slurm::store_port("42x", "0"), Catch::Contains("SLURM_JOB_ID='42x' is not a Slurm id"));
}

TEST_CASE("Slurm's own hostlist expansion", "[launch][slurm]") {
  CHECK(slurm::expand_nodelist("node[01-03,07]") == std::vector<std::string>{"node01", "node02", "node03", "node07"});
  CHECK(slurm::expand_nodelist("a,b[1-2]") == std::vector<std::string>{"a", "b1", "b2"});
  CHECK_THROWS_WITH(slurm::expand_nodelist("node[3-1]"), Catch::Contains("Slurm cannot expand the nodelist 'node[3-1]'"));
}
