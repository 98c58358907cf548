# install/build.mk - `make install` and `make uninstall`: the tool, the
# reference, the candidate ABI for kernel builds and the data the tool reads.
#
#   $(PREFIX)/bin/reshape-conform                the harness
#   $(PREFIX)/libexec/reshape-conform/reshape-conform-worker
#                                                its zygotes and workers (found
#                                                as ../libexec/... from bin/)
#   $(PREFIX)/lib/libreshape_ref.so              the reference candidate
#   $(PREFIX)/include/reshape_candidate.h        the candidate ABI
#   $(PREFIX)/include/reshape_adapter*.h         the adapter kit (header-only;
#                                                the same -I as the ABI)
#   $(PREFIX)/lib/pkgconfig/reshape-candidate.pc `pkg-config --cflags reshape-candidate`
#   $(PREFIX)/share/reshape-conform/             cases/, specs/, reports/ (the renderer
#                                                and its templates), and the documents
#                                                the header, --help and the manual page
#                                                name, each at its source-tree path
#                                                (README.md, docs/ with the harness
#                                                manual's docs/harness/, bench/README.md,
#                                                reference/DECISIONS.md, reports/SCHEMA.md,
#                                                harness/README.md ...)
#   $(PREFIX)/share/doc/reshape-conform          a link to ../reshape-conform
#   $(PREFIX)/share/man/man1/reshape-conform.1   the manual page
#
# DESTDIR is prepended to every path written (staged installs, packages).
# The harness finds share/reshape-conform/ from its own path
# (../share/reshape-conform), so a staged copy runs as the installed one
# does; nothing of PREFIX is compiled in.  The .pc file names its prefix
# from its own folder (${pcfiledir}/../..), so pkg-config on a staged copy
# gives the staged include folder.

PREFIX  ?= /usr/local
DESTDIR ?=
VERSION := 0.1.0

INST_BIN   = $(DESTDIR)$(PREFIX)/bin
INST_EXEC  = $(DESTDIR)$(PREFIX)/libexec/reshape-conform
INST_LIB   = $(DESTDIR)$(PREFIX)/lib
INST_INC   = $(DESTDIR)$(PREFIX)/include
INST_PC    = $(DESTDIR)$(PREFIX)/lib/pkgconfig
INST_SHARE = $(DESTDIR)$(PREFIX)/share/reshape-conform
INST_MAN   = $(DESTDIR)$(PREFIX)/share/man/man1
INST_DOC   = $(DESTDIR)$(PREFIX)/share/doc/reshape-conform

# The data, as paths of the source tree; they keep them below share/.
# The documents are every one the header, --help or the manual page names
# (tests/install/installed.sh checks that each resolves), and those they
# link to for the whole picture: README.md's pages (docs/, bench/README.md)
# and the harness manual's (harness/README.md, its pages in docs/harness/).
INSTALL_DOCS := README.md $(wildcard docs/*.md docs/harness/*.md) bench/README.md \
                harness/README.md harness/ARCHITECTURE.md reference/DECISIONS.md \
                reports/SCHEMA.md reports/README.md
INSTALL_DATA := $(sort $(shell find cases specs -type f \( -name '*.yaml' -o -name '*.md' \
                  -o -name '*.rst' \)) $(wildcard reports/*.py reports/templates/*) \
                  $(INSTALL_DOCS))

# The adapter kit, installed beside the ABI header it includes.
KIT_HEADERS := $(wildcard include/reshape_adapter*.h)

DEB_PACKAGES += pkgconf git
.PHONY: install uninstall

$(BUILD)/reshape-candidate.pc: install/reshape-candidate.pc.in FORCE_PC
	@mkdir -p $(@D)
	@t=$@.tmp.$$$$; sed -e 's|@VERSION@|$(VERSION)|g' $< >$$t && \
	  if cmp -s $$t $@; then rm -f $$t; else mv $$t $@; fi
.PHONY: FORCE_PC

# The suite's commit, stamped into the harness at build time, for an
# installed tree that has no checkout to ask (harness/report/suite_commit.c,
# -DSUITE_COMMIT_STAMP); build/gen/suite_commit.txt changes only when HEAD
# moved, so nothing is rebuilt otherwise.  Each writer has a temporary file
# of its own: make test's targets run as make processes side by side, and
# two sharing one name lost it to each other's mv.
SUITE_COMMIT := $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
$(BUILD)/gen/suite_commit.txt: FORCE_COMMIT
	@mkdir -p $(@D)
	@t=$@.tmp.$$$$; echo '$(SUITE_COMMIT)' >$$t && \
	  if cmp -s $$t $@; then rm -f $$t; else mv $$t $@; fi
.PHONY: FORCE_COMMIT
SUITE_COMMIT_OBJ := $(BUILD)/obj/harness/report/suite_commit.o \
                    $(BUILD)/san/obj/harness/report/suite_commit.o
$(SUITE_COMMIT_OBJ): $(BUILD)/gen/suite_commit.txt
$(SUITE_COMMIT_OBJ): CFLAGS += -DSUITE_COMMIT_STAMP='"$(SUITE_COMMIT)"'
$(SUITE_COMMIT_OBJ): SAN_CFLAGS += -DSUITE_COMMIT_STAMP='"$(SUITE_COMMIT)"'

install: $(BUILD)/reshape-conform $(BUILD)/libreshape_ref.so $(BUILD)/reshape-candidate.pc
	install -d $(INST_BIN) $(INST_EXEC) $(INST_LIB) $(INST_INC) $(INST_PC) $(INST_MAN)
	install -m 755 $(BUILD)/reshape-conform $(INST_BIN)/reshape-conform
	install -m 755 $(BUILD)/reshape-conform-worker $(INST_EXEC)/reshape-conform-worker
	install -m 644 $(BUILD)/libreshape_ref.so $(INST_LIB)/libreshape_ref.so
	install -m 644 include/reshape_candidate.h $(INST_INC)/reshape_candidate.h
	install -m 644 $(KIT_HEADERS) $(INST_INC)/
	install -m 644 $(BUILD)/reshape-candidate.pc $(INST_PC)/reshape-candidate.pc
	install -m 644 install/reshape-conform.1 $(INST_MAN)/reshape-conform.1
	@rm -rf $(INST_SHARE)
	@for f in $(INSTALL_DATA); do \
	  install -D -m 644 $$f $(INST_SHARE)/$$f || exit 1; done
	@echo "install: $(words $(INSTALL_DATA)) data files in $(INST_SHARE)"
	install -d $(dir $(INST_DOC))
	ln -sfn ../reshape-conform $(INST_DOC)

uninstall:
	rm -f $(INST_BIN)/reshape-conform $(INST_EXEC)/reshape-conform-worker \
	  $(INST_LIB)/libreshape_ref.so \
	  $(INST_INC)/reshape_candidate.h $(KIT_HEADERS:include/%=$(INST_INC)/%) \
	  $(INST_PC)/reshape-candidate.pc \
	  $(INST_MAN)/reshape-conform.1
	-rmdir $(INST_EXEC)
	rm -rf $(INST_SHARE) $(INST_DOC)
