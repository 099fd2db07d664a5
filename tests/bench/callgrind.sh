# Sourced by the instruction-counting benchmarks (instructions.sh,
# testdata-instructions.sh, boundary-instructions.sh): one way of running
# a command under callgrind and reading what it counted.

# counted DIR NAME [VALGRIND_OPTION...] COMMAND...: runs COMMAND under
# callgrind, its output in DIR/run.NAME (and DIR/log.NAME), and prints the
# number of instructions it executed.
counted() {
  local dir=$1 name=$2
  shift 2
  valgrind --tool=callgrind --callgrind-out-file="$dir/cg.$name" "$@" >"$dir/run.$name" 2>"$dir/log.$name"
  grep -m1 '^summary:' "$dir/cg.$name" | awk '{print $2}'
}

# requests_in DIR NAME: the "requests" count the run printed.
requests_in() {
  grep -o '"requests":[0-9]*' "$1/run.$2" | cut -d: -f2
}
