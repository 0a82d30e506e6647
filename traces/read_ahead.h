#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "traces/instance_table.h"
#include "traces/trace_reader.h"

namespace lbsim {

// Events per hand-over from the reading thread to the visiting one. Larger
// batches mean fewer hand-overs; how far the reader may run ahead is set
// apart, as a number of batches.
inline constexpr std::size_t kReadAheadBatchEvents = 2048;
// ... or fewer: a batch is handed on once its events hold this many bytes
// beyond their fixed size (ids, hints, prefix blocks, lines whose hint is
// left to the visitor), so that the ring holds some 16 MiB of them however
// large the events. With 4 MiB, replays of the Proxy's shape (a 4.4 KB hint
// on every arrival) took 7-15% longer, in 1.7x the memory.
inline constexpr std::size_t kReadAheadBatchBytes = std::size_t{2} << 20;

// Batches the reader may fill before the visitor has taken them: the reader
// runs at most this many times kReadAheadBatchEvents ahead. A reader that
// finds the ring full blocks until half of it is free, and half a ring
// (8,192 events, 1-3 ms of the visitor's work when it is the slower side) covers the time a
// blocked thread takes to get a CPU back. Every batch passes through the
// visiting core's caches once: a deeper ring (32 batches, 4 MiB) pushed
// the strategies' state out of them, and replays of the realistic bench
// trace took ~13% longer, and twice the memory.
inline constexpr std::size_t kReadAheadBatches = 8;

// Reads a trace exactly as ReadTrace does, but with the reading itself
// (file input, JSON scanning, validation) on a second thread that runs up
// to some thousands of events ahead of `visitor`, which stays on
// the calling thread. The visitor sees the same header and events in the
// same order, `table` gets the same ids in the same order, the counts are
// the same, and so is the error: the first one in file order, whether the
// reader or the visitor raised it (a visitor error stops the reader).
// Memory stays bounded: the reader waits when it is a fixed number of
// batches ahead.
//
// Only regular files are read ahead, standard input included when it is
// redirected from one; anything else (a pipe or a device, whose reads could
// block a failed run's exit) is read on the calling thread by ReadTrace
// itself. `progress` hears, on the calling thread, how
// far into the file the events handed to `visitor` are: a slow visitor (an
// exec strategy) is what the progress follows, not the reading.
TraceCounts ReadTraceAhead(const std::string& path, TraceEncoding encoding,
                           InstanceTable& table, TraceVisitor& visitor,
                           TraceProgress* progress = nullptr);

// One of several visitors fed the same trace: `visitor` sees the events as
// ReadTrace would show them with `table` as its table.
struct TraceConsumer {
  InstanceTable* table;
  TraceVisitor* visitor;
};

// Reads a trace once for several visitors, each as if ReadTrace had read
// it for that visitor alone: the reading runs ahead on a thread of its own,
// and every consumer after the first visits the same batches on a thread
// of its own (the first on the calling thread), so their work overlaps.
// Where a visitor fails, the error thrown is the one reading the trace for
// all of them in turn, event by event, would meet first: the earliest in
// file order, at one event the lowest TraceVisitor::FailureRank, then the
// first consumer. Visitors keep nothing in common with one another. Not a
// regular file, or no thread to be had: read on the calling thread, each
// event handed to every visitor in turn. `progress` hears how far the
// first consumer is.
TraceCounts ReadTraceAhead(const std::string& path, TraceEncoding encoding,
                           std::span<const TraceConsumer> consumers,
                           TraceProgress* progress = nullptr);

}  // namespace lbsim
