build-asan/models/registry.o: models/registry.c models/registry.h \
 include/zvmperf/model.h include/zvmperf/sim.h include/zvmperf/status.h \
 include/zvmperf/modelfile.h include/zvmperf/model.h models/models.def
models/registry.h:
include/zvmperf/model.h:
include/zvmperf/sim.h:
include/zvmperf/status.h:
include/zvmperf/modelfile.h:
include/zvmperf/model.h:
models/models.def:
