build-asan/src/queue/repairman.o: src/queue/repairman.c src/queue/qnet.h \
 src/internal.h include/zvmperf/status.h include/zvmperf/model.h \
 include/zvmperf/sim.h include/zvmperf/status.h \
 include/zvmperf/modelfile.h include/zvmperf/model.h \
 include/zvmperf/queue.h
src/queue/qnet.h:
src/internal.h:
include/zvmperf/status.h:
include/zvmperf/model.h:
include/zvmperf/sim.h:
include/zvmperf/status.h:
include/zvmperf/modelfile.h:
include/zvmperf/model.h:
include/zvmperf/queue.h:
