#include "traces/gen/instance_schedule.h"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "base/errors.h"

namespace lbsim {
namespace {

std::string_view KindName(InstanceEventKind k) {
  switch (k) {
    case InstanceEventKind::kUp: return "up";
    case InstanceEventKind::kDown: return "down";
    case InstanceEventKind::kRemove: return "remove";
  }
  return "?";
}

}  // namespace

double QuantizeTime(double t) {
  // So large that t * 1e6 would overflow: no fraction left to round away.
  if (!(std::fabs(t) < 1e300)) return t;
  return std::round(t * 1e6) / 1e6;
}

std::vector<InstanceChange> BuildInstanceSchedule(const GenSpec& spec,
                                                  const std::string& origin) {
  // Source rank breaks time ties: joins, explicit events, flaps.
  struct Ranked {
    InstanceChange change;
    int source = 0;
    std::string field;  // for error messages
  };
  std::vector<Ranked> all;
  auto fail = [&](const std::string& field, const std::string& what) {
    throw InputError(fmt::format("{}: field \"{}\": {}", origin, field, what));
  };
  // Adds a change; returns it for join-specific fields.
  auto add = [&](double at, InstanceEventKind kind, const std::string& instance, int source,
                 std::string field) -> InstanceChange& {
    if (all.size() >= kMaxInstanceChanges)
      fail(field, fmt::format("expands to more than {} instance events", kMaxInstanceChanges));
    Ranked r;
    r.change.at = QuantizeTime(at);
    r.change.kind = kind;
    r.change.instance = instance;
    r.source = source;
    r.field = std::move(field);
    all.push_back(std::move(r));
    return all.back().change;
  };

  for (std::size_t k = 0; k < spec.joins.size(); ++k) {
    const Join& j = spec.joins[k];
    InstanceChange& c = add(j.at, InstanceEventKind::kUp, j.instance, 0,
                            fmt::format("joins[{}].instance", k));
    c.join = true;
    c.speed = j.speed;
    c.weight = j.weight;
    c.reports = j.reports;
  }
  for (std::size_t k = 0; k < spec.events.size(); ++k) {
    const ScheduledEvent& e = spec.events[k];
    add(e.at, e.kind, e.instance, 1, fmt::format("events[{}].instance", k));
  }
  for (std::size_t k = 0; k < spec.flaps.size(); ++k) {
    const Flap& f = spec.flaps[k];
    const std::string field = fmt::format("flapping[{}].instance", k);
    const double until = f.until ? *f.until : spec.until.value_or(0.0);
    for (std::uint64_t n = 0;; ++n) {
      const double down = f.start + static_cast<double>(n) * f.period;
      if (down >= until) break;
      add(down, InstanceEventKind::kDown, f.instance, 2, field);
      if (down + f.down_for < until)
        add(down + f.down_for, InstanceEventKind::kUp, f.instance, 2, field);
    }
  }
  std::stable_sort(all.begin(), all.end(), [](const Ranked& a, const Ranked& b) {
    if (a.change.at != b.change.at) return a.change.at < b.change.at;
    return a.source < b.source;
  });

  // Walk the registrations as the replay will.
  std::set<std::string> registered;
  std::set<std::string> ever;
  for (const std::string& id : InitialInstanceIds(spec)) registered.insert(id), ever.insert(id);
  for (const Ranked& r : all) {
    const InstanceChange& c = r.change;
    if (c.join) {
      if (ever.count(c.instance))
        fail(r.field, fmt::format("expected a new Instance id, got \"{}\" (already an Instance)",
                                  c.instance));
      ever.insert(c.instance);
    }
    if (c.kind == InstanceEventKind::kUp) {
      if (!ever.count(c.instance))
        fail(r.field, fmt::format("expected an initial or joining Instance, got \"{}\"",
                                  c.instance));
      registered.insert(c.instance);
    } else {
      if (!registered.count(c.instance))
        fail(r.field, fmt::format("{} at t={}: \"{}\" is not registered then", KindName(c.kind),
                                  c.at, c.instance));
      if (c.kind == InstanceEventKind::kRemove) registered.erase(c.instance);
    }
  }

  std::vector<InstanceChange> out;
  out.reserve(all.size());
  for (Ranked& r : all) out.push_back(std::move(r.change));
  return out;
}

}  // namespace lbsim
