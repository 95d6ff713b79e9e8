build-asan/src/util/atomic.o: src/util/atomic.c src/internal.h \
 include/zvmperf/status.h include/zvmperf/model.h include/zvmperf/sim.h \
 include/zvmperf/status.h include/zvmperf/modelfile.h \
 include/zvmperf/model.h src/util/atomic.h include/zvmperf/fit.h \
 include/zvmperf/modelfile.h
src/internal.h:
include/zvmperf/status.h:
include/zvmperf/model.h:
include/zvmperf/sim.h:
include/zvmperf/status.h:
include/zvmperf/modelfile.h:
include/zvmperf/model.h:
src/util/atomic.h:
include/zvmperf/fit.h:
include/zvmperf/modelfile.h:
