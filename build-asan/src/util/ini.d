build-asan/src/util/ini.o: src/util/ini.c src/internal.h \
 include/zvmperf/zvmperf.h include/zvmperf/status.h \
 include/zvmperf/queue.h include/zvmperf/model.h include/zvmperf/sweep.h \
 include/zvmperf/calibrate.h src/util/ini.h include/zvmperf/status.h
src/internal.h:
include/zvmperf/zvmperf.h:
include/zvmperf/status.h:
include/zvmperf/queue.h:
include/zvmperf/model.h:
include/zvmperf/sweep.h:
include/zvmperf/calibrate.h:
src/util/ini.h:
include/zvmperf/status.h:
