build-asan/src/interval/plan.o: src/interval/plan.c \
 src/interval/interval_impl.h src/internal.h include/zvmperf/status.h \
 include/zvmperf/model.h include/zvmperf/sim.h include/zvmperf/status.h \
 include/zvmperf/modelfile.h include/zvmperf/model.h \
 include/zvmperf/interval.h include/zvmperf/sweep.h
src/interval/interval_impl.h:
src/internal.h:
include/zvmperf/status.h:
include/zvmperf/model.h:
include/zvmperf/sim.h:
include/zvmperf/status.h:
include/zvmperf/modelfile.h:
include/zvmperf/model.h:
include/zvmperf/interval.h:
include/zvmperf/sweep.h:
