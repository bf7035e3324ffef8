#include "algo/tree_allreduce.h"

#include <algorithm>
#include <string>
#include <vector>

#include "algo/binary_tree.h"
#include "core/reduce.h"

namespace ccb {
namespace {

// One tree's share of the work on this rank: its elements, chunks and progress.
struct TreeWork {
  int index = 0;
  TreeNode node;
  size_t begin = 0, count = 0, chunks = 0, chunk_elems = 1;
  std::vector<Connection*> children;
  Connection* parent = nullptr;
  std::vector<std::vector<RequestPtr>> up;  // [child][chunk]
  std::vector<RequestPtr> down;             // [chunk], from the parent
  size_t up_done = 0, down_done = 0;

  size_t chunk_begin(size_t c) const { return begin + c * chunk_elems; }
  size_t chunk_count(size_t c) const { return std::min(chunk_elems, count - c * chunk_elems); }
  bool finished() const { return up_done == chunks && (node.parent < 0 || down_done == chunks); }
  std::string pending() const;
};

std::string TreeWork::pending() const {
  if (up_done < chunks)
    for (const auto& reqs : up)
      if (reqs[up_done]) return "tree allreduce " + reqs[up_done]->describe();
  if (parent && down_done < chunks && down[down_done]) return "tree allreduce " + down[down_done]->describe();
  return {};
}

// Both trees of one call on this rank. Up: a chunk is reduced once every child's part
// arrived (into `slots` scratch slots per child), then passed to the parent or, at the
// root, started down. Down: a chunk from the parent lands in place and is forwarded.
class TreePipeline {
 public:
  TreePipeline(Communicator& comm, const CollectiveArgs& a, const ChunkPolicy& policy);
  void run();

 private:
  void post_up_recv(TreeWork& w, size_t child, size_t c);
  void send_down(TreeWork& w, size_t c);
  bool try_up(TreeWork& w);
  bool try_down(TreeWork& w);
  size_t slot_offset(const TreeWork& w, size_t child, size_t c) const {
    return ((static_cast<size_t>(w.index) * 2 + child) * slots_ + c % slots_) * slot_bytes_;
  }
  size_t bytes_at(size_t elem) const { return elem * esize_; }

  Communicator& comm_;
  const CollectiveArgs& a_;
  const size_t esize_, slots_, chunk_elems_, slot_bytes_;
  const MemoryRegion& scratch_;  // [tree][child][slot]
  std::vector<TreeWork> trees_;
  std::vector<RequestPtr> sends_;
};

TreePipeline::TreePipeline(Communicator& comm, const CollectiveArgs& a, const ChunkPolicy& policy)
    : comm_(comm), a_(a), esize_(dtype_size(a.dtype)), slots_(static_cast<size_t>(std::max(policy.slots, 1))),
      chunk_elems_(std::max<size_t>(1, policy.chunk_bytes / esize_)), slot_bytes_(chunk_elems_ * esize_),
      scratch_(comm.scratch(2 * 2 * slots_ * slot_bytes_)) {
  const size_t half = a.count / 2;
  for (int t = 0; t < 2; ++t) {
    TreeWork w;
    w.index = t;
    w.node = double_tree_node(comm.size(), comm.rank(), t);
    w.begin = t == 0 ? 0 : half;
    w.count = t == 0 ? half : a.count - half;
    w.chunk_elems = chunk_elems_;
    w.chunks = (w.count + chunk_elems_ - 1) / chunk_elems_;
    for (int c : w.node.children) w.children.push_back(&comm.peer(c));
    if (w.node.parent >= 0) w.parent = &comm.peer(w.node.parent);
    trees_.push_back(std::move(w));
  }
  for (TreeWork& w : trees_) {
    w.up.resize(w.children.size());
    for (size_t ch = 0; ch < w.children.size(); ++ch) {
      w.up[ch].resize(w.chunks);
      for (size_t c = 0; c < slots_; ++c) post_up_recv(w, ch, c);
    }
    if (!w.parent) continue;
    w.down.resize(w.chunks);
    for (size_t c = 0; c < w.chunks; ++c)
      w.down[c] = w.parent->irecv(*a.recv.region, a.recv.offset + bytes_at(w.chunk_begin(c)), bytes_at(w.chunk_count(c)),
                                  kTagTreeDown + w.index);
  }
}

void TreePipeline::post_up_recv(TreeWork& w, size_t child, size_t c) {
  if (c < w.chunks)
    w.up[child][c] = w.children[child]->irecv(scratch_, slot_offset(w, child, c), bytes_at(w.chunk_count(c)), kTagTreeUp + w.index);
}

void TreePipeline::send_down(TreeWork& w, size_t c) {
  for (Connection* child : w.children)
    sends_.push_back(child->isend(*a_.recv.region, a_.recv.offset + bytes_at(w.chunk_begin(c)), bytes_at(w.chunk_count(c)),
                                  kTagTreeDown + w.index));
}

bool TreePipeline::try_up(TreeWork& w) {
  const size_t c = w.up_done;
  if (c >= w.chunks) return false;
  for (auto& reqs : w.up)
    if (!reqs[c]->test()) return false;
  const size_t off = bytes_at(w.chunk_begin(c)), cnt = w.chunk_count(c);
  const BufferRef* src = &a_.send;  // a leaf passes its own input up untouched
  for (size_t ch = 0; ch < w.children.size(); ++ch) {
    reduce(a_.recv.data() + off, src->data() + off, scratch_.base() + slot_offset(w, ch, c), cnt, a_.dtype, a_.op);
    src = &a_.recv;
    w.up[ch][c].reset();
    post_up_recv(w, ch, c + slots_);
  }
  if (w.parent) {
    sends_.push_back(w.parent->isend(*src->region, src->offset + off, bytes_at(cnt), kTagTreeUp + w.index));
  } else {
    if (a_.op == ReduceOp::kAvg) divide(a_.recv.data() + off, cnt, a_.dtype, comm_.size());
    send_down(w, c);
  }
  ++w.up_done;
  return true;
}

bool TreePipeline::try_down(TreeWork& w) {
  const size_t c = w.down_done;
  if (!w.parent || c >= w.up_done || !w.down[c]->test()) return false;
  w.down[c].reset();
  send_down(w, c);
  ++w.down_done;
  return true;
}

void TreePipeline::run() {
  auto idle = comm_.waiter().idle_tracker();
  while (!trees_[0].finished() || !trees_[1].finished()) {
    bool moved = false;
    for (TreeWork& w : trees_) moved |= try_up(w);
    for (TreeWork& w : trees_) moved |= try_down(w);
    if (moved) idle.reset();
    else idle.pause([&] {
      for (const TreeWork& w : trees_)
        if (std::string p = w.pending(); !p.empty()) return p;
      return std::string("tree allreduce");
    });
  }
  comm_.waiter().wait_all(sends_);
}

}  // namespace

void TreeAllreduce::run(const CollectiveArgs& a) {
  if (finish_trivial_allreduce(a, comm_.size())) return;
  TreePipeline(comm_, a, policy_).run();
}

}  // namespace ccb
