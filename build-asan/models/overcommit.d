build-asan/models/overcommit.o: models/overcommit.c models/registry.h \
 include/zvmperf/model.h include/zvmperf/status.h include/zvmperf/queue.h \
 models/../src/internal.h include/zvmperf/zvmperf.h \
 include/zvmperf/queue.h include/zvmperf/model.h include/zvmperf/sweep.h \
 include/zvmperf/calibrate.h
models/registry.h:
include/zvmperf/model.h:
include/zvmperf/status.h:
include/zvmperf/queue.h:
models/../src/internal.h:
include/zvmperf/zvmperf.h:
include/zvmperf/queue.h:
include/zvmperf/model.h:
include/zvmperf/sweep.h:
include/zvmperf/calibrate.h:
