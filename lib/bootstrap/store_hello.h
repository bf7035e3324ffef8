// What a process says when it joins a job's rendezvous store, and how the store judges
// it. Pure functions, so the tests and the fuzzer reach every refusal without sockets.
//
// A job has an identity: a token from the launcher's job id (Slurm, torchrun, Open
// MPI) or from CCB_TOKEN, with a label people can read. A job started by hand without
// one has token 0, and anyone local could join it; so every hello also carries a
// fingerprint of what the ranks must agree on (world size, collective, sizes, type,
// transport, ccbench version...). A process of another job, or one started with other
// flags, is refused, and both sides are told what differs:
//   "rank 1 runs --sizes 1M but rank 0 runs --sizes 4M".
//
// Wire form (little-endian): u64 token, i32 rank, then length-prefixed (u16) strings:
// the job label, a field count (u16), and each field's name and value.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ccb::bootstrap {

struct FingerprintField {
  std::string name;   // "--sizes", "world size"; shown before the value
  std::string value;  // "1M,64M"
  bool operator==(const FingerprintField&) const = default;
};
using JobFingerprint = std::vector<FingerprintField>;

struct StoreHello {
  uint64_t token = 0;        // the job's identity; 0: none
  int32_t rank = -1;
  std::string job;           // the identity as people read it: "Slurm job 42.0"; "" for none
  JobFingerprint fingerprint;
};

constexpr size_t kMaxFingerprintFields = 64;
constexpr size_t kMaxFieldValue = 512;  // longer values are shortened with a hash

// Adds a field, shortening a long value to its start and a hash of the whole.
void add_field(JobFingerprint& f, std::string name, std::string value);

std::string encode_hello(const StoreHello& h);
// Throws Error(kProtocol) naming what is malformed.
StoreHello parse_hello(std::string_view payload);

struct HelloVerdict {
  std::string refusal;    // "" when accepted; else one line, for both sides
  bool same_job = false;  // the refused process has this job's non-zero identity: a
                          // rank of ours started wrongly, so the job cannot run
};

// `owner` is the store's own rank 0; `rank_taken`: a process already joined as that rank.
HelloVerdict judge_hello(const StoreHello& owner, int world_size, const StoreHello& joiner, bool rank_taken);

}  // namespace ccb::bootstrap
