# ctest cli.bench.engine: runs `cuzk bench engine` on CPU logical devices at tiny sizes and checks
# the counts in its JSON. Usage: cmake -DCUZK=<cuzk> -DOUT=<json file> [-DEXTRA=<flag>] -P
# bench_engine_smoke.cmake (EXTRA: one more flag, e.g. --presynthesized).
file(REMOVE "${OUT}")
execute_process(
  COMMAND "${CUZK}" bench engine --backend cpu --gpus 2 --workers-per-gpu 2 --log-domain 8 --jobs 2
          --partitions-per-job 3 --winning 2 --winning-log-domain 6 --json "${OUT}" ${EXTRA}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cuzk bench engine exited with ${rc}")
endif()
file(READ "${OUT}" json)

# expect(WANT KEY...): the number at the JSON path KEY... equals WANT.
function(expect want)
  string(JSON got ERROR_VARIABLE err GET "${json}" ${ARGN})
  if(err OR NOT got EQUAL want)
    message(FATAL_ERROR "${ARGN}: '${got}' ${err}, expected ${want}")
  endif()
endfunction()

expect(2 devices)
expect(6 partitions)
expect(6 partitions_proved)
expect(0 failures)
expect(0 retries)
expect(2 winning_post jobs)

# Partitions proved, summed over the devices, and WinningPoSt latencies.
string(JSON n_devices LENGTH "${json}" per_device)
set(proved 0)
math(EXPR last "${n_devices} - 1")
foreach(i RANGE ${last})
  string(JSON p GET "${json}" per_device ${i} partitions)
  math(EXPR proved "${proved} + ${p}")
endforeach()
if(NOT proved EQUAL 6)
  message(FATAL_ERROR "per_device partitions sum to ${proved}, expected 6")
endif()
# Every proof, PoRep and WinningPoSt, is counted once under the worker that made it.
set(by_workers 0)
foreach(i RANGE ${last})
  string(JSON n_workers LENGTH "${json}" per_device ${i} workers_detail)
  if(n_workers GREATER 0)
    math(EXPR wlast "${n_workers} - 1")
    foreach(w RANGE ${wlast})
      string(JSON p GET "${json}" per_device ${i} workers_detail ${w} proofs)
      math(EXPR by_workers "${by_workers} + ${p}")
    endforeach()
  endif()
endforeach()
if(NOT by_workers EQUAL 8)
  message(FATAL_ERROR "workers_detail proofs sum to ${by_workers}, expected 8 (6 partitions, 2 WinningPoSt)")
endif()
# The steady rate is a number where the run had a steady window, else null (never missing).
string(JSON rate_type ERROR_VARIABLE err TYPE "${json}" steady_seconds_per_partition)
if(err OR NOT (rate_type STREQUAL "NUMBER" OR rate_type STREQUAL "NULL"))
  message(FATAL_ERROR "steady_seconds_per_partition: '${rate_type}' ${err}")
endif()
string(JSON n_winning LENGTH "${json}" winning_post latencies_ms)
if(NOT n_winning EQUAL 2)
  message(FATAL_ERROR "${n_winning} WinningPoSt latencies, expected 2")
endif()
message(STATUS "bench engine: 6 partitions on ${n_devices} devices, 2 WinningPoSt latencies, no failures")
