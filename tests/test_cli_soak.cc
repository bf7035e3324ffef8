// The soak through the command line (--duration): every call checked, a corrupted byte
// reported with its rank and offset while the soak goes on, and Ctrl-C keeping the
// record.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "core/units.h"
#include "json_file.h"
#include "process_util.h"
#include "temp_dir.h"

using namespace ccb;
using namespace ccb::test;
using nlohmann::json;

TEST_CASE("a soak whose data is corrupted reports the first wrong element, rank and offset, and goes on", "[cli][soak]") {
  TempDir tmp;
  const std::string js = tmp.path + "/soak.json";
  // Byte 1000 of rank 1's output flipped after its 5th call: float element 250.
  ProcessResult r = run_process(ccbench({"run", "--np", "2", "--sizes", "64K", "--duration", "2s", "--interval", "0.5",
                                         "--json", js}),
                                {{"CCB_TEST_FAULT", "flip:rank=1,call=5,byte=1000"}});
  INFO(r.output);
  CHECK(r.status == 1);
  CHECK_THAT(r.output, Catch::Contains("soak: first wrong element: rank 1, call 5 (64 KiB)") &&
                           Catch::Contains("byte 1000 of the output (element 250)") &&
                           Catch::Contains("the soak goes on counting"));
  json j = read_json(js);
  CHECK(j["complete"] == true);
  REQUIRE(j["results"].size() == 1);
  const json& res = j["results"][0];
  CHECK(res["wrong"] == 1);  // one element, once: every later call was right again
  CHECK(res["iters"].get<int>() > 5);
  CHECK_THAT(res["soak"]["first_wrong"].get<std::string>(), Catch::Contains("rank 1, call 5"));
  CHECK(res["soak"]["stopped_by"] == "duration");
}

TEST_CASE("Ctrl-C stops a soak cleanly: every rank stops together and the record is kept", "[cli][soak]") {
  TempDir tmp;
  const std::string js = tmp.path + "/soak.json";
  const pid_t launcher = spawn_process(ccbench({"p2p", "--sizes", "64K", "--duration", "1h", "--interval", "0.5", "--json", js}));
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  ::kill(-launcher, SIGINT);  // the terminal's Ctrl-C: the whole process group
  int status = 0;
  const auto t0 = Clock::now();
  for (; !process_gone(launcher) && seconds_since(t0) < 60;) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  REQUIRE(process_gone(launcher));
  waitpid(launcher, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 130);
  json j = read_json(js);
  CHECK(j["complete"] == true);
  REQUIRE(j["results"].size() == 1);
  CHECK(j["results"][0]["collective"] == "p2p_bw");
  CHECK(j["results"][0]["iters"].get<int>() > 0);
  CHECK(j["results"][0]["wrong"] == 0);
  CHECK(j["results"][0]["soak"]["stopped_by"] == "SIGINT");
}

TEST_CASE("bad soak input: one line, exit 2", "[cli][soak][errors]") {
  for (const auto& [args, says] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"run", "--duration", "5x"}, "--duration '5x' must be a length of time up to 30 days"},
           {{"run", "--duration", "31d"}, "up to 30 days"},
           {{"run", "--duration", "1h", "-c", "0"}, "--duration checks every call of the soak: drop -c 0"},
           {{"run", "--duration", "1h", "--repeat", "2"}, "--duration runs one soak"},
           {{"run", "--duration", "1h", "--algo", "ring,tree"}, "--duration soaks one algorithm"},
           {{"run", "--duration", "1h", "--interval", "0"}, "--interval must be between 0.1 and 86400 seconds"},
           {{"p2p", "--forever", "--duration", "1h"}, "--forever and --duration both set the length"},
       }) {
    ProcessResult r = run_process(ccbench(args));
    INFO(r.output);
    CHECK(r.status == 2);
    CHECK_THAT(r.output, Catch::Contains(says));
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
  }
  ProcessResult bad_hook = run_process(ccbench({"run", "--np", "2", "--sizes", "8", "--duration", "1s"}), {{"CCB_TEST_FAULT", "flip"}});
  CHECK(bad_hook.status != 0);
  CHECK_THAT(bad_hook.output, Catch::Contains("CCB_TEST_FAULT='flip' is not flip:rank=R,call=N,byte=B"));
}

TEST_CASE("durations as --duration takes them", "[soak][units]") {
  CHECK(parse_duration_s("90", "--duration") == 90);
  CHECK(parse_duration_s("90s", "--duration") == 90);
  CHECK(parse_duration_s("30m", "--duration") == 1800);
  CHECK(parse_duration_s("8h", "--duration") == 28800);
  CHECK(parse_duration_s("2d", "--duration") == 172800);
  for (const char* bad : {"", "h", "-1", "0", "1.5h", "8 h", "8hh", "99999999999", "1w"})
    CHECK_THROWS_WITH(parse_duration_s(bad, "--duration"), Catch::Contains("--duration"));
  CHECK(format_duration(28800) == "08:00:00");
  CHECK(format_duration(93784) == "1d 02:03:04");
}
