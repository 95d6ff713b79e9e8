build-asan/models/dump.o: models/dump.c models/registry.h \
 include/zvmperf/model.h include/zvmperf/status.h \
 models/../src/internal.h include/zvmperf/zvmperf.h \
 include/zvmperf/queue.h include/zvmperf/model.h include/zvmperf/sweep.h \
 include/zvmperf/calibrate.h
models/registry.h:
include/zvmperf/model.h:
include/zvmperf/status.h:
models/../src/internal.h:
include/zvmperf/zvmperf.h:
include/zvmperf/queue.h:
include/zvmperf/model.h:
include/zvmperf/sweep.h:
include/zvmperf/calibrate.h:
