# sbfs build.  Every .c file under src/ goes into libsbfs.a, every one under
# cli/ into the sbfs binary, every tests/test_*.c becomes a unit-test program
# and every tests/verify_*.c an independent solution checker (which must not
# link the library).  New modules need no change here.
#
#   make            ./sbfs and ./libsbfs.a (optimised)
#   make test       -Werror build, whole suite optimised, then under ASan+UBSan
#   make run        solve the bundled SHIFT puzzle
#   make bench      speed and memory figures
#   make check-random N=20000 SEED=1
#                   the random differential test of the sliding-block
#                   searches on N puzzles (make test draws 2000)
#   make tsan       the threaded unit tests under ThreadSanitizer (clang)
#   make fuzz       libFuzzer targets (clang), FUZZ_TIME seconds each
#   make install PREFIX=/usr/local
#                   the binary, libsbfs.a, libsbfs.so (with its soname
#                   link), headers, sbfs.pc, man page, completions, docs;
#                   LIBDIR, MANDIR, DESTDIR as usual; make uninstall
#   make MPI=1      build/mpi/sbfs, run by mpirun across processes and
#                   machines (needs Open MPI: mpicc); the MPI code is in
#                   mpi/, which no other build compiles
#   make test-mpi   the MPI tests (tests/mpi/run.sh): the same output
#                   under mpirun -np 1..4 as from one process

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/sbfs
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
MPI ?= 0
ifeq ($(MPI),1)
BUILD ?= build/mpi
CC = mpicc
else
BUILD ?= build/opt
endif
SAN ?= 0
WERROR ?= 0
FUZZ_TIME ?= 60
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

CC ?= cc
CXX ?= c++
OPTFLAGS ?= -O2 -g -march=x86-64-v2
ifeq ($(shell uname -m),x86_64)
else
OPTFLAGS = -O2 -g
endif
ifeq ($(SAN),1)
OPTFLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
endif
ifeq ($(SAN),thread)
OPTFLAGS = -O1 -g -fsanitize=thread
endif
WFLAGS = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
ifeq ($(WERROR),1)
WFLAGS += -Werror
endif
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude -pthread $(OPTFLAGS) $(WFLAGS) $(CFLAGS)
LDLIBS = -pthread -lm
# C++ sees the public headers only: the test that they compile as C++ and
# the C++ example.
ALL_CXXFLAGS = -std=c++11 -Iinclude -pthread $(OPTFLAGS) -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror) $(CXXFLAGS)

# The shared library is named after SBFS_VERSION in include/sbfs/core.h;
# its soname carries the major number only, the promise that programs
# linked against 0.x keep working with any later 0.y.
VERSION := $(shell sed -n 's/^\#define SBFS_VERSION "\(.*\)"/\1/p' include/sbfs/core.h)
MAJOR := $(firstword $(subst ., ,$(VERSION)))
SONAME := libsbfs.so.$(MAJOR)

LIB_SRC := $(sort $(wildcard src/*/*.c))
CLI_SRC := $(sort $(wildcard cli/*.c))
ifeq ($(MPI),1)
CLI_SRC += $(sort $(wildcard mpi/*.c))
ALL_CFLAGS += -DSBFS_MPI
endif
TEST_SRC := $(sort $(wildcard tests/test_*.c))
VERIFY_SRC := $(sort $(wildcard tests/verify_*.c))
FUZZ_SRC := $(sort $(wildcard fuzz/fuzz_*.c))
EXAMPLE_SRC := $(sort $(wildcard examples/*.c examples/*.cpp))

LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
PIC_OBJ := $(LIB_SRC:%.c=$(BUILD)/pic/%.o)
SHARED := $(BUILD)/libsbfs.so.$(VERSION) $(BUILD)/$(SONAME) $(BUILD)/libsbfs.so
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/%)
VERIFY_BIN := $(VERIFY_SRC:tests/%.c=$(BUILD)/%)
FUZZ_BIN := $(FUZZ_SRC:fuzz/%.c=build/fuzz/%)
# What make test builds in each of its two builds before running them.
CHECK_BIN = sbfs $(notdir $(TEST_BIN) $(VERIFY_BIN)) test_cxx libsbfs.so $(SONAME) \
    $(basename $(EXAMPLE_SRC))

.PHONY: all test test-mpi check check-random tsan run bench fuzz install uninstall clean
.DELETE_ON_ERROR:

all: $(BUILD)/sbfs $(BUILD)/libsbfs.a $(SHARED)
ifeq ($(BUILD),build/opt)
all: sbfs libsbfs.a
sbfs: $(BUILD)/sbfs
	cp $< $@
libsbfs.a: $(BUILD)/libsbfs.a
	cp $< $@
endif

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

# The objects of the shared library are the same sources again, compiled
# position-independent; the static library and the sbfs binary keep theirs.
$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -MMD -MP -c $< -o $@

# It exports the functions the public headers declare and nothing else:
# the modules' shared insides (sb_levels_*, np_*, ...) stay free to change
# without a new major version.  The list is read off the headers.
$(BUILD)/libsbfs.map: $(wildcard include/sbfs/*.h)
	@mkdir -p $(dir $@)
	{ echo 'SBFS_$(MAJOR) {'; echo 'global:'; \
	  grep -ohE '\b(sb_[a-z0-9_]+|[A-Z][a-z]+Playfair)[[:space:]]*\(' $^ | tr -d ' (' | sort -u | sed 's/.*/    &;/'; \
	  echo 'local: *;'; echo '};'; } > $@

$(BUILD)/libsbfs.so.$(VERSION): $(PIC_OBJ) $(BUILD)/libsbfs.map
	$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--version-script,$(BUILD)/libsbfs.map \
	    -o $@ $(PIC_OBJ) $(LDLIBS)

$(BUILD)/$(SONAME) $(BUILD)/libsbfs.so: $(BUILD)/libsbfs.so.$(VERSION)
	ln -sf $(notdir $<) $(BUILD)/$(SONAME)
	ln -sf $(SONAME) $(BUILD)/libsbfs.so

$(BUILD)/libsbfs.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/sbfs: $(CLI_OBJ) $(BUILD)/libsbfs.a
	$(CC) $(ALL_CFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/libsbfs.a $(LDLIBS)

$(BUILD)/test_%: tests/test_%.c tests/harness.h $(BUILD)/libsbfs.a
	$(CC) $(ALL_CFLAGS) -Itests -MMD -MP -o $@ $< $(BUILD)/libsbfs.a $(LDLIBS)

# The public headers compiled as C++ (their extern "C" guards), and the
# example programs, which see only the installed headers and the library.
$(BUILD)/test_cxx: tests/test_cxx.cpp tests/harness.h $(BUILD)/libsbfs.a
	$(CXX) $(ALL_CXXFLAGS) -Itests -MMD -MP -o $@ $< $(BUILD)/libsbfs.a $(LDLIBS)

$(BUILD)/examples/%: examples/%.c $(BUILD)/libsbfs.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -o $@ $< $(BUILD)/libsbfs.a $(LDLIBS)

$(BUILD)/examples/%: examples/%.cpp $(BUILD)/libsbfs.a
	@mkdir -p $(dir $@)
	$(CXX) $(ALL_CXXFLAGS) -MMD -MP -o $@ $< $(BUILD)/libsbfs.a $(LDLIBS)

# The verifiers replay solutions with code of their own: no library, no
# library headers.
$(BUILD)/verify_%: tests/verify_%.c
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -Iinclude,$(ALL_CFLAGS)) -MMD -MP -o $@ $< $(LDLIBS)

check: $(addprefix $(BUILD)/,$(CHECK_BIN))
	SBFS_SANITIZED=$(SAN) ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1 sh tests/run.sh $(BUILD)

test:
	$(MAKE) --no-print-directory -j$(JOBS) BUILD=build/test WERROR=1 $(addprefix build/test/,$(CHECK_BIN))
	$(MAKE) --no-print-directory BUILD=build/test WERROR=1 check
	$(MAKE) --no-print-directory -j$(JOBS) BUILD=build/asan SAN=1 WERROR=1 $(addprefix build/asan/,$(CHECK_BIN))
	$(MAKE) --no-print-directory BUILD=build/asan SAN=1 WERROR=1 check

# The unit tests whose code runs on threads (the pool, both key engines,
# the indexed engine, pattern databases, parallel IDA* and the n-puzzle
# batches, the Tetraminx, Playfair), built by
# clang with ThreadSanitizer: a data race fails them.
TSAN_TESTS = test_core test_search test_keysort test_random_slide test_table test_pdb test_ida test_npuzzle test_tetraminx test_playfair
tsan:
	$(MAKE) --no-print-directory -j$(JOBS) BUILD=build/tsan SAN=thread CC=clang WERROR=1 $(addprefix build/tsan/,$(TSAN_TESTS))
	@for t in $(TSAN_TESTS); do \
	    echo "  $$t under ThreadSanitizer"; \
	    SBFS_SANITIZED=1 SBFS_RANDOM_N=100 TSAN_OPTIONS=halt_on_error=1 build/tsan/$$t >build/tsan/$$t.log 2>&1 || \
	        { tail -n 30 build/tsan/$$t.log; exit 1; }; \
	    tail -n 1 build/tsan/$$t.log; \
	done

# The MPI build and its tests; the one-process build is the reference.
test-mpi:
	$(MAKE) --no-print-directory -j$(JOBS) MPI=1 WERROR=1 build/mpi/sbfs
	$(MAKE) --no-print-directory -j$(JOBS) BUILD=build/test WERROR=1 build/test/sbfs build/test/test_random_slide \
	    $(addprefix build/test/,$(notdir $(VERIFY_BIN)))
	sh tests/mpi/run.sh build/mpi/sbfs build/test

N ?= 20000
SEED ?= 1
check-random: $(BUILD)/test_random_slide
	SBFS_RANDOM_N=$(N) SBFS_RANDOM_SEED=$(SEED) $(BUILD)/test_random_slide

run: all
	./sbfs solve puzzles/shift.txt

bench: all $(VERIFY_BIN)
	SBFS=$(CURDIR)/sbfs SBFS_BUILD=$(CURDIR)/$(BUILD) sh bench/run.sh

# libFuzzer targets are built by clang straight from the library sources.
build/fuzz/%: fuzz/%.c $(LIB_SRC) $(wildcard tests/*.h)
	@mkdir -p build/fuzz
	clang -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude -Itests -g -O1 -fsanitize=fuzzer,address,undefined \
	    -fno-sanitize-recover=undefined -o $@ $< $(LIB_SRC) $(LDLIBS)

fuzz: $(FUZZ_BIN)
	@for f in $(FUZZ_BIN); do \
	    n=$$(basename $$f); mkdir -p build/fuzz/corpus-$$n; \
	    seeds=fuzz/seeds-$${n#fuzz_}; [ -d $$seeds ] || seeds=; \
	    echo "fuzzing $$n for $(FUZZ_TIME) s"; \
	    $$f -max_total_time=$(FUZZ_TIME) -timeout=10 -rss_limit_mb=2048 -print_final_stats=0 \
	        build/fuzz/corpus-$$n $$seeds 2>build/fuzz/$$n.log || { tail -n 40 build/fuzz/$$n.log; exit 1; }; \
	    grep -E '^#[0-9]+.*DONE' build/fuzz/$$n.log | tail -n 1; \
	done

# Installs what `make` built in $(BUILD).  The shared library goes in under
# its full version with the two links a system expects: the soname one,
# which programs load, and libsbfs.so, which the linker finds for -lsbfs.
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)/sbfs \
	    $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DOCDIR) $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	install -m 755 $(BUILD)/sbfs $(DESTDIR)$(BINDIR)/sbfs
	install -m 644 $(BUILD)/libsbfs.a $(DESTDIR)$(LIBDIR)/libsbfs.a
	install -m 755 $(BUILD)/libsbfs.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libsbfs.so.$(VERSION)
	ln -sf libsbfs.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libsbfs.so
	install -m 644 include/sbfs/*.h $(DESTDIR)$(INCLUDEDIR)/sbfs/
	install -m 644 docs/sbfs.1 $(DESTDIR)$(MANDIR)/man1/sbfs.1
	install -m 644 README.md LICENSE docs/FORMAT.md docs/ALGORITHMS.md docs/sbfs-output.schema.json \
	    $(DESTDIR)$(DOCDIR)/
	install -d $(DESTDIR)$(DOCDIR)/examples
	install -m 644 examples/*.c examples/*.cpp examples/README $(DESTDIR)$(DOCDIR)/examples/
	install -m 644 completions/sbfs.bash $(DESTDIR)$(BASHCOMPDIR)/sbfs
	install -m 644 completions/_sbfs $(DESTDIR)$(ZSHCOMPDIR)/_sbfs
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	    -e 's|@VERSION@|$(VERSION)|' sbfs.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/sbfs.pc

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/sbfs $(DESTDIR)$(LIBDIR)/libsbfs.a $(DESTDIR)$(LIBDIR)/libsbfs.so.$(VERSION) \
	    $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libsbfs.so $(DESTDIR)$(LIBDIR)/pkgconfig/sbfs.pc \
	    $(DESTDIR)$(MANDIR)/man1/sbfs.1 $(DESTDIR)$(BASHCOMPDIR)/sbfs $(DESTDIR)$(ZSHCOMPDIR)/_sbfs
	rm -rf $(DESTDIR)$(INCLUDEDIR)/sbfs $(DESTDIR)$(DOCDIR)

clean:
	rm -rf build sbfs libsbfs.a

-include $(shell find build -name '*.d' 2>/dev/null)
