build-asan/models/paging.o: models/paging.c models/registry.h \
 include/zvmperf/model.h include/zvmperf/sim.h include/zvmperf/status.h \
 include/zvmperf/modelfile.h include/zvmperf/model.h models/models.def \
 models/paging.h include/zvmperf/queue.h src/internal.h \
 include/zvmperf/status.h
models/registry.h:
include/zvmperf/model.h:
include/zvmperf/sim.h:
include/zvmperf/status.h:
include/zvmperf/modelfile.h:
include/zvmperf/model.h:
models/models.def:
models/paging.h:
include/zvmperf/queue.h:
src/internal.h:
include/zvmperf/status.h:
