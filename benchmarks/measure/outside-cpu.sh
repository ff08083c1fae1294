#!/usr/bin/env bash
# What a task manager shows, read from outside: the on-CPU nanoseconds (schedstat) of every thread of
# PID and of its descendants, llama-server and what it starts excepted, plus what they reaped of exited
# children (cutime+cstime, 10 ms ticks). Prints one number, in ms. Independent of the bench's own reader
# (benchmarks/idle.bench.ts treeCpu), which it checks.
set -u
root=$1
declare -A parent comm
for stat in /proc/[0-9]*/stat; do
  # read, not $(cat): a fork per process would make the reading itself take seconds on busy cores
  { read -r line < "$stat"; } 2> /dev/null || continue
  pid=${stat#/proc/}; pid=${pid%/stat}
  name=${line#*(}; name=${name%)*}
  rest=${line##*) }
  read -r _state ppid _ <<< "$rest"
  parent[$pid]=$ppid
  comm[$pid]=$name
done
total_ns=0
reaped_ticks=0
walk() {
  local pid=$1
  [[ ${comm[$pid]:-} == llama-server* ]] && return
  for t in /proc/"$pid"/task/*/schedstat; do
    read -r ns _ < "$t" 2> /dev/null && total_ns=$((total_ns + ns))
  done
  local rest
  { read -r rest < /proc/"$pid"/stat; } 2> /dev/null && {
    rest=${rest##*) }
    # fields after the comm: state ppid ... cutime is the 14th, cstime the 15th of these
    set -- $rest
    reaped_ticks=$((reaped_ticks + ${14} + ${15}))
  }
  local child
  for child in "${!parent[@]}"; do
    [[ ${parent[$child]} == "$pid" ]] && walk "$child"
  done
}
walk "$root"
awk -v ns="$total_ns" -v t="$reaped_ticks" 'BEGIN { printf "%.3f\n", ns / 1e6 + t * 10 }'
