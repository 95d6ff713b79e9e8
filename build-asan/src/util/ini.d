build-asan/src/util/ini.o: src/util/ini.c src/internal.h \
 include/zvmperf/status.h include/zvmperf/model.h include/zvmperf/sim.h \
 include/zvmperf/status.h include/zvmperf/modelfile.h \
 include/zvmperf/model.h src/util/ini.h
src/internal.h:
include/zvmperf/status.h:
include/zvmperf/model.h:
include/zvmperf/sim.h:
include/zvmperf/status.h:
include/zvmperf/modelfile.h:
include/zvmperf/model.h:
src/util/ini.h:
