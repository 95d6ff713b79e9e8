build-asan/src/sweep/plan.o: src/sweep/plan.c src/internal.h \
 include/zvmperf/zvmperf.h include/zvmperf/status.h \
 include/zvmperf/queue.h include/zvmperf/model.h include/zvmperf/sweep.h \
 include/zvmperf/calibrate.h src/sweep/sweep_impl.h \
 include/zvmperf/sweep.h
src/internal.h:
include/zvmperf/zvmperf.h:
include/zvmperf/status.h:
include/zvmperf/queue.h:
include/zvmperf/model.h:
include/zvmperf/sweep.h:
include/zvmperf/calibrate.h:
src/sweep/sweep_impl.h:
include/zvmperf/sweep.h:
