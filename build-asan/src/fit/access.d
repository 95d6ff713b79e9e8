build-asan/src/fit/access.o: src/fit/access.c src/fit/fit_impl.h \
 include/zvmperf/fit.h include/zvmperf/model.h include/zvmperf/sim.h \
 include/zvmperf/status.h include/zvmperf/modelfile.h \
 include/zvmperf/fitfile.h include/zvmperf/fit.h \
 include/zvmperf/modelfile.h include/zvmperf/table.h src/internal.h \
 include/zvmperf/status.h include/zvmperf/model.h
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
