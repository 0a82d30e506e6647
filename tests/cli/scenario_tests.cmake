# The what-if scenario library (scenarios/whatif/*.gen.json): each spec is
# generated and replayed, and the figures its walkthrough in docs/what-if.md
# explains are checked as relations, so a regression in gen, the service
# model, the stale-metrics view or the detectors fails here.

# lbsim_scenario_test(NAME <name> SPEC <spec> ARGS <replay args>... CHECKS <check>...)
function(lbsim_scenario_test)
  cmake_parse_arguments(T "" "NAME;SPEC" "ARGS;CHECKS" ${ARGN})
  get_filename_component(stem "${T_SPEC}" NAME_WE)
  string(REPLACE ";" "\\;" args "${T_ARGS}")
  string(REPLACE ";" "\\;" checks "${T_CHECKS}")
  string(REPLACE " " "_" file "${T_NAME}")
  set(defs -DLBSIM=$<TARGET_FILE:lbsim> -DWORKDIR=${PROJECT_SOURCE_DIR} -DSPEC=${T_SPEC}
           -DTRACE=${OUT}/${file}.ndjson)
  list(APPEND defs "-DARGS=${args}" "-DCHECKS=${checks}")
  add_test(NAME "scenario: ${T_NAME}"
    COMMAND ${CMAKE_COMMAND} ${defs} -P ${CLI_DIR}/run_scenario_check.cmake)
endfunction()

set(SCENARIOS scenarios/whatif)

# Herding: with snapshots every 2 s visible 1 s later, least_load herds
# (the detector fires) and its p99 is worse than round_robin's; round_robin
# never herds. With the live counter least_load does not herd.
lbsim_scenario_test(NAME "herding under stale snapshots"
  SPEC ${SCENARIOS}/herding.gen.json
  ARGS -s rr,ll --slots 4 --stale-interval 2 --stale-delay 1
  CHECKS "round_robin.herded_decisions == 0"
         "least_load.herded_decisions > 500"
         "least_load.longest_run.length > 30"
         "least_load.what_if.service.latency.p99 > round_robin.what_if.service.latency.p99"
         "least_load.what_if.service.latency.p99 > 10")
lbsim_scenario_test(NAME "herding needs stale snapshots"
  SPEC ${SCENARIOS}/herding.gen.json
  ARGS -s rr,ll --slots 4
  CHECKS "least_load.herded_decisions == 0"
         "least_load.what_if.service.latency.p99 <= round_robin.what_if.service.latency.p99")

# Cold start: inst-5 joins at t=60 and never reports; least_load never
# picks it while the others' loads are known; round_robin gives it its turn.
lbsim_scenario_test(NAME "cold start starves the unknown Instance"
  SPEC ${SCENARIOS}/cold_start.gen.json
  ARGS -s rr,ll --slots 4 --window 60
  CHECKS "least_load.selections.inst-5 == 0"
         "least_load.unknown_load.decisions.inst-5 > 1000"
         "least_load.what_if.windows.2.share.inst-5 == 0"
         "round_robin.what_if.windows.2.share.inst-5 > 0.19"
         "least_load.what_if.instances.inst-5.inflight_peak == 0")

# Failure and recovery: inst-2 takes nothing while down (windows [60,90)),
# returns to its quarter under round_robin; least_load keeps the survivors
# level and its p99 below round_robin's. With stale snapshots least_load
# overshoots onto the returning Instance.
lbsim_scenario_test(NAME "failure and recovery"
  SPEC ${SCENARIOS}/failure_recovery.gen.json
  ARGS -s rr,ll --slots 4 --window 10
  CHECKS "round_robin.what_if.windows.7.share.inst-2 == 0"
         "least_load.what_if.windows.7.share.inst-2 == 0"
         "round_robin.what_if.windows.9.share.inst-2 > 0.24"
         "round_robin.what_if.windows.9.share.inst-2 < 0.26"
         "round_robin.what_if.windows.7.mean_inflight.inst-3 > 10"
         "least_load.what_if.windows.7.mean_inflight.inst-3 < 10"
         "least_load.what_if.service.latency.p99 < round_robin.what_if.service.latency.p99")
lbsim_scenario_test(NAME "failure and recovery with stale snapshots"
  SPEC ${SCENARIOS}/failure_recovery.gen.json
  ARGS -s rr,ll --slots 4 --window 10 --stale-interval 5 --stale-delay 1
  CHECKS "least_load.what_if.windows.9.share.inst-2 > 0.6"
         "least_load.herded_decisions > 500"
         "least_load.what_if.service.latency.p99 > round_robin.what_if.service.latency.p99")

# Heterogeneous speeds: least_load's live counter sees the speed-3 Instance
# drain faster and sends it more; its p99 beats round_robin's.
lbsim_scenario_test(NAME "heterogeneous speeds"
  SPEC ${SCENARIOS}/heterogeneous_speeds.gen.json
  ARGS -s rr,ll --slots 4
  CHECKS "round_robin.share.inst-4 < 0.26"
         "least_load.share.inst-4 > 0.4"
         "least_load.what_if.service.latency.p99 < round_robin.what_if.service.latency.p99"
         "least_load.what_if.service.mean_queue_wait < round_robin.what_if.service.mean_queue_wait")

# The LLM engine model's walkthroughs (docs/engine.md) on the Mooncake-shaped
# spec: kv_aware's prefix hits beat round_robin's and least_load's and turn
# into lower TTFT and E2E; least_load's count of requests still streaming
# (BLIS's output processing) makes it worse than round_robin; engine
# signals make least_load's decode weight matter, and late ones herd.
set(ENGINE_SCENARIOS scenarios/engine)
lbsim_scenario_test(NAME "engine prefix hits turn into TTFT"
  SPEC ${ENGINE_SCENARIOS}/mooncake_shaped.gen.json
  ARGS -s rr,ll,kv:cache_blocks=912 --engine llama-3.1-8b-h100
  CHECKS "kv_aware.what_if.engine.prefix_hit_rate > round_robin.what_if.engine.prefix_hit_rate"
         "kv_aware.what_if.engine.prefix_hit_rate > least_load.what_if.engine.prefix_hit_rate"
         "kv_aware.what_if.engine.prefix_hit_rate > 0.4"
         "round_robin.what_if.engine.prefix_hit_rate < 0.35"
         "kv_aware.what_if.engine.ttft.p50 < least_load.what_if.engine.ttft.p50"
         "kv_aware.what_if.engine.ttft.p50 < round_robin.what_if.engine.ttft.p50"
         "round_robin.what_if.engine.ttft.p50 < least_load.what_if.engine.ttft.p50"
         "kv_aware.what_if.engine.e2e.p50 < least_load.what_if.engine.e2e.p50"
         "kv_aware.what_if.engine.kv_utilisation.mean < round_robin.what_if.engine.kv_utilisation.mean"
         "kv_aware.what_if.engine.served == 4000")
lbsim_scenario_test(NAME "engine signals make the decode weight matter"
  SPEC ${ENGINE_SCENARIOS}/mooncake_shaped.gen.json
  ARGS -s ll,ll:active_decode_count=0,ll:active_decode_count=2 --engine llama-3.1-8b-h100
       --signal-interval 0.1
  CHECKS "least_load#2.what_if.engine.ttft.p50 < least_load.what_if.engine.ttft.p50"
         "least_load.what_if.engine.ttft.p50 < least_load#3.what_if.engine.ttft.p50"
         "least_load.what_if.engine.ttft.p99 < least_load#3.what_if.engine.ttft.p99"
         "least_load#2.herded_decisions < least_load.herded_decisions"
         "least_load.herded_decisions < least_load#3.herded_decisions")
lbsim_scenario_test(NAME "engine signals that are late herd"
  SPEC ${ENGINE_SCENARIOS}/mooncake_shaped.gen.json
  ARGS -s rr,ll --engine llama-3.1-8b-h100 --signal-interval 1 --signal-delay 0.5
  CHECKS "least_load.herded_decisions > 1000"
         "least_load.what_if.engine.ttft.p50 > 0.25"
         "round_robin.what_if.engine.ttft.p50 < 0.16")
