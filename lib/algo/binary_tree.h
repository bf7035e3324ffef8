// NCCL's double binary tree. Tree 0 is an in-order binary tree over ranks 1..n-1
// (a rank's lowest set bit gives its height), with rank 0 as a root of one child.
// Tree 1 is the same shape over renamed ranks: mirrored (n-1-r) when n is even,
// shifted (r+1 mod n) when n is odd. Odd ranks are leaves of tree 0 and interior in
// tree 1, so each rank's links carry about one tree's worth of traffic.
#pragma once
#include <vector>

namespace ccb {

struct TreeNode {
  int parent = -1;            // -1: the root
  std::vector<int> children;  // 0, 1 or 2
};

TreeNode binary_tree_node(int n, int rank);                // tree 0
TreeNode double_tree_node(int n, int rank, int tree);      // tree 0 or 1
// For the rooted collectives (broadcast, reduce): tree 0 over ranks renamed so that
// `root` is 0, or, with `chain`, the path root, root+1, ..., root-1 (each link carries
// the message once: the pipelined shape for large messages).
TreeNode rooted_tree_node(int n, int rank, int root, bool chain);
std::vector<int> neighbours(TreeNode node);  // parent and children

}  // namespace ccb
