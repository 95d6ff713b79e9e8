build-asan/tests/test_queue2.o: tests/test_queue2.c tests/tests.h \
 tests/suites.def include/zvmperf/zvmperf.h include/zvmperf/status.h \
 include/zvmperf/queue.h include/zvmperf/model.h include/zvmperf/sweep.h \
 include/zvmperf/calibrate.h include/zvmperf/queue.h
tests/tests.h:
tests/suites.def:
include/zvmperf/zvmperf.h:
include/zvmperf/status.h:
include/zvmperf/queue.h:
include/zvmperf/model.h:
include/zvmperf/sweep.h:
include/zvmperf/calibrate.h:
include/zvmperf/queue.h:
