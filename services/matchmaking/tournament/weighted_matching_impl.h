// The body of MaxWeightMatching (weighted_matching.h): a template, so it lives in a header.
//
// The algorithm keeps a matching and dual variables (one per vertex, one per blossom) and
// grows alternating trees along tight edges (slack zero) from every single vertex. Finding an
// edge between two outer vertices either closes an odd cycle (it becomes a blossom, shrunk to
// one outer vertex) or joins two trees (an augmenting path: the matching grows by one edge).
// When no tight edge helps, the duals move by the largest delta that keeps every slack
// non-negative, which makes a new edge tight, expands an inner blossom whose dual reached zero,
// or ends the stage when a single vertex's dual reaches zero (no augmentation can pay).
// Edges are addressed by endpoint numbers: endpoint 2k is edge k's first vertex, 2k+1 its
// second, and p ^ 1 is the other end of the same edge.
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_WEIGHTED_MATCHING_IMPL_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_WEIGHTED_MATCHING_IMPL_H_

#include <algorithm>
#include <cassert>
#include <vector>

namespace boneyard::tournament {
namespace matching_internal {

template <typename W>
class BlossomMatcher {
 public:
  BlossomMatcher(int n, const std::vector<WeightedEdge<W>>& edges)
      : n_(n), edges_(edges), endpoint_(2 * edges.size()), neighbours_(n) {
    for (size_t k = 0; k < edges_.size(); ++k) {
      endpoint_[2 * k] = edges_[k].u;
      endpoint_[2 * k + 1] = edges_[k].v;
      // The endpoint stored for a vertex is the *remote* end of the edge.
      neighbours_[edges_[k].u].push_back(static_cast<int>(2 * k + 1));
      neighbours_[edges_[k].v].push_back(static_cast<int>(2 * k));
    }
    W max_weight{};
    for (const auto& e : edges_) max_weight = std::max(max_weight, e.weight);
    mate_.assign(n_, -1);
    label_.assign(2 * n_, 0);
    label_end_.assign(2 * n_, -1);
    in_blossom_.resize(n_);
    for (int v = 0; v < n_; ++v) in_blossom_[v] = v;
    parent_.assign(2 * n_, -1);
    children_.assign(2 * n_, {});
    base_.assign(2 * n_, -1);
    for (int v = 0; v < n_; ++v) base_[v] = v;
    child_endpoints_.assign(2 * n_, {});
    best_edge_.assign(2 * n_, -1);
    blossom_best_edges_.assign(2 * n_, {});
    has_best_edges_.assign(2 * n_, false);
    for (int b = 2 * n_ - 1; b >= n_; --b) unused_.push_back(b);
    dual_.assign(2 * n_, W{});
    for (int v = 0; v < n_; ++v) dual_[v] = max_weight;
    allowed_.assign(edges_.size(), false);
  }

  std::vector<int> Run() {
    for (int stage = 0; stage < n_; ++stage) {
      if (!Stage()) break;
    }
    std::vector<int> result(n_, -1);
    for (int v = 0; v < n_; ++v) {
      if (mate_[v] >= 0) result[v] = endpoint_[mate_[v]];
    }
    return result;
  }

 private:
  W Slack(int k) const {
    const auto& e = edges_[k];
    return dual_[e.u] + dual_[e.v] - e.weight - e.weight;
  }

  template <typename F>
  void ForLeaves(int b, F&& f) const {
    if (b < n_) {
      f(b);
      return;
    }
    for (int c : children_[b]) ForLeaves(c, f);
  }

  int Wrap(int j, int size) const { return ((j % size) + size) % size; }

  // From child `from` of a blossom's cycle, the way round to its base (child 0) along an even
  // number of edges: forward from an odd position, backward from an even one. `start` is the
  // position to count from (negative going forward) and `trick` picks which end of each
  // child's endpoint the walk uses.
  struct Walk {
    int start;
    int step;
    int trick;
  };
  Walk WalkToBase(const std::vector<int>& childs, int from) const {
    const int size = static_cast<int>(childs.size());
    const int j = static_cast<int>(std::find(childs.begin(), childs.end(), from) - childs.begin());
    if (j & 1) return {j - size, 1, 0};
    return {j, -1, 1};
  }

  void AssignLabel(int w, int t, int p) {
    const int b = in_blossom_[w];
    label_[w] = label_[b] = t;
    label_end_[w] = label_end_[b] = p;
    best_edge_[w] = best_edge_[b] = -1;
    if (t == 1) {
      ForLeaves(b, [&](int v) { queue_.push_back(v); });
    } else {
      const int base = base_[b];
      assert(mate_[base] >= 0);
      AssignLabel(endpoint_[mate_[base]], 1, mate_[base] ^ 1);
    }
  }

  // Walks back from v and w alternately; returns the base of their first common blossom, or
  // -1 when the two paths reach different roots (an augmenting path).
  int ScanBlossom(int v, int w) {
    std::vector<int> path;
    int base = -1;
    while (v != -1 || w != -1) {
      int b = in_blossom_[v];
      if (label_[b] & 4) {
        base = base_[b];
        break;
      }
      path.push_back(b);
      label_[b] = 5;
      if (label_end_[b] == -1) {
        v = -1;
      } else {
        v = endpoint_[label_end_[b]];
        b = in_blossom_[v];
        v = endpoint_[label_end_[b]];
      }
      if (w != -1) std::swap(v, w);
    }
    for (int b : path) label_[b] = 1;
    return base;
  }

  void AddBlossom(int base, int k) {
    int v = edges_[k].u;
    int w = edges_[k].v;
    const int bb = in_blossom_[base];
    int bv = in_blossom_[v];
    int bw = in_blossom_[w];
    const int b = unused_.back();
    unused_.pop_back();
    base_[b] = base;
    parent_[b] = -1;
    parent_[bb] = b;
    std::vector<int> path;
    std::vector<int> endps;
    while (bv != bb) {
      parent_[bv] = b;
      path.push_back(bv);
      endps.push_back(label_end_[bv]);
      v = endpoint_[label_end_[bv]];
      bv = in_blossom_[v];
    }
    path.push_back(bb);
    std::reverse(path.begin(), path.end());
    std::reverse(endps.begin(), endps.end());
    endps.push_back(2 * k);
    while (bw != bb) {
      parent_[bw] = b;
      path.push_back(bw);
      endps.push_back(label_end_[bw] ^ 1);
      w = endpoint_[label_end_[bw]];
      bw = in_blossom_[w];
    }
    children_[b] = path;
    child_endpoints_[b] = endps;
    label_[b] = 1;
    label_end_[b] = label_end_[bb];
    dual_[b] = W{};
    ForLeaves(b, [&](int leaf) {
      if (label_[in_blossom_[leaf]] == 2) queue_.push_back(leaf);
      in_blossom_[leaf] = b;
    });
    // The least-slack edge from the new blossom to each other outer blossom.
    std::vector<int> best_to(2 * n_, -1);
    auto consider = [&](int edge) {
      int i = edges_[edge].u;
      int j = edges_[edge].v;
      if (in_blossom_[j] == b) std::swap(i, j);
      const int bj = in_blossom_[j];
      if (bj != b && label_[bj] == 1 && (best_to[bj] == -1 || Slack(edge) < Slack(best_to[bj]))) {
        best_to[bj] = edge;
      }
    };
    for (int child : path) {
      if (!has_best_edges_[child]) {
        ForLeaves(child, [&](int leaf) {
          for (int p : neighbours_[leaf]) consider(p / 2);
        });
      } else {
        for (int edge : blossom_best_edges_[child]) consider(edge);
      }
      blossom_best_edges_[child].clear();
      has_best_edges_[child] = false;
      best_edge_[child] = -1;
    }
    blossom_best_edges_[b].clear();
    for (int edge : best_to) {
      if (edge != -1) blossom_best_edges_[b].push_back(edge);
    }
    has_best_edges_[b] = true;
    best_edge_[b] = -1;
    for (int edge : blossom_best_edges_[b]) {
      if (best_edge_[b] == -1 || Slack(edge) < Slack(best_edge_[b])) best_edge_[b] = edge;
    }
  }

  void ExpandBlossom(int b, bool end_stage) {
    for (int s : children_[b]) {
      parent_[s] = -1;
      if (s < n_) {
        in_blossom_[s] = s;
      } else if (end_stage && dual_[s].IsZero()) {
        ExpandBlossom(s, end_stage);
      } else {
        ForLeaves(s, [&](int leaf) { in_blossom_[leaf] = s; });
      }
    }
    if (!end_stage && label_[b] == 2) {
      // Relabel the children on the path from the entry child to the base as the tree needs.
      const auto& childs = children_[b];
      const auto& endps = child_endpoints_[b];
      const int size = static_cast<int>(childs.size());
      const int entry = in_blossom_[endpoint_[label_end_[b] ^ 1]];
      auto [j, step, trick] = WalkToBase(childs, entry);
      int p = label_end_[b];
      while (j != 0) {
        label_[endpoint_[p ^ 1]] = 0;
        label_[endpoint_[endps[Wrap(j - trick, size)] ^ trick ^ 1]] = 0;
        AssignLabel(endpoint_[p ^ 1], 2, p);
        allowed_[endps[Wrap(j - trick, size)] / 2] = true;
        j += step;
        p = endps[Wrap(j - trick, size)] ^ trick;
        allowed_[p / 2] = true;
        j += step;
      }
      int bv = childs[Wrap(j, size)];
      label_[endpoint_[p ^ 1]] = label_[bv] = 2;
      label_end_[endpoint_[p ^ 1]] = label_end_[bv] = p;
      best_edge_[bv] = -1;
      j += step;
      while (childs[Wrap(j, size)] != entry) {
        bv = childs[Wrap(j, size)];
        if (label_[bv] == 1) {
          j += step;
          continue;
        }
        int labelled = -1;
        ForLeaves(bv, [&](int leaf) {
          if (labelled == -1 && label_[leaf] != 0) labelled = leaf;
        });
        if (labelled != -1) {
          label_[labelled] = 0;
          label_[endpoint_[mate_[base_[bv]]]] = 0;
          AssignLabel(labelled, 2, label_end_[labelled]);
        }
        j += step;
      }
    }
    label_[b] = label_end_[b] = -1;
    children_[b].clear();
    child_endpoints_[b].clear();
    base_[b] = -1;
    blossom_best_edges_[b].clear();
    has_best_edges_[b] = false;
    best_edge_[b] = -1;
    unused_.push_back(b);
  }

  // Swaps matched and unmatched edges along the even path from v to the base of blossom b.
  void AugmentBlossom(int b, int v) {
    int t = v;
    while (parent_[t] != b) t = parent_[t];
    if (t >= n_) AugmentBlossom(t, v);
    auto& childs = children_[b];
    auto& endps = child_endpoints_[b];
    const int size = static_cast<int>(childs.size());
    const int i = static_cast<int>(std::find(childs.begin(), childs.end(), t) - childs.begin());
    auto [j, step, trick] = WalkToBase(childs, t);
    while (j != 0) {
      j += step;
      t = childs[Wrap(j, size)];
      const int p = endps[Wrap(j - trick, size)] ^ trick;
      if (t >= n_) AugmentBlossom(t, endpoint_[p]);
      j += step;
      t = childs[Wrap(j, size)];
      if (t >= n_) AugmentBlossom(t, endpoint_[p ^ 1]);
      mate_[endpoint_[p]] = p ^ 1;
      mate_[endpoint_[p ^ 1]] = p;
    }
    std::rotate(childs.begin(), childs.begin() + i, childs.end());
    std::rotate(endps.begin(), endps.begin() + i, endps.end());
    base_[b] = base_[childs[0]];
  }

  void AugmentMatching(int k) {
    const int ends[2][2] = {{edges_[k].u, 2 * k + 1}, {edges_[k].v, 2 * k}};
    for (const auto& start : ends) {
      int s = start[0];
      int p = start[1];
      while (true) {
        const int bs = in_blossom_[s];
        if (bs >= n_) AugmentBlossom(bs, s);
        mate_[s] = p;
        if (label_end_[bs] == -1) break;
        const int t = endpoint_[label_end_[bs]];
        const int bt = in_blossom_[t];
        s = endpoint_[label_end_[bt]];
        const int j = endpoint_[label_end_[bt] ^ 1];
        if (bt >= n_) AugmentBlossom(bt, j);
        mate_[j] = label_end_[bt];
        p = label_end_[bt] ^ 1;
      }
    }
  }

  // One stage: grow trees until the matching is augmented (true) or no augmentation can
  // increase the weight (false).
  bool Stage() {
    std::fill(label_.begin(), label_.end(), 0);
    std::fill(best_edge_.begin(), best_edge_.end(), -1);
    for (int b = n_; b < 2 * n_; ++b) {
      blossom_best_edges_[b].clear();
      has_best_edges_[b] = false;
    }
    std::fill(allowed_.begin(), allowed_.end(), false);
    queue_.clear();
    for (int v = 0; v < n_; ++v) {
      if (mate_[v] == -1 && label_[in_blossom_[v]] == 0) AssignLabel(v, 1, -1);
    }
    bool augmented = false;
    while (true) {
      while (!queue_.empty() && !augmented) {
        const int v = queue_.back();
        queue_.pop_back();
        for (int p : neighbours_[v]) {
          const int k = p / 2;
          const int w = endpoint_[p];
          if (in_blossom_[v] == in_blossom_[w]) continue;
          W kslack{};
          if (!allowed_[k]) {
            kslack = Slack(k);
            if (!(W{} < kslack)) allowed_[k] = true;
          }
          if (allowed_[k]) {
            if (label_[in_blossom_[w]] == 0) {
              AssignLabel(w, 2, p ^ 1);
            } else if (label_[in_blossom_[w]] == 1) {
              const int base = ScanBlossom(v, w);
              if (base >= 0) {
                AddBlossom(base, k);
              } else {
                AugmentMatching(k);
                augmented = true;
                break;
              }
            } else if (label_[w] == 0) {
              label_[w] = 2;
              label_end_[w] = p ^ 1;
            }
          } else if (label_[in_blossom_[w]] == 1) {
            const int b = in_blossom_[v];
            if (best_edge_[b] == -1 || kslack < Slack(best_edge_[b])) best_edge_[b] = k;
          } else if (label_[w] == 0) {
            if (best_edge_[w] == -1 || kslack < Slack(best_edge_[w])) best_edge_[w] = k;
          }
        }
      }
      if (augmented) break;

      // No tight edge helps: find how far the duals can move.
      int delta_type = 1;
      W delta = dual_[0];
      for (int v = 1; v < n_; ++v) delta = std::min(delta, dual_[v]);
      int delta_edge = -1;
      int delta_blossom = -1;
      for (int v = 0; v < n_; ++v) {
        if (label_[in_blossom_[v]] == 0 && best_edge_[v] != -1) {
          const W d = Slack(best_edge_[v]);
          if (d < delta) {
            delta = d;
            delta_type = 2;
            delta_edge = best_edge_[v];
          }
        }
      }
      for (int b = 0; b < 2 * n_; ++b) {
        if (parent_[b] == -1 && label_[b] == 1 && best_edge_[b] != -1) {
          const W d = Slack(best_edge_[b]).Half();
          if (d < delta) {
            delta = d;
            delta_type = 3;
            delta_edge = best_edge_[b];
          }
        }
      }
      for (int b = n_; b < 2 * n_; ++b) {
        if (base_[b] >= 0 && parent_[b] == -1 && label_[b] == 2 && dual_[b] < delta) {
          delta = dual_[b];
          delta_type = 4;
          delta_blossom = b;
        }
      }
      for (int v = 0; v < n_; ++v) {
        if (label_[in_blossom_[v]] == 1) {
          dual_[v] = dual_[v] - delta;
        } else if (label_[in_blossom_[v]] == 2) {
          dual_[v] = dual_[v] + delta;
        }
      }
      for (int b = n_; b < 2 * n_; ++b) {
        if (base_[b] >= 0 && parent_[b] == -1) {
          if (label_[b] == 1) {
            dual_[b] = dual_[b] + delta;
          } else if (label_[b] == 2) {
            dual_[b] = dual_[b] - delta;
          }
        }
      }
      if (delta_type == 1) break;
      if (delta_type == 2) {
        allowed_[delta_edge] = true;
        int i = edges_[delta_edge].u;
        if (label_[in_blossom_[i]] == 0) i = edges_[delta_edge].v;
        queue_.push_back(i);
      } else if (delta_type == 3) {
        allowed_[delta_edge] = true;
        queue_.push_back(edges_[delta_edge].u);
      } else {
        ExpandBlossom(delta_blossom, false);
      }
    }
    if (!augmented) return false;
    for (int b = n_; b < 2 * n_; ++b) {
      if (parent_[b] == -1 && base_[b] >= 0 && label_[b] == 1 && dual_[b].IsZero()) {
        ExpandBlossom(b, true);
      }
    }
    return true;
  }

  const int n_;
  const std::vector<WeightedEdge<W>>& edges_;
  std::vector<int> endpoint_;
  std::vector<std::vector<int>> neighbours_;
  std::vector<int> mate_;        // the remote endpoint of each vertex's matched edge, or -1
  std::vector<int> label_;       // 0 free, 1 outer (S), 2 inner (T); 5 marks a scan
  std::vector<int> label_end_;   // the endpoint through which the label was reached
  std::vector<int> in_blossom_;  // each vertex's top-level blossom
  std::vector<int> parent_;
  std::vector<std::vector<int>> children_;
  std::vector<int> base_;
  std::vector<std::vector<int>> child_endpoints_;
  std::vector<int> best_edge_;
  std::vector<std::vector<int>> blossom_best_edges_;
  std::vector<bool> has_best_edges_;
  std::vector<int> unused_;
  std::vector<W> dual_;
  std::vector<bool> allowed_;
  std::vector<int> queue_;
};

}  // namespace matching_internal

template <typename W>
std::vector<int> MaxWeightMatching(int vertices, const std::vector<WeightedEdge<W>>& edges) {
  if (vertices == 0 || edges.empty()) return std::vector<int>(vertices, -1);
  return matching_internal::BlossomMatcher<W>(vertices, edges).Run();
}

}  // namespace boneyard::tournament

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_WEIGHTED_MATCHING_IMPL_H_
