#pragma once

#include <cstddef>
#include <string>

#include "traces/instance_table.h"
#include "traces/trace_reader.h"

namespace lbsim {

// Events per hand-over from the reading thread to the visiting one. Larger
// batches mean fewer hand-overs; how far the reader may run ahead is set
// apart, as a number of batches.
inline constexpr std::size_t kReadAheadBatchEvents = 2048;

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
// Only regular files are read ahead; anything else (standard input, a
// pipe, whose reads could block a failed run's exit) is read on the calling
// thread by ReadTrace itself. `progress` hears, on the calling thread, how
// far into the file the events handed to `visitor` are: a slow visitor (an
// exec strategy) is what the progress follows, not the reading.
TraceCounts ReadTraceAhead(const std::string& path, TraceEncoding encoding,
                           InstanceTable& table, TraceVisitor& visitor,
                           TraceProgress* progress = nullptr);

// How many CPUs this process may run on: its affinity mask (taskset, a
// container's cpuset), else what the machine has. Reading ahead pays only
// with two or more.
unsigned UsableCpus();

}  // namespace lbsim
