build-asan/src/fit/dependent.o: src/fit/dependent.c \
 src/fit/fitfile_impl.h src/fit/fit_impl.h include/zvmperf/fit.h \
 include/zvmperf/model.h include/zvmperf/sim.h include/zvmperf/status.h \
 include/zvmperf/modelfile.h include/zvmperf/fitfile.h \
 include/zvmperf/fit.h include/zvmperf/modelfile.h \
 include/zvmperf/table.h src/internal.h include/zvmperf/status.h \
 include/zvmperf/model.h src/util/ini.h
src/fit/fitfile_impl.h:
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
src/util/ini.h:
