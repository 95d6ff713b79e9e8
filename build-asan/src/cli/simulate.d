build-asan/src/cli/simulate.o: src/cli/simulate.c src/cli/solve.h \
 src/cli/cli.h include/zvmperf/zvmperf.h include/zvmperf/status.h \
 include/zvmperf/queue.h include/zvmperf/model.h include/zvmperf/sim.h \
 include/zvmperf/modelfile.h include/zvmperf/sweep.h \
 include/zvmperf/table.h include/zvmperf/fit.h include/zvmperf/fitfile.h \
 include/zvmperf/interval.h
src/cli/solve.h:
src/cli/cli.h:
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
