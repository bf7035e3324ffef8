#include <catch2/catch.hpp>
#include <map>

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

TEST_CASE("bad launch variables name the variable and the fix", "[launch]") {
  CHECK_THROWS_WITH(detect_launch(env_of({{"CCB_RANK", "4"}, {"CCB_WORLD_SIZE", "4"}})), Catch::Contains("CCB_RANK='4'"));
  CHECK_THROWS_WITH(detect_launch(env_of({{"CCB_RANK", "x"}, {"CCB_WORLD_SIZE", "4"}})), Catch::Contains("not an integer"));
  CHECK_THROWS_WITH(detect_launch(env_of({{"CCB_RANK", "0"}})), Catch::Contains("CCB_WORLD_SIZE is not set"));
  CHECK_THROWS_WITH(detect_launch(env_of({{"CCB_RANK", "0"}, {"CCB_WORLD_SIZE", "2"}, {"CCB_MASTER_PORT", "70000"}})),
                    Catch::Contains("CCB_MASTER_PORT"));
  CHECK_THROWS_WITH(detect_launch(env_of({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "2"}})), Catch::Contains("CCB_MASTER_ADDR"));
}
