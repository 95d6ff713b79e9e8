build-asan/src/sim/net.o: src/sim/net.c src/internal.h \
 include/zvmperf/status.h include/zvmperf/model.h include/zvmperf/sim.h \
 include/zvmperf/status.h include/zvmperf/modelfile.h \
 include/zvmperf/model.h src/sim/sim_impl.h include/zvmperf/queue.h \
 include/zvmperf/sim.h
src/internal.h:
include/zvmperf/status.h:
include/zvmperf/model.h:
include/zvmperf/sim.h:
include/zvmperf/status.h:
include/zvmperf/modelfile.h:
include/zvmperf/model.h:
src/sim/sim_impl.h:
include/zvmperf/queue.h:
include/zvmperf/sim.h:
