build-asan/src/modelfile_unc.o: src/modelfile_unc.c src/internal.h \
 include/zvmperf/status.h include/zvmperf/model.h include/zvmperf/sim.h \
 include/zvmperf/status.h include/zvmperf/modelfile.h \
 include/zvmperf/model.h src/modelfile_unc.h src/util/ini.h \
 include/zvmperf/modelfile.h
src/internal.h:
include/zvmperf/status.h:
include/zvmperf/model.h:
include/zvmperf/sim.h:
include/zvmperf/status.h:
include/zvmperf/modelfile.h:
include/zvmperf/model.h:
src/modelfile_unc.h:
src/util/ini.h:
include/zvmperf/modelfile.h:
