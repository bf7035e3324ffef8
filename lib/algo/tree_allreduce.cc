#include "algo/tree_allreduce.h"


#include "algo/binary_tree.h"
#include "core/reduce.h"

namespace ccb {
namespace {

// One tree's share of the work on this rank: its elements, chunks and progress.
struct TreeWork {
  int index;
  TreeNode node;
  size_t begin, count, chunks, chunk_elems;
  std::vector<Connection*> children;
  Connection* parent = nullptr;
  std::vector<std::vector<RequestPtr>> up;  // [child][chunk]
  std::vector<RequestPtr> down;             // [chunk], from the parent
  size_t up_done = 0, down_done = 0;

  size_t chunk_begin(size_t c) const { return begin + c * chunk_elems; }
  size_t chunk_count(size_t c) const { return std::min(chunk_elems, count - c * chunk_elems); }
  bool finished() const { return up_done == chunks && (node.parent < 0 || down_done == chunks); }
};

std::string pending_description(const std::vector<TreeWork>& trees) {
  for (const TreeWork& w : trees) {
    if (w.up_done < w.chunks)
      for (const auto& reqs : w.up)
        if (reqs[w.up_done]) return "tree allreduce " + reqs[w.up_done]->describe();
    if (w.parent && w.down_done < w.chunks && w.down[w.down_done])
      return "tree allreduce " + w.down[w.down_done]->describe();
  }
  return "tree allreduce";
}

}  // namespace

void TreeAllreduce::run(const CollectiveArgs& a) {
  const int n = comm_.size();
  const size_t esize = dtype_size(a.dtype);
  if (finish_trivial_allreduce(a, n)) return;
  const size_t slots = static_cast<size_t>(std::max(policy_.slots, 1));
  const size_t chunk_elems = std::max<size_t>(1, policy_.chunk_bytes / esize);
  const size_t slot_bytes = chunk_elems * esize;
  const MemoryRegion& scratch = comm_.scratch(2 * 2 * slots * slot_bytes);  // [tree][child][slot]
  auto slot_offset = [&](int tree, size_t child, size_t c) { return ((tree * 2 + child) * slots + c % slots) * slot_bytes; };

  const size_t half = a.count / 2;
  std::vector<TreeWork> trees;
  for (int t = 0; t < 2; ++t) {
    size_t begin = t == 0 ? 0 : half, count = t == 0 ? half : a.count - half;
    TreeWork w{t, double_tree_node(n, comm_.rank(), t), begin, count, (count + chunk_elems - 1) / chunk_elems, chunk_elems, {}, nullptr, {}, {}};
    for (int c : w.node.children) w.children.push_back(&comm_.peer(c));
    if (w.node.parent >= 0) w.parent = &comm_.peer(w.node.parent);
    trees.push_back(std::move(w));
  }
  std::vector<RequestPtr> sends;
  auto post_up_recv = [&](TreeWork& w, size_t child, size_t c) {
    if (c < w.chunks)
      w.up[child][c] = w.children[child]->irecv(scratch, slot_offset(w.index, child, c), w.chunk_count(c) * esize, kTagTreeUp + w.index);
  };
  auto send_down = [&](TreeWork& w, size_t c) {
    for (Connection* child : w.children)
      sends.push_back(child->isend(*a.recv.region, a.recv.offset + w.chunk_begin(c) * esize, w.chunk_count(c) * esize, kTagTreeDown + w.index));
  };
  for (TreeWork& w : trees) {
    w.up.resize(w.children.size());
    for (size_t ch = 0; ch < w.children.size(); ++ch) {
      w.up[ch].resize(w.chunks);
      for (size_t c = 0; c < slots; ++c) post_up_recv(w, ch, c);
    }
    if (w.parent) {
      w.down.resize(w.chunks);
      for (size_t c = 0; c < w.chunks; ++c)
        w.down[c] = w.parent->irecv(*a.recv.region, a.recv.offset + w.chunk_begin(c) * esize, w.chunk_count(c) * esize, kTagTreeDown + w.index);
    }
  }

  // Reduce chunk c of tree w once all its children's parts arrived; pass it up (or, at
  // the root, start it down).
  auto try_up = [&](TreeWork& w) {
    size_t c = w.up_done;
    if (c >= w.chunks) return false;
    for (auto& reqs : w.up)
      if (!reqs[c]->test()) return false;
    const size_t off = w.chunk_begin(c) * esize, cnt = w.chunk_count(c);
    const BufferRef* src = &a.send;
    for (size_t ch = 0; ch < w.children.size(); ++ch) {
      reduce(a.recv.data() + off, src->data() + off, scratch.base() + slot_offset(w.index, ch, c), cnt, a.dtype, a.op);
      src = &a.recv;
      w.up[ch][c].reset();
      post_up_recv(w, ch, c + slots);
    }
    if (w.parent) {
      sends.push_back(w.parent->isend(*src->region, src->offset + off, cnt * esize, kTagTreeUp + w.index));
    } else {
      if (a.op == ReduceOp::kAvg) divide(a.recv.data() + off, cnt, a.dtype, n);
      send_down(w, c);
    }
    ++w.up_done;
    return true;
  };
  auto try_down = [&](TreeWork& w) {
    size_t c = w.down_done;
    if (!w.parent || c >= w.up_done || !w.down[c]->test()) return false;
    w.down[c].reset();
    send_down(w, c);
    ++w.down_done;
    return true;
  };

  auto idle = comm_.waiter().idle_tracker();
  while (!trees[0].finished() || !trees[1].finished()) {
    bool moved = false;
    for (TreeWork& w : trees) moved |= try_up(w);
    for (TreeWork& w : trees) moved |= try_down(w);
    if (moved) idle.reset();
    else idle.pause([&] { return pending_description(trees); });
  }
  comm_.waiter().wait_all(sends);
}

}  // namespace ccb
