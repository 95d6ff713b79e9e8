build-asan/src/fit/table.o: src/fit/table.c src/internal.h \
 include/zvmperf/status.h include/zvmperf/model.h include/zvmperf/sim.h \
 include/zvmperf/status.h include/zvmperf/modelfile.h \
 include/zvmperf/model.h src/util/ini.h include/zvmperf/table.h
src/internal.h:
include/zvmperf/status.h:
include/zvmperf/model.h:
include/zvmperf/sim.h:
include/zvmperf/status.h:
include/zvmperf/modelfile.h:
include/zvmperf/model.h:
src/util/ini.h:
include/zvmperf/table.h:
