build-asan/models/registry.o: models/registry.c models/registry.h \
 include/zvmperf/model.h include/zvmperf/status.h
models/registry.h:
include/zvmperf/model.h:
include/zvmperf/status.h:
