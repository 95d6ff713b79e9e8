build-asan/src/model.o: src/model.c src/internal.h \
 include/zvmperf/status.h include/zvmperf/model.h include/zvmperf/sim.h \
 include/zvmperf/status.h include/zvmperf/modelfile.h \
 include/zvmperf/model.h
src/internal.h:
include/zvmperf/status.h:
include/zvmperf/model.h:
include/zvmperf/sim.h:
include/zvmperf/status.h:
include/zvmperf/modelfile.h:
include/zvmperf/model.h:
