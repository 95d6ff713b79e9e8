build-asan/src/sim/stats.o: src/sim/stats.c src/sim/sim_impl.h \
 include/zvmperf/queue.h include/zvmperf/status.h include/zvmperf/sim.h
src/sim/sim_impl.h:
include/zvmperf/queue.h:
include/zvmperf/status.h:
include/zvmperf/sim.h:
