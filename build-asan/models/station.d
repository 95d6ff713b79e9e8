build-asan/models/station.o: models/station.c models/registry.h \
 include/zvmperf/model.h include/zvmperf/status.h include/zvmperf/queue.h
models/registry.h:
include/zvmperf/model.h:
include/zvmperf/status.h:
include/zvmperf/queue.h:
