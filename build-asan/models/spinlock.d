build-asan/models/spinlock.o: models/spinlock.c models/registry.h \
 include/zvmperf/model.h include/zvmperf/sim.h include/zvmperf/status.h \
 include/zvmperf/modelfile.h include/zvmperf/model.h models/models.def \
 src/internal.h include/zvmperf/status.h include/zvmperf/queue.h
models/registry.h:
include/zvmperf/model.h:
include/zvmperf/sim.h:
include/zvmperf/status.h:
include/zvmperf/modelfile.h:
include/zvmperf/model.h:
models/models.def:
src/internal.h:
include/zvmperf/status.h:
include/zvmperf/queue.h:
