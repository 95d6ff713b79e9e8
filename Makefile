# zvmperf - top-level Makefile.
#   make            libzvmperf.so (with soname), libzvmperf.a and the zvmperf CLI, in build/
#   make deps       install the Debian packages the build, tests and notebooks need (when missing)
#   make check      every test: CUnit (tests/), CSV transcription check, CLI checks, Python
#   make demo       the main job: calibrate from calibration/, then sweep sweetspot into HDF5
#   make calibrate  refit every fit file in calibration/fits/ and print one summary table
#   make bench      benchmarks (figures printed, nothing asserted on time)
#   make asan       the C and CLI suites built with AddressSanitizer + UBSan (build-asan/)
#   make install    PREFIX=/usr/local DESTDIR=  (headers, libraries, CLI, zvmperf.pc)
#   make clean

# One version source: include/zvmperf/status.h (ZVP_VERSION_STRING); the soname follows MAJOR.
VERSION      := $(shell sed -n 's/^\#define ZVP_VERSION_STRING "\(.*\)"/\1/p' include/zvmperf/status.h)
SOVERSION    := $(firstword $(subst ., ,$(VERSION)))
PREFIX       ?= /usr/local
DESTDIR      ?=
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
BINDIR       ?= $(PREFIX)/bin
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
# Debian's interpreter: the one that sees python3-numpy and python3-h5py.
PYTHON       ?= /usr/bin/python3
PKG_CONFIG   ?= pkg-config
CC           ?= cc

DEPS_PKGS   := gsl hdf5 inih
DEPS_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(DEPS_PKGS) 2>/dev/null)
DEPS_LIBS   := $(shell $(PKG_CONFIG) --libs $(DEPS_PKGS) 2>/dev/null) -lhdf5_hl
CUNIT_CFLAGS:= $(shell $(PKG_CONFIG) --cflags cunit 2>/dev/null)
CUNIT_LIBS  := $(shell $(PKG_CONFIG) --libs cunit 2>/dev/null)
# hdf5_hl lives beside hdf5 on Debian (serial flavour)
HDF5_LIBDIR := $(shell $(PKG_CONFIG) --variable=libdir hdf5 2>/dev/null)

WARN        := -std=c11 -Wall -Wextra -Wpedantic -Wconversion -Wshadow -Wstrict-prototypes \
               -Wno-unused-parameter $(WERROR)
# CI builds with WERROR=-Werror
OPT         ?= -O2 -g
# SAN: sanitizer flags for compile and link (make asan sets them)
SAN         ?=
ALL_CFLAGS  := $(SAN) -fPIC -fopenmp -D_POSIX_C_SOURCE=200809L -Iinclude -Isrc $(WARN) $(OPT) $(DEPS_CFLAGS) $(CFLAGS)
ALL_LDLIBS  := $(SAN) -fopenmp $(DEPS_LIBS) -lm $(LDLIBS)
RPATH       := $(if $(HDF5_LIBDIR),-Wl$(comma)-rpath$(comma)$(HDF5_LIBDIR))

comma       := ,
B           := build
# every .c under src/ (but src/cli/) and models/ is part of the library
LIB_SRC     := $(sort $(shell find src models -name '*.c' ! -path 'src/cli/*'))
CLI_SRC     := $(sort $(shell find src/cli -name '*.c'))
TEST_SRC    := $(wildcard tests/*.c)
BENCH_SRC   := $(wildcard bench/*.c)
LIB_OBJ     := $(LIB_SRC:%.c=$(B)/%.o)
CLI_OBJ     := $(CLI_SRC:%.c=$(B)/%.o)
TEST_OBJ    := $(TEST_SRC:%.c=$(B)/%.o)
BENCH_OBJ   := $(BENCH_SRC:%.c=$(B)/%.o)
BENCH_BINS  := $(BENCH_SRC:bench/%.c=$(B)/%)
# header dependencies are tracked by the compiler (-MMD -MP), one .d file per object
DEPFILES    := $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(BENCH_OBJ:.o=.d)

SONAME      := libzvmperf.so.$(SOVERSION)
SHLIB       := $(B)/libzvmperf.so.$(VERSION)
STLIB       := $(B)/libzvmperf.a
CLI         := $(B)/zvmperf
TESTBIN     := $(B)/test_zvp

.PHONY: all lib cli deps check test test-c test-exports asan test-csv test-cli test-python demo calibrate bench \
        install install-python uninstall clean notebooks

all: lib cli

lib: $(SHLIB) $(B)/libzvmperf.so $(B)/$(SONAME) $(STLIB)
cli: $(CLI)

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CUNIT_CFLAGS) -MMD -MP -c $< -o $@

-include $(DEPFILES)

# Only the public API is exported: the version script lists every zvp_* function declared in
# include/zvmperf/*.h (generated, so a new public function needs no second list).
PUBLIC_HEADERS := $(wildcard include/zvmperf/*.h)
EXPORTS_MAP := $(B)/zvmperf.map
$(EXPORTS_MAP): $(PUBLIC_HEADERS)
	@mkdir -p $(B)
	{ echo '{'; echo '  global:'; \
	  grep -ho '\bzvp_[a-z0-9_]*[[:space:]]*(' $(PUBLIC_HEADERS) | sed 's/[[:space:]]*(//' | sort -u | \
	  sed 's/.*/    &;/'; echo '  local: *;'; echo '};'; } > $@.tmp && mv $@.tmp $@

$(SHLIB): $(LIB_OBJ) $(EXPORTS_MAP)
	$(CC) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=$(EXPORTS_MAP) $(RPATH) -o $@ $(LIB_OBJ) $(ALL_LDLIBS)
$(B)/$(SONAME): $(SHLIB)
	ln -sf $(notdir $(SHLIB)) $@
$(B)/libzvmperf.so: $(B)/$(SONAME)
	ln -sf $(SONAME) $@
$(STLIB): $(LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

$(CLI): $(CLI_OBJ) $(STLIB)
	$(CC) $(RPATH) -o $@ $(CLI_OBJ) $(STLIB) $(ALL_LDLIBS)

$(TESTBIN): $(TEST_OBJ) $(STLIB)
	$(CC) $(RPATH) -o $@ $(TEST_OBJ) $(STLIB) $(CUNIT_LIBS) $(ALL_LDLIBS)

# one program per bench/*.c
$(B)/bench_%: $(B)/bench/bench_%.o $(STLIB)
	$(CC) $(RPATH) -o $@ $< $(STLIB) $(ALL_LDLIBS)

# Debian packages for the build, the tests and the notebooks; installed when missing (as root,
# or with sudo). Run as its own make invocation: the flags above are read from pkg-config.
DEB_PKGS := build-essential pkg-config libgsl-dev libhdf5-dev hdf5-tools libcunit1-dev \
            libinih-dev python3-numpy python3-h5py python3-matplotlib python3-pytest \
            python3-setuptools jupyter-nbconvert python3-ipykernel
deps:
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "deps: all present"; exit 0; fi; \
	echo "deps: installing$$missing"; \
	SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO=sudo; \
	$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing

# ---- tests ------------------------------------------------------------------------------
check: test notebooks
test: test-c test-exports test-csv test-cli test-python

# the shared library exports exactly the functions the public headers declare
test-exports: $(SHLIB) $(EXPORTS_MAP)
	@nm -D --defined-only $(SHLIB) | awk '$$2 == "T" {print $$3}' | sort > $(B)/exports.txt
	@sed -n 's/^    \(zvp_[a-z0-9_]*\);$$/\1/p' $(EXPORTS_MAP) | sort > $(B)/public.txt
	@extra=$$(comm -23 $(B)/exports.txt $(B)/public.txt); missing=$$(comm -13 $(B)/exports.txt $(B)/public.txt); \
	 if [ -n "$$extra$$missing" ]; then echo "exports: not public: $$extra; declared but not defined: $$missing"; exit 1; fi; \
	 echo "exports: $$(wc -l < $(B)/exports.txt) public functions, nothing else"
test-c: $(TESTBIN) $(CLI)
	cd tests && ../$(TESTBIN)

test-csv:
	$(PYTHON) tests/check_csv.py calibration/data ../shared/reports

test-cli: $(CLI)
	sh tests/cli_test.sh $(CLI)
	sh tests/solve_test.sh $(CLI)

test-python: lib
	@if [ -d python-bindings/tests ]; then \
	  PYTHONPATH=python-bindings ZVMPERF_LIB=$(CURDIR)/$(SHLIB) $(PYTHON) -m pytest -q -p no:cacheprovider python-bindings/tests; \
	else echo "python-bindings/tests: none yet"; fi

notebooks: lib
	sh notebooks/run_all.sh $(PYTHON)

# AddressSanitizer + UndefinedBehaviorSanitizer build in build-asan/, then the C and CLI suites
ASAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
asan:
	$(MAKE) --no-print-directory B=build-asan OPT="-O1 -g" SAN="$(ASAN_FLAGS)" build-asan/test_zvp build-asan/zvmperf
	cd tests && ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 ../build-asan/test_zvp
	ASAN_OPTIONS=detect_leaks=1 sh tests/cli_test.sh build-asan/zvmperf
	ASAN_OPTIONS=detect_leaks=1 sh tests/solve_test.sh build-asan/zvmperf

# libFuzzer harnesses (fuzz/README.md), built with clang + ASan + UBSan in build-fuzz/ against
# the library compiled the same way; `make fuzz FUZZ_SECONDS=N` runs each for N seconds on
# build-fuzz/corpus/NAME and fails on any crash, leak, timeout or out-of-memory.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_B       := build-fuzz
FUZZ_NAMES   ?= model_file fit_file csv ini cli_solve cli_eval cli_sweep
FUZZ_SAN     := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
                -fno-omit-frame-pointer
FUZZ_COMMON  := $(FUZZ_B)/fuzz/common.o
# the CLI, its main() renamed so a harness can call it: built from whatever src/cli/ holds
FUZZ_CLI_OBJ := $(CLI_SRC:%.c=$(FUZZ_B)/fuzzcli/%.o)
.PHONY: fuzz fuzz-build
.PRECIOUS: $(FUZZ_B)/fuzz/%.o $(FUZZ_B)/fuzz/fuzz_cli_%.o $(FUZZ_B)/fuzzcli/%.o
fuzz:
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || { echo "make fuzz: $(FUZZ_CC) not found;" \
	  "install it with: apt-get install clang libclang-rt-dev libomp-dev"; exit 1; }
	$(MAKE) --no-print-directory B=$(FUZZ_B) CC=$(FUZZ_CC) OPT="-O1 -g" SAN="$(FUZZ_SAN)" fuzz-build
	sh fuzz/run.sh $(FUZZ_B) $(FUZZ_SECONDS) $(FUZZ_NAMES)
fuzz-build: $(FUZZ_NAMES:%=$(FUZZ_B)/fuzz_%)
$(FUZZ_B)/fuzz/%.o: fuzz/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DZVP_FUZZ_REPO='"$(CURDIR)"' -MMD -MP -c $< -o $@
$(FUZZ_B)/fuzz/fuzz_cli_%.o: fuzz/fuzz_cli.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DZVP_FUZZ_COMMAND='"$*"' -MMD -MP -c $< -o $@
$(FUZZ_B)/fuzzcli/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Dmain=zvp_cli_main_for_fuzz -MMD -MP -c $< -o $@
$(FUZZ_B)/fuzz_cli_%: $(FUZZ_B)/fuzz/fuzz_cli_%.o $(FUZZ_COMMON) $(FUZZ_CLI_OBJ) $(STLIB)
	$(CC) -fsanitize=fuzzer $(RPATH) -o $@ $^ $(ALL_LDLIBS)
$(FUZZ_B)/fuzz_%: $(FUZZ_B)/fuzz/fuzz_%.o $(FUZZ_COMMON) $(STLIB)
	$(CC) -fsanitize=fuzzer $(RPATH) -o $@ $^ $(ALL_LDLIBS)
-include $(wildcard $(FUZZ_B)/fuzz/*.d) $(FUZZ_CLI_OBJ:.o=.d)

# ---- the main job -------------------------------------------------------------------------
DEMO_DIR := results
calibrate: $(CLI)
	@mkdir -p $(DEMO_DIR)
	sh calibration/calibrate_all.sh $(CLI) $(DEMO_DIR)

demo: calibrate
	$(CLI) sweep calibration/params/sweetspot-zvm63.ini --axis storage_gb=256:4096:64 \
	  --axis cpus=16:128:4 -o $(DEMO_DIR)/sweetspot-zvm63-sweep.h5
	$(CLI) sweep calibration/params/sweetspot-zvm64.ini --axis storage_gb=256:4096:64 \
	  --axis cpus=16:128:4 -o $(DEMO_DIR)/sweetspot-zvm64-sweep.h5
	@echo "demo: wrote $(DEMO_DIR)/*.h5"

bench: $(BENCH_BINS) $(CLI)
	sh bench/run.sh $(B) $(CLI)

# ---- install ------------------------------------------------------------------------------
install: all
	install -d $(DESTDIR)$(INCLUDEDIR)/zvmperf $(DESTDIR)$(LIBDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(PKGCONFIGDIR)
	install -m 644 include/zvmperf/*.h $(DESTDIR)$(INCLUDEDIR)/zvmperf/
	install -m 755 $(SHLIB) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(SHLIB)) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libzvmperf.so
	install -m 644 $(STLIB) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(CLI) $(DESTDIR)$(BINDIR)/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(patsubst $(PREFIX)%,$${prefix}%,$(LIBDIR))|' \
	    -e 's|@INCLUDEDIR@|$(patsubst $(PREFIX)%,$${prefix}%,$(INCLUDEDIR))|' \
	    -e 's|@VERSION@|$(VERSION)|' zvmperf.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/zvmperf.pc
	@if [ -d python-bindings/zvmperf ]; then $(MAKE) --no-print-directory install-python; fi

install-python:
	sh python-bindings/install.sh --prefix $(PREFIX) --destdir "$(DESTDIR)" --libdir $(LIBDIR) --python $(PYTHON)

uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/lib/python3*/*-packages/zvmperf
	rm -rf $(DESTDIR)$(INCLUDEDIR)/zvmperf
	rm -f $(DESTDIR)$(LIBDIR)/libzvmperf.* $(DESTDIR)$(BINDIR)/zvmperf $(DESTDIR)$(PKGCONFIGDIR)/zvmperf.pc

clean:
	rm -rf $(B) build-asan $(DEMO_DIR) tests/tmp
