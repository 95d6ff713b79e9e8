build-asan/src/sweep/plan.o: src/sweep/plan.c src/internal.h \
 include/zvmperf/status.h include/zvmperf/model.h \
 include/zvmperf/status.h include/zvmperf/modelfile.h \
 include/zvmperf/model.h src/sweep/sweep_impl.h include/zvmperf/sweep.h
src/internal.h:
include/zvmperf/status.h:
include/zvmperf/model.h:
include/zvmperf/status.h:
include/zvmperf/modelfile.h:
include/zvmperf/model.h:
src/sweep/sweep_impl.h:
include/zvmperf/sweep.h:
