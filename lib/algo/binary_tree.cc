#include "algo/binary_tree.h"

namespace ccb {
namespace {

int lowest_bit(int r) { return r & -r; }

int highest_power_below(int n) {
  int p = 1;
  while (p * 2 < n) p *= 2;
  return p;
}

// Children of r (r >= 1) in the in-order tree over [1, n): the left subtree spans
// (r - b, r) and the right (r, r + b), b = lowest bit; a right subtree cut by n is
// rooted lower down.
std::vector<int> children_of(int n, int r) {
  if (r == 0) return n > 1 ? std::vector<int>{highest_power_below(n)} : std::vector<int>{};
  std::vector<int> out;
  int half = lowest_bit(r) / 2;
  if (half == 0) return out;
  out.push_back(r - half);
  for (int step = half; step >= 1; step /= 2)
    if (r + step < n) {
      out.push_back(r + step);
      break;
    }
  return out;
}

int parent_of(int n, int r) {
  if (r == 0) return -1;
  // The parent is the unique node listing r as a child; walk up by growing bits.
  for (int b = lowest_bit(r) * 2; b <= 2 * n; b *= 2) {
    int up = (r & ~(b - 1)) | b;  // candidate above, to the right
    int down = r & ~(b - 1);      // candidate above, to the left
    for (int cand : {down, up}) {
      if (cand >= n || cand == r) continue;
      for (int c : children_of(n, cand))
        if (c == r) return cand;
    }
  }
  return 0;
}

}  // namespace

TreeNode binary_tree_node(int n, int rank) { return TreeNode{parent_of(n, rank), children_of(n, rank)}; }

TreeNode double_tree_node(int n, int rank, int tree) {
  if (tree == 0) return binary_tree_node(n, rank);
  auto to_virtual = [n](int r) { return n % 2 == 0 ? n - 1 - r : (r + 1) % n; };
  auto to_real = [n](int v) { return n % 2 == 0 ? n - 1 - v : (v + n - 1) % n; };
  TreeNode t = binary_tree_node(n, to_virtual(rank));
  if (t.parent >= 0) t.parent = to_real(t.parent);
  for (int& c : t.children) c = to_real(c);
  return t;
}

std::vector<int> neighbours(TreeNode node) {
  if (node.parent >= 0) node.children.push_back(node.parent);
  return node.children;
}

TreeNode rooted_tree_node(int n, int rank, int root, bool chain) {
  const int v = (rank - root + n) % n;
  auto real = [&](int virt) { return (virt + root) % n; };
  TreeNode t;
  if (chain) {
    if (v > 0) t.parent = real(v - 1);
    if (v + 1 < n) t.children.push_back(real(v + 1));
    return t;
  }
  t = binary_tree_node(n, v);
  if (t.parent >= 0) t.parent = real(t.parent);
  for (int& c : t.children) c = real(c);
  return t;
}

}  // namespace ccb
