# The strategies beyond round_robin and least_load: their distributions on
# example traces (golden files checked against an independent model of the
# documented semantics), the run-wide --seed and --cache-blocks, the
# unknown-load policies, prefix_blocks input errors and the listing.

# shared_prefixes: kv_aware's prefix hit rate against rr's and ll's, and
# weighted_round_robin over weights 2:1:1.
lbsim_cli_test(NAME "report json shared_prefixes"
  ARGS -s rr,ll,kv,wrr --format json traces/examples/shared_prefixes.json
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/shared_prefixes.report.json)
lbsim_cli_test(NAME "decisions shared_prefixes"
  ARGS -s rr,ll,kv,wrr --decisions ${OUT}/shared_prefixes.decisions.jsonl --output ${OUT}/shared_prefixes.report.txt traces/examples/shared_prefixes.json
  EXIT 0 STDOUT_MATCH "^$"
  FILE_GOLDEN ${OUT}/shared_prefixes.decisions.jsonl=${GOLDEN}/shared_prefixes.decisions.jsonl)
lbsim_cli_test(NAME "table shared_prefixes"
  ARGS -s rr,ll,kv traces/examples/shared_prefixes.json
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/shared_prefixes.table.txt)
# A small cache evicts: 5 blocks per Instance, one chat request's worth.
lbsim_cli_test(NAME "decisions shared_prefixes cache-blocks 5"
  ARGS -s kv,rr --cache-blocks 5 --decisions ${OUT}/shared_prefixes.cache5.decisions.jsonl --format json --output ${OUT}/shared_prefixes.cache5.report.json traces/examples/shared_prefixes.json
  EXIT 0 STDOUT_MATCH "^$"
  FILE_GOLDEN ${OUT}/shared_prefixes.cache5.decisions.jsonl=${GOLDEN}/shared_prefixes.cache5.decisions.jsonl
              ${OUT}/shared_prefixes.cache5.report.json=${GOLDEN}/shared_prefixes.cache5.report.json)

# random and power_of_two with the default seed (1), on a pool whose loads
# move with the strategy's own routing.
lbsim_cli_test(NAME "decisions random p2c steady_pool"
  ARGS -s rand,p2c,p2c:replacement=with --decisions ${OUT}/random_p2c.steady_pool.decisions.jsonl --output ${OUT}/random_p2c.steady_pool.txt traces/examples/steady_pool.json
  EXIT 0 STDOUT_MATCH "^$"
  FILE_GOLDEN ${OUT}/random_p2c.steady_pool.decisions.jsonl=${GOLDEN}/random_p2c.steady_pool.decisions.jsonl)
# --seed reaches both and the report echoes it; an inline seed wins.
lbsim_cli_test(NAME "report json seed 7 ties"
  ARGS -s rand,p2c,rand:seed=1 --seed 7 --format json traces/examples/ties.json
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/seed7.ties.report.json)

# The unknown-load policies where one Instance never reports load.
lbsim_cli_test(NAME "decisions unknown policies mixed_known_unknown"
  ARGS -s ll:unknown=zero,ll:unknown=max,p2c:unknown=zero,p2c:unknown=max --decisions ${OUT}/unknown_policies.decisions.jsonl --format json --output ${OUT}/unknown_policies.report.json traces/examples/mixed_known_unknown.json
  EXIT 0 STDOUT_MATCH "^$"
  FILE_GOLDEN ${OUT}/unknown_policies.decisions.jsonl=${GOLDEN}/unknown_policies.decisions.jsonl
              ${OUT}/unknown_policies.report.json=${GOLDEN}/unknown_policies.report.json)

# weighted_round_robin across down, up, remove and re-registration.
lbsim_cli_test(NAME "decisions wrr down_and_back"
  ARGS -s wrr,rr --decisions ${OUT}/wrr.down_and_back.decisions.jsonl --output ${OUT}/wrr.down_and_back.txt traces/examples/down_and_back.json
  EXIT 0 STDOUT_MATCH "^$"
  FILE_GOLDEN ${OUT}/wrr.down_and_back.decisions.jsonl=${GOLDEN}/wrr.down_and_back.decisions.jsonl)

# Every strategy, parameter and default.
lbsim_cli_test(NAME "strategies listing"
  ARGS strategies
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/strategies.txt)
lbsim_cli_test(NAME "list-strategies flag"
  ARGS --list-strategies
  EXIT 0 STDOUT_GOLDEN ${GOLDEN}/strategies.txt)

# Usage errors.
# --seed seeds the strategies too, whose seed parameter stops at 2^53,
# where doubles stop being exact: so does --seed.
lbsim_cli_test(NAME "usage seed out of range for a strategy"
  ARGS -s rand --seed 9007199254740993 traces/examples/ties.json
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: --seed: expected an integer from 0 to 2\\^53, got 9007199254740993 \\(see lbsim --help\\)\n$")
lbsim_cli_test(NAME "usage cache-blocks zero"
  ARGS -s kv --cache-blocks 0 traces/examples/shared_prefixes.json
  EXIT 2 STDERR_MATCH "--cache-blocks: .*0.*" STDERR_LINES 1)
lbsim_cli_test(NAME "usage p2c choices zero"
  ARGS -s p2c:choices=0 traces/examples/ties.json
  EXIT 2 STDERR_MATCH "^lbsim: error: strategy power_of_two: parameter choices: expected an integer >= 1 and <= 1024, got '0'\n$")
lbsim_cli_test(NAME "usage unknown policy"
  ARGS -s ll:unknown=ignore traces/examples/ties.json
  EXIT 2 STDERR_MATCH "^lbsim: error: strategy least_load: parameter unknown: expected one of exclude, zero, max, got 'ignore'\n$")

# Bad prefix_blocks: one line naming file, line or index and field, and no
# output file (said on a second line when --output was given).
lbsim_cli_test(NAME "bad prefix block negative"
  ARGS -s kv --output ${OUT}/bad_prefix.json tests/cli/bad/prefix_block_negative.ndjson
  EXIT 2 STDERR_LINES 2 ABSENT ${OUT}/bad_prefix.json
  STDERR_MATCH "^lbsim: error: tests/cli/bad/prefix_block_negative.ndjson:3: field \"prefix_blocks\\[1\\]\": expected a block id \\(an integer >= 0\\), got -8\nlbsim: no output written \\(--output ${OUT}/bad_prefix.json\\)\n$")
lbsim_cli_test(NAME "bad prefix blocks not an array"
  ARGS -s rr tests/cli/bad/prefix_blocks_not_array.json
  EXIT 2 STDERR_LINES 1
  STDERR_MATCH "^lbsim: error: tests/cli/bad/prefix_blocks_not_array.json: events\\[1\\]: field \"prefix_blocks\": expected an array of block ids \\(integers >= 0\\), got \"1 2\"\n$")
