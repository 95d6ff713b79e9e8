build-asan/src/sweep/axis.o: src/sweep/axis.c src/internal.h \
 include/zvmperf/zvmperf.h include/zvmperf/status.h \
 include/zvmperf/queue.h include/zvmperf/model.h include/zvmperf/sweep.h \
 include/zvmperf/calibrate.h include/zvmperf/sweep.h
src/internal.h:
include/zvmperf/zvmperf.h:
include/zvmperf/status.h:
include/zvmperf/queue.h:
include/zvmperf/model.h:
include/zvmperf/sweep.h:
include/zvmperf/calibrate.h:
include/zvmperf/sweep.h:
