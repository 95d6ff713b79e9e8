build-asan/src/queue/mva_multi.o: src/queue/mva_multi.c src/queue/qnet.h \
 src/internal.h include/zvmperf/zvmperf.h include/zvmperf/status.h \
 include/zvmperf/queue.h include/zvmperf/model.h include/zvmperf/sweep.h \
 include/zvmperf/calibrate.h
src/queue/qnet.h:
src/internal.h:
include/zvmperf/zvmperf.h:
include/zvmperf/status.h:
include/zvmperf/queue.h:
include/zvmperf/model.h:
include/zvmperf/sweep.h:
include/zvmperf/calibrate.h:
