build-asan/tests/test_calibrated.o: tests/test_calibrated.c tests/tests.h \
 tests/suites.def include/zvmperf/zvmperf.h include/zvmperf/status.h \
 include/zvmperf/queue.h include/zvmperf/model.h include/zvmperf/sim.h \
 include/zvmperf/modelfile.h include/zvmperf/sweep.h \
 include/zvmperf/table.h include/zvmperf/fit.h include/zvmperf/fitfile.h \
 include/zvmperf/interval.h
tests/tests.h:
tests/suites.def:
include/zvmperf/zvmperf.h:
include/zvmperf/status.h:
include/zvmperf/queue.h:
include/zvmperf/model.h:
include/zvmperf/sim.h:
include/zvmperf/modelfile.h:
include/zvmperf/sweep.h:
include/zvmperf/table.h:
include/zvmperf/fit.h:
include/zvmperf/fitfile.h:
include/zvmperf/interval.h:
