#include <catch2/catch.hpp>
#include <set>

#include "algo/binary_tree.h"

using namespace ccb;

namespace {

// Every non-root has a parent that lists it; every rank reaches the root; <= 2 children.
void require_spanning_tree(int n, int tree) {
  int roots = 0;
  for (int r = 0; r < n; ++r) {
    TreeNode node = double_tree_node(n, r, tree);
    REQUIRE(node.children.size() <= 2);
    for (int c : node.children) {
      REQUIRE(c >= 0);
      REQUIRE(c < n);
      REQUIRE(double_tree_node(n, c, tree).parent == r);
    }
    if (node.parent < 0) {
      ++roots;
      continue;
    }
    auto siblings = double_tree_node(n, node.parent, tree).children;
    REQUIRE(std::count(siblings.begin(), siblings.end(), r) == 1);
    std::set<int> seen{r};
    int up = node.parent;
    while (up >= 0) {
      REQUIRE(seen.insert(up).second);  // no cycle
      up = double_tree_node(n, up, tree).parent;
    }
  }
  REQUIRE(roots == 1);
}

}  // namespace

TEST_CASE("both trees span every rank for world sizes 1..64", "[tree]") {
  for (int n = 1; n <= 64; ++n)
    for (int t = 0; t < 2; ++t) {
      INFO("n=" << n << " tree=" << t);
      require_spanning_tree(n, t);
    }
}

TEST_CASE("tree 0 is NCCL's shape: rank 0 on top of the in-order tree", "[tree]") {
  TreeNode root = binary_tree_node(8, 0);
  CHECK(root.parent == -1);
  CHECK(root.children == std::vector<int>{4});
  CHECK(binary_tree_node(8, 4).children == std::vector<int>{2, 6});
  CHECK(binary_tree_node(8, 6).children == std::vector<int>{5, 7});
  CHECK(binary_tree_node(8, 7).children.empty());
  CHECK(binary_tree_node(5, 4).children == std::vector<int>{2});  // right side cut by n
}

TEST_CASE("with an even world, no rank is interior in both trees", "[tree]") {
  for (int n : {2, 4, 8, 16, 32, 64}) {
    for (int r = 0; r < n; ++r) {
      bool inner0 = !double_tree_node(n, r, 0).children.empty() && double_tree_node(n, r, 0).parent >= 0;
      bool inner1 = !double_tree_node(n, r, 1).children.empty() && double_tree_node(n, r, 1).parent >= 0;
      INFO("n=" << n << " r=" << r);
      CHECK_FALSE((inner0 && inner1));
    }
  }
}
