build-asan/tests/test_ini.o: tests/test_ini.c tests/tests.h \
 tests/suites.def include/zvmperf/zvmperf.h include/zvmperf/status.h \
 include/zvmperf/queue.h include/zvmperf/model.h include/zvmperf/sweep.h \
 include/zvmperf/calibrate.h src/internal.h src/util/ini.h \
 include/zvmperf/status.h
tests/tests.h:
tests/suites.def:
include/zvmperf/zvmperf.h:
include/zvmperf/status.h:
include/zvmperf/queue.h:
include/zvmperf/model.h:
include/zvmperf/sweep.h:
include/zvmperf/calibrate.h:
src/internal.h:
src/util/ini.h:
include/zvmperf/status.h:
