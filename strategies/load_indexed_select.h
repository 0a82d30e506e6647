#pragma once

#include <cstddef>
#include <span>

#include "strategies/candidate.h"
#include "strategies/load_index.h"
#include "strategies/load_score.h"
#include "strategies/strategy.h"
#include "strategies/unknown_load.h"

namespace lbsim {

// An IndexedSelect kept as a LoadIndex over the candidates (least_load's
// lowest-score search): the list's changes go to the index, which the
// simulator may also update directly (Loads). The strategy decides in
// SelectIndexed from index().
class LoadIndexedSelect : public IndexedSelect {
 public:
  LoadIndexedSelect(const LoadWeights& weights, UnknownLoad unknown) : index_(weights, unknown) {}

  void Reset(std::span<const Candidate> candidates) override { index_.Reset(candidates); }

  void Update(std::span<const Candidate> candidates, std::size_t slot) override {
    index_.Update(candidates, slot);
  }

  LoadIndex* Loads() override { return &index_; }

 protected:
  LoadIndex& index() { return index_; }

 private:
  LoadIndex index_;
};

}  // namespace lbsim
