// The rendezvous store's bookkeeping, with no sockets: which connection is which rank,
// the key/value map, the gathers in progress and the job's failure. The server feeds it
// whole frames and carries out what it answers, so every input can be tested, and
// fuzzed, here. Nothing a client sends can throw out of it: a bad request from a rank
// is answered with kError, and anything from a stranger but a good hello drops it.
//
// Gather (the bootstrap's all-gather and barrier): every rank sends kGather with the
// same round number and its blob; once all have, each gets one kValue holding every
// rank's blob in rank order (u32 length + bytes each), or an empty one for a barrier.
// The answer is built once and shared, so a round costs O(world size) here.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bootstrap/frame.h"
#include "bootstrap/store_hello.h"

namespace ccb::bootstrap {

using ClientId = uint64_t;

struct StoreReply {
  ClientId to;
  FrameType type;
  std::shared_ptr<const std::string> payload;
};

// What the server must do after a frame or an event.
struct StoreActions {
  std::vector<StoreReply> replies;
  std::vector<ClientId> joined;  // now a rank: may send large frames
  std::vector<ClientId> drops;   // close once their replies are sent
  std::vector<std::string> log;  // lines for rank 0's stderr
};

// Splits a gather answer back into the ranks' blobs; throws kProtocol if malformed.
std::vector<std::string> split_gathered(std::string_view payload, int world_size);

class StoreState {
 public:
  StoreState(StoreHello owner, int world_size);

  void on_frame(ClientId c, const Frame& f, StoreActions& out);
  void on_close(ClientId c, StoreActions& out);  // the connection went away
  void fail(const std::string& why, StoreActions& out);

  int world_size() const { return world_size_; }
  int connected_ranks() const { return static_cast<int>(rank_of_.size()); }
  bool all_left() const { return departed_ >= world_size_; }  // the job is over
  const std::string& failure() const { return failure_; }

 private:
  struct Gather {
    std::vector<std::optional<std::string>> blobs;
    int arrived = 0;
    bool return_all = false;
  };
  void hello(ClientId c, const Frame& f, StoreActions& out);
  void request(ClientId c, int rank, const Frame& f, StoreActions& out);
  void set(ClientId c, const std::string& payload, StoreActions& out);
  void get(ClientId c, const std::string& key, StoreActions& out);
  void add(ClientId c, const std::string& payload, StoreActions& out);
  void gather(ClientId c, int rank, const std::string& payload, StoreActions& out);
  void answer_waiters(const std::string& key, StoreActions& out);
  static void send(StoreActions& out, ClientId to, FrameType type, std::string payload);

  StoreHello owner_;
  int world_size_;
  std::map<ClientId, int> rank_of_;        // joined connections
  std::vector<ClientId> client_of_rank_;   // 0: none
  std::vector<bool> done_;
  int departed_ = 0;
  std::map<std::string, std::string> kv_;
  std::map<std::string, std::vector<ClientId>> waiters_;
  std::map<uint64_t, Gather> gathers_;
  std::vector<std::optional<uint64_t>> pending_round_;  // per rank: the gather it waits on
  std::string failure_;
};

}  // namespace ccb::bootstrap
