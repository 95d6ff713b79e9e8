build-asan/src/fit/validate.o: src/fit/validate.c src/fit/fit_impl.h \
 include/zvmperf/fit.h include/zvmperf/model.h include/zvmperf/sim.h \
 include/zvmperf/status.h include/zvmperf/modelfile.h \
 include/zvmperf/fitfile.h include/zvmperf/fit.h \
 include/zvmperf/modelfile.h include/zvmperf/table.h src/internal.h \
 include/zvmperf/status.h include/zvmperf/model.h \
 src/interval/interval_impl.h include/zvmperf/interval.h \
 include/zvmperf/sweep.h
src/fit/fit_impl.h:
include/zvmperf/fit.h:
include/zvmperf/model.h:
include/zvmperf/sim.h:
include/zvmperf/status.h:
include/zvmperf/modelfile.h:
include/zvmperf/fitfile.h:
include/zvmperf/fit.h:
include/zvmperf/modelfile.h:
include/zvmperf/table.h:
src/internal.h:
include/zvmperf/status.h:
include/zvmperf/model.h:
src/interval/interval_impl.h:
include/zvmperf/interval.h:
include/zvmperf/sweep.h:
