# cryptobench - GNU make.  `make` builds ./cryptobench; `make check` runs
# every test; `make bench` runs the main job.  `make help` lists targets.
#
# Honoured: CC CFLAGS CPPFLAGS LDFLAGS LDLIBS PREFIX DESTDIR V=1.
# Libraries are found with pkg-config; scripts/deps.sh installs missing
# Debian packages when run as root, and otherwise prints the command.

CC      ?= cc
CFLAGS  ?= -O2 -g
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share/cryptobench
MANDIR  ?= $(PREFIX)/share/man
LIBDIR  ?= $(PREFIX)/lib
PLUGINDIR  ?= $(LIBDIR)/cryptobench/plugins
INCLUDEDIR ?= $(PREFIX)/include
BUILD   ?= build

# The library backends are plug-ins (docs/plugins.md): backends/LIB.c into
# $(BUILD)/plugins/LIB.so with LIB's pkg-config flags; the program links
# none of them.  plugins/*/ are plug-ins built by their own Makefiles.
PLUGIN_LIBS := openssl gcrypt nettle
PKG_openssl := libcrypto
PKG_gcrypt  := libgcrypt
PKG_nettle  := nettle
EXT_PLUGINS := $(notdir $(wildcard plugins/*))
PLUGINS  := $(PLUGIN_LIBS:%=$(BUILD)/plugins/%.so) \
            $(EXT_PLUGINS:%=$(BUILD)/plugins/%.so)
WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wformat=2 -Wvla -Wno-unused-parameter
ALL_CPPFLAGS = -Iinclude -Isrc -Ibackends -Ibackends/native -D_GNU_SOURCE \
               -DCB_DATADIR='"$(DATADIR)"' -DCB_PLUGINDIR='"$(PLUGINDIR)"' \
               $(CPPFLAGS)
ALL_CPPFLAGS += -DCB_CFLAGS='"$(CFLAGS)"'
ALL_CFLAGS   = -std=c11 $(WARN) -pthread $(CFLAGS) $(SANFLAGS)
ALL_LDLIBS   = -lm -pthread -ldl $(LDLIBS)

ifeq ($(V),1)
Q :=
else
Q := @
endif

# The native backend's fast path for the target: x86-64 assembly, or the
# AArch64 Crypto Extensions (backends/native/aarch64/, built with +crypto);
# other targets build native as a stub that says it is unavailable.
# (the compiler's target; before the first build installs a compiler, the
# machine's: uname -m)
ARCH     := $(or $(shell $(CC) -dumpmachine 2>/dev/null | cut -d- -f1),$(shell uname -m))
SRCS     := $(filter-out src/commands/main.c,$(wildcard src/*/*.c)) \
            backends/kernel.c $(wildcard backends/native/*.c)
ifeq ($(ARCH),x86_64)
ASMS     := $(wildcard backends/native/x86_64/*.S)
else
ASMS     :=
endif
ifeq ($(ARCH),aarch64)
SRCS     += $(wildcard backends/native/aarch64/*.c)
$(BUILD)/backends/native/aarch64/%.o: CFLAGS += -march=armv8-a+crypto
endif
OBJS     := $(SRCS:%.c=$(BUILD)/%.o) $(ASMS:%.S=$(BUILD)/%.o)
MAIN_OBJ := $(BUILD)/src/commands/main.o
TESTS    := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test_*.c))
# scripts/bench-anchor's arithmetic (tests/bench/anchor.c): built for
# bench-native and for make check (test_bench_native runs it)
ANCHOR   := $(BUILD)/tests/bench/anchor
# Fuzz targets (docs/fuzz.md): tests/fuzz/fuzz_T.c.  `make check` builds
# each with replay.c as test_fuzz_T (seed corpus + regression inputs);
# `make fuzz` builds them with libFuzzer under build/fuzz.  A target that
# includes a source file for its static parser links without that object.
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_OMIT_dd_opts      := src/commands/cmd_dd
FUZZ_OMIT_compare_opts := src/commands/cmd_compare
FUZZ_OMIT_report_opts  := src/commands/cmd_report
FUZZ_OMIT_kat_opts     := src/commands/cmd_kat
TESTS    += $(FUZZ_TARGETS:%=$(BUILD)/tests/test_fuzz_%)
FUZZ_SECONDS ?= 60
DEPS_OK  := $(BUILD)/.deps-ok

.PHONY: all check check-asan check-valgrind check-report check-fleet check-fresh check-kernel check-arm64 check-ct fleet bench bench-essiv bench-native bench-anchor bench-geli bench-generations parity plots reference \
        install uninstall clean help deps

all: cryptobench plugins

.PHONY: plugins
plugins: $(PLUGINS)

# The goals on the command line whose packages deps.sh installs together
# with the build's, before the first compile: one message, one install.
DEPS_GOALS := $(filter check check-asan check-valgrind check-kernel bench bench-essiv bench-native bench-anchor \
                bench-geli bench-generations bench-power parity plots fuzz ci,$(MAKECMDGOALS))

$(DEPS_OK):
	$(Q)scripts/deps.sh build $(DEPS_GOALS)
	$(Q)mkdir -p $(@D) && touch $@

cryptobench: $(MAIN_OBJ) $(OBJS) | $(PLUGINS)
	@$(if $(Q),echo "  LD      $@";)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(ALL_LDLIBS)

$(BUILD)/%.o: %.c | $(DEPS_OK)
	@$(if $(Q),echo "  CC      $<";)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# A plug-in's object: position independent, only its entry point exported.
$(BUILD)/plugins/%.o: backends/%.c | $(DEPS_OK)
	@$(if $(Q),echo "  CC      $@";)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -Iinclude -Ibackends -D_GNU_SOURCE $(CPPFLAGS) $(ALL_CFLAGS) \
	    -fPIC -fvisibility=hidden $(shell pkg-config --cflags $(PKG_$*)) \
	    -MMD -MP -c -o $@ $<

$(PLUGIN_LIBS:%=$(BUILD)/plugins/%.so): $(BUILD)/plugins/%.so: $(BUILD)/plugins/%.o
	@$(if $(Q),echo "  LD      $@";)
	$(Q)$(CC) $(ALL_CFLAGS) -shared $(LDFLAGS) -o $@ $< \
	    $(shell pkg-config --libs $(PKG_$*))

# plugins/NAME: a plug-in with its own Makefile, as a third party's is
# built (the public header from include/); its output copied here.
$(EXT_PLUGINS:%=$(BUILD)/plugins/%.so): $(BUILD)/plugins/%.so: \
    $(wildcard plugins/*/*) include/cryptobench/plugin.h | $(DEPS_OK)
	@$(if $(Q),echo "  MAKE    plugins/$*";)
	$(Q)mkdir -p $(@D)
	$(Q)$(MAKE) --no-print-directory -s -C plugins/$* \
	    CB_INCLUDE=$(CURDIR)/include OUT=$(abspath $@) \
	    CC="$(CC)" CFLAGS="$(CFLAGS) $(SANFLAGS)"

$(BUILD)/%.o: %.S | $(DEPS_OK)
	@$(if $(Q),echo "  AS      $<";)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CPPFLAGS) $(SANFLAGS) $(ASFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(OBJS)
	@$(if $(Q),echo "  LD      $@";)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(ALL_LDLIBS)

$(BUILD)/tests/test_fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c \
                            tests/fuzz/fuzz.h $(OBJS)
	@$(if $(Q),echo "  LD      $@";)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -DFUZZ_TARGET='"$*"' $(LDFLAGS) \
	    -o $@ tests/fuzz/fuzz_$*.c tests/fuzz/replay.c \
	    $(filter-out $(BUILD)/$(FUZZ_OMIT_$*).o,$(OBJS)) $(ALL_LDLIBS)

$(BUILD)/bin/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(OBJS)
	@$(if $(Q),echo "  LD      $@";)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -fsanitize=fuzzer $(LDFLAGS) \
	    -o $@ $< $(filter-out $(BUILD)/$(FUZZ_OMIT_$*).o,$(OBJS)) \
	    $(ALL_LDLIBS)

deps:
	$(Q)scripts/deps.sh check

# Keep the test objects: make would otherwise delete them as intermediates
# after `make check` has printed its count line, and print that it did.
.SECONDARY:

## check: build and run every test; ends with "N passed, N failed"
check: cryptobench $(PLUGINS) $(TESTS) $(ANCHOR)
	$(Q)scripts/deps.sh check
	$(Q)BUILD=$(BUILD) tests/run.sh

## check-asan: the same under AddressSanitizer and UBSan (build/asan)
check-asan:
	$(Q)scripts/deps.sh check-asan
	$(Q)$(MAKE) --no-print-directory BUILD=build/asan \
	    SANFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	    CFLAGS="-O1 -g" CB_BIN=build/asan/cryptobench check-bin
	$(Q)ASAN_OPTIONS=detect_leaks=1 CB_BIN=build/asan/cryptobench \
	    BUILD=build/asan tests/run.sh

## bin: the binary alone, at CB_BIN (check-ct's planted build)
.PHONY: bin
bin: $(MAIN_OBJ) $(OBJS)
	$(Q)mkdir -p $(dir $(CB_BIN))
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $(CB_BIN) $(MAIN_OBJ) $(OBJS) $(ALL_LDLIBS)

.PHONY: check-bin
check-bin: $(MAIN_OBJ) $(OBJS) $(PLUGINS) $(TESTS) $(ANCHOR)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $(CB_BIN) $(MAIN_OBJ) $(OBJS) $(ALL_LDLIBS)

## fuzz: every libFuzzer target (tests/fuzz) for FUZZ_SECONDS each (60);
## fails on a crash, leak or undefined behaviour (docs/fuzz.md)
fuzz:
	$(Q)scripts/deps.sh fuzz
	$(Q)$(MAKE) --no-print-directory BUILD=build/fuzz CC=clang \
	    SANFLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	    CFLAGS="-O1 -g" ASFLAGS=-no-integrated-as fuzz-bin
	$(Q)FUZZ_SECONDS=$(FUZZ_SECONDS) sh tests/fuzz/run.sh $(FUZZ_TARGETS)

.PHONY: fuzz fuzz-bin
fuzz-bin: $(FUZZ_TARGETS:%=$(BUILD)/bin/fuzz_%)

## check-valgrind: the C tests and a command per code path under valgrind
## memcheck: no memory errors, no definite or indirect leaks (~4 min)
check-valgrind: cryptobench $(TESTS)
	$(Q)scripts/deps.sh check-valgrind
	$(Q)BUILD=$(BUILD) sh tests/valgrind.sh

## check-report: the HTML report tested in headless Chromium (installs it)
check-report: cryptobench
	$(Q)scripts/deps.sh check-report
	$(Q)CB=./cryptobench BUILD=$(BUILD) sh tests/test_report.sh

## check-fleet: the fleet playbook against three network-namespace hosts
## with their own sshd (root; skips with the reason otherwise)
check-fleet: cryptobench
	$(Q)scripts/deps.sh check-fleet
	$(Q)CB=./cryptobench sh tests/test_fleet.sh; rc=$$?; \
	    [ $$rc -eq 0 ] || [ $$rc -eq 77 ]

## check-kernel: Debian's kernel under qemu (TCG) with a test-built
## initramfs: the kernel backend, tcrypt and the real dm-crypt against
## cryptobench's images (tests/kernel; root, to read /boot/vmlinuz)
check-kernel: cryptobench $(BUILD)/tests/test_kernel $(BUILD)/tests/test_diff
	$(Q)scripts/deps.sh check-kernel
	$(Q)BUILD=$(BUILD) CB_BIN=./cryptobench tests/kernel/run.sh

## check-arm64: cryptobench on arm64 under qemu-user in a debootstrapped
## arm64 Debian 12 (the build, the C tests, kat, the peer suite, --cpu
## levels, sysinfo, bench-essiv's format; docs/arm64.md; root)
check-arm64:
	$(Q)scripts/deps.sh check-arm64
	$(Q)scripts/check-arm64

## check-fresh: the README's quick start on a minimal Debian 12 made by
## debootstrap, from a fresh clone of HEAD: make check, make bench (root)
check-fresh:
	$(Q)scripts/deps.sh check-fresh
	$(Q)scripts/fresh-debian

## fleet: cryptobench on every host of INVENTORY through Ansible, merged
## and compared by host (docs/fleet.md)
INVENTORY ?= fleet/inventory.example.ini
fleet: cryptobench
	$(Q)scripts/deps.sh fleet
	$(Q)scripts/fleet $(INVENTORY)

## The benchmark scripts (scripts/GOAL), each after its packages:
##   bench: the main job - the whole matrix in ~3 min (summary, CSV, JSON,
##          HTML report)
##   bench-essiv: the kernel report's comparison (tcrypt format)
##   bench-native: the native targets, ratios side by side with their CIs;
##          with BORINGSSL=DIR (BoringSSL's build directory, docs/speed.md)
##          native AES-256-GCM against BoringSSL at every --cpu level
##          (scripts/bench-anchor, which also runs alone: make bench-anchor)
##   bench-generations: one run per --cpu level, compared level to level
##   bench-geli: the geli report's matrix through cryptobench dd
##   parity: harness overhead vs `openssl speed`
SCRIPT_GOALS := bench bench-essiv bench-native bench-anchor bench-generations bench-geli parity
$(SCRIPT_GOALS): cryptobench
	$(Q)scripts/deps.sh $@
	$(Q)ANCHOR=$(ANCHOR) scripts/$@
bench-native bench-anchor: $(ANCHOR)

## bench-power: does compare see a planted slowdown?  Two benches with the
## test plug-in tests/power (build/tests/power.so, never in build/plugins/,
## which every run loads): off, then 1 request in POWER_EXTRA (20) twice;
## their compare, counted (scripts/bench-power, docs/plugins.md)
POWER_SO := $(BUILD)/tests/power.so
$(POWER_SO): tests/power/power_plugin.c include/cryptobench/plugin.h | $(DEPS_OK)
	@$(if $(Q),echo "  CC      $@";)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -std=c11 $(WARN) $(CFLAGS) -shared -fPIC -fvisibility=hidden \
	    -Iinclude -o $@ $< $(shell pkg-config --cflags --libs libcrypto)

## check-ct: cryptobench ct on every backend at --cpu generic and at the
## host's best level, the test plug-in's planted leaks (tests/ct) and a
## native build with a planted key-dependent branch (docs/ct.md)
CT_SO := $(BUILD)/tests/ctplant.so
$(CT_SO): tests/ct/ct_plugin.c include/cryptobench/plugin.h | $(DEPS_OK)
	@$(if $(Q),echo "  CC      $@";)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -std=c11 $(WARN) $(CFLAGS) -shared -fPIC -fvisibility=hidden \
	    -Iinclude -o $@ $< $(shell pkg-config --cflags --libs libcrypto)

.PHONY: check-ct
check-ct: cryptobench $(CT_SO)
	$(Q)scripts/deps.sh check-ct
	$(Q)BUILD=$(BUILD) CB_BIN=./cryptobench CT_SO=$(CT_SO) tests/ct/run.sh

.PHONY: bench-power
bench-power: cryptobench $(POWER_SO)
	$(Q)scripts/deps.sh $@
	$(Q)POWER_SO=$(POWER_SO) scripts/$@

## plots: PNG plots of results/*.csv into results/plots/ (regenerated)
# the reference library's CSVs from its texts (docs/import.md)
reference: cryptobench
	CB_BIN=./cryptobench scripts/import-reference

plots: cryptobench
	$(Q)scripts/deps.sh plots
	$(Q)scripts/plot --force

install: cryptobench $(PLUGINS)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/vectors
	install -d $(DESTDIR)$(PLUGINDIR) $(DESTDIR)$(INCLUDEDIR)/cryptobench
	install -m 755 $(PLUGINS) $(DESTDIR)$(PLUGINDIR)/
	install -m 644 include/cryptobench/plugin.h $(DESTDIR)$(INCLUDEDIR)/cryptobench/
	install -m 755 cryptobench $(DESTDIR)$(BINDIR)/cryptobench
	install -m 644 vectors/*.vec $(DESTDIR)$(DATADIR)/vectors/
	install -d $(DESTDIR)$(DATADIR)/reference
	install -m 644 results/reference/*.csv $(DESTDIR)$(DATADIR)/reference/
	install -d $(DESTDIR)$(MANDIR)/man1
	install -m 644 docs/cryptobench.1 $(DESTDIR)$(MANDIR)/man1/cryptobench.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/cryptobench
	rm -rf $(DESTDIR)$(LIBDIR)/cryptobench
	rm -f $(DESTDIR)$(INCLUDEDIR)/cryptobench/plugin.h
	-rmdir $(DESTDIR)$(INCLUDEDIR)/cryptobench 2>/dev/null
	rm -rf $(DESTDIR)$(LIBDIR)/cryptobench
	rm -f $(DESTDIR)$(INCLUDEDIR)/cryptobench/plugin.h
	-rmdir $(DESTDIR)$(INCLUDEDIR)/cryptobench 2>/dev/null
	rm -rf $(DESTDIR)$(DATADIR)
	rm -f $(DESTDIR)$(MANDIR)/man1/cryptobench.1

clean:
	rm -rf $(BUILD) build cryptobench

help:
	@echo "targets:"
	@echo "  all          build ./cryptobench (default)"
	@echo "  check        build and run every test"
	@echo "  check-asan   run the tests under ASan and UBSan"
	@echo "  check-report the HTML report in headless Chromium"
	@echo "  check-fleet  the fleet playbook against three namespace hosts (root)"
	@echo "  check-kernel the kernel backend, tcrypt and dm-crypt in Debian's kernel under qemu (root)"
	@echo "  check-arm64  the build, C tests, kat and peer suite on arm64 under qemu-user (root)"
	@echo "  check-fresh  README quick start on a debootstrap'd minimal Debian 12 (root)"
	@echo "  check-valgrind  the tests under valgrind memcheck"
	@echo "  fuzz         every libFuzzer target for FUZZ_SECONDS (default 60)"
	@echo "  fleet        INVENTORY=FILE: the same run on every host via Ansible"
	@echo "  bench        the main job: the whole matrix in ~3 min, summary and report"
	@echo "  bench-essiv  the kernel ESSIV report reproduced"
	@echo "  bench-native the native backend's targets, ratios with 95 % CIs"
	@echo "  bench-geli   the geli report reproduced through cryptobench dd"
	@echo "  bench-generations  --cpu levels side by side, compared level to level"
	@echo "  bench-power  does compare see a planted 1/N slowdown? (tests/power)"
	@echo "  parity       cryptobench's openssl backend vs openssl speed"
	@echo "  plots        PNG plots of results/*.csv into results/plots/"
	@echo "  reference    results/reference/*.csv from the texts beside them (cryptobench import)"
	@echo "  install      install to \$$(DESTDIR)\$$(PREFIX) (PREFIX=$(PREFIX))"
	@echo "  uninstall    remove what install installed"
	@echo "  clean        remove build outputs"

-include $(OBJS:.o=.d) $(MAIN_OBJ:.o=.d) $(TESTS:=.d) \
         $(PLUGIN_LIBS:%=$(BUILD)/plugins/%.d)
