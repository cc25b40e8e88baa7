# One Makefile for everything: `make install`, `make run`, `make test`, `make lint`, `make bench`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
# One venv, installed in two steps: what the server runs and builds with (`make run`), then
# everything the tests, lint and benchmarks use on top (`make install`, `make test`).
SERVER_STAMP := $(VENV)/.installed-server
STAMP := $(VENV)/.installed-dev
PROTO_DIR := proto
GEN_DIR := gen
PROTOS := $(wildcard $(PROTO_DIR)/mahjong/shanghai/v1/*.proto)
GEN_STAMP := $(GEN_DIR)/.generated
NODE_CLIENT := clients/node
NODE_STAMP := $(NODE_CLIENT)/node_modules/.installed

# The hot path (compile_core.HOT_PATH: rules_core's modules, and the wire layer's JSON writer and
# readers that feed it) compiled with mypyc where a C compiler is present (docs/PERFORMANCE.md);
# the pure-Python package otherwise. rules_core imports the source of any module edited since.
# Rebuilt when any Python file of the three packages changes (a superset of the list).
HOT_PATH := $(wildcard rules_core/*.py convert/*.py batch/*.py)
CORE_STAMP := $(VENV)/.core-compiled
SUIT_TABLE := rules_core/unmelded_suits.bin
# The native readers and writers (batch/native/*.c, C over CPython's API), compiled with the hot path.
NATIVE := $(wildcard batch/native/*.c batch/native/*.h)
NATIVE_SANITIZED := build/native-sanitized

.PHONY: install install-server python-version gen client-java client-wheel run test test-pure debian-packages lint lint-imports bench bench-rules bench-memory bench-service bench-tracing-off bench-unary bench-review-batch bench-families-instructions profile-service bench-http bench-batch bench-batch-memory bench-records bench-advice bench-advice-families clean tools dashboard

install: install-server $(STAMP) $(NODE_STAMP)

# The server alone: its runtime pins (requirements.txt), the generated code and the compiled hot path.
install-server: $(SERVER_STAMP) $(GEN_STAMP) $(CORE_STAMP) $(SUIT_TABLE)

# Python 3.11, which every pin and the compiled hot path are for: any other stops the set-up at
# once, in one line, rather than in the middle of pip or mypyc.
python-version:
	@test -n "$(PYTHON)" || { echo "make: Python 3.11 is needed and none was found: install python3.11"; exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else "make: Python 3.11 is needed, $(PYTHON) is %d.%d: install python3.11, or name it with make PYTHON=/path/to/python3.11" % sys.version_info[:2])'

$(SERVER_STAMP): requirements.txt requirements-build.txt pyproject.toml | python-version
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt -r requirements-build.txt
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

# After the compiled hot path (order only), so that no pip writes into the venv while mypyc reads it:
# `make -j` then runs the venv's steps in turn, beside the Node.js packages and the tools' venv.
$(STAMP): $(SERVER_STAMP) requirements-dev.txt requirements-batch.txt requirements-spark.txt | $(CORE_STAMP)
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

# Generated protobuf code: built here, never edited, rebuilt whenever a .proto changes.
# The venv finds them through a .pth file. The descriptor set keeps the .proto comments,
# which the settlement explorer shows as the meaning of every profile field and enum value;
# it lies in the generated package, whose package data carries it into the image's wheel.
gen: $(GEN_STAMP)
$(GEN_STAMP): $(PROTOS) $(SERVER_STAMP) Makefile
	rm -rf $(GEN_DIR) && mkdir -p $(GEN_DIR)/mahjong/shanghai/v1
	echo "$(CURDIR)/$(GEN_DIR)" > "$$($(PY) -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/shmj-generated.pth"
	test -z "$(PROTOS)" || $(PY) -m grpc_tools.protoc -I $(PROTO_DIR) \
		--python_out=$(GEN_DIR) --grpc_python_out=$(GEN_DIR) \
		--mypy_out=$(GEN_DIR) --mypy_grpc_out=$(GEN_DIR) \
		--plugin=protoc-gen-mypy=$(VENV)/bin/protoc-gen-mypy \
		--plugin=protoc-gen-mypy_grpc=$(VENV)/bin/protoc-gen-mypy_grpc \
		--descriptor_set_out=$(GEN_DIR)/mahjong/shanghai/v1/shmj_descriptors.binpb --include_source_info \
		$(PROTOS:$(PROTO_DIR)/%=%)
	touch $(GEN_STAMP)

$(CORE_STAMP): $(HOT_PATH) $(NATIVE) rules_core/compiled.py compile_core.py $(SERVER_STAMP) | $(GEN_STAMP)
	rm -f rules_core/*.so convert/*.so batch/*.so batch/native/*.so rules_core__mypyc*.so rules_core/compiled-sources.json
	if command -v gcc >/dev/null; then \
		$(PY) compile_core.py >build-core.log 2>&1 && rm build-core.log \
		|| { rm -f rules_core/*.so convert/*.so batch/*.so batch/native/*.so rules_core__mypyc*.so rules_core/compiled-sources.json; echo "compiling rules_core failed (build-core.log): it runs as pure Python"; }; \
	else echo "no C compiler: rules_core runs as pure Python"; fi
	touch $@

# Every suit no meld holds a tile of (405,350), searched once with the compiled search and written
# beside it with a witness per slot with chows (rules_core/unmelded_suits.py; 37 MB): advice reads a
# suit seen first from it, and a suit a meld holds tiles of where the witnesses, or a walk for
# another target part (rules_core/melded_suits.py), prove its overlaps. About a minute.
$(SUIT_TABLE): rules_core/target_parts.py rules_core/unmelded_suits.py rules_core/unmelded_suits_build.py $(CORE_STAMP)
	$(PY) -c 'import rules_core.unmelded_suits_build as table; print(table.build(), "suits written to", table.TABLE_FILE)'

# The Node.js client the tests run against the server: its packages from the lock file.
$(NODE_STAMP): $(NODE_CLIENT)/package.json $(NODE_CLIENT)/package-lock.json
	if command -v npm >/dev/null; then \
		cd $(NODE_CLIENT) && npm ci --no-audit --no-fund --loglevel=error && touch node_modules/.installed; \
	else echo "npm not found: install Debian's npm and run make install again (the Node.js client's tests fail without its packages)"; fi

# The Java client (clients/java), built offline from Debian's packages: protoc, the grpc-java
# plugin and javac against the jars in /usr/share/java (clients/java/build.sh names them).
JAVA_CLIENT := build/java/shmj-client.jar
client-java: $(JAVA_CLIENT)
$(JAVA_CLIENT): $(PROTOS) $(wildcard clients/java/src/com/mahjong/shanghai/client/*.java) clients/java/build.sh
	clients/java/build.sh build/java

# The Python client library as a wheel of its own (build/dist/shmj_client-*.whl; docs/CLIENTS.md):
# pure Python, needing grpcio, protobuf and googleapis-common-protos only.
client-wheel: $(GEN_STAMP)
	$(PY) clients/python/build_wheel.py --out build/dist

# The Go and C++ clients and their example programs (clients/go, clients/cpp), built offline
# from Debian's packages into build/clients/ (clients/toolchain.sh names the packages).
.PHONY: client-go client-cpp
client-go:
	$(MAKE) -C clients/go
client-cpp:
	$(MAKE) -C clients/cpp GOOGLEAPIS_DIR="$$($(PY) -c 'import google.rpc, pathlib; print(pathlib.Path(google.rpc.__path__[0]).parents[1])')"

run: install-server
	$(VENV)/bin/shmj-server

# The whole suite against the build make install made and, beside it, the rules' tests against
# the pure-Python source too when that build is the compiled one (their report follows the
# suite's). The Debian packages come first: gcc must be there before install compiles
# rules_core, python3.11-venv before the venvs.
# The suite runs in TEST_WORKERS processes (pytest-xdist), each test file whole in one of them,
# so that a file's fixtures (a server, a built client, the image's wheels) are made once:
# most tests wait on servers, compilers and other processes, and meanwhile others run.
# TEST_WORKERS=0 runs it in this process alone.
TEST_WORKERS ?= 3
PURE_LOG := build/test-pure.log
test: debian-packages
	$(MAKE) -j3 install tools
	mkdir -p build
	if $(PY) -c "import rules_core, sys; sys.exit(rules_core.BUILD != 'compiled')"; then \
		SHMJ_PURE_PYTHON=1 $(PY) -m pytest -p no:cacheprovider tests/rules_core >$(PURE_LOG) 2>&1 & pure=$$!; \
	else pure=; fi; \
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --durations=15; suite=$$?; \
	[ -z "$$pure" ] || { wait $$pure; pure_status=$$?; \
		echo "tests/rules_core against the pure-Python source (SHMJ_PURE_PYTHON=1):"; cat $(PURE_LOG); \
		[ $$pure_status = 0 ] || suite=1; }; \
	exit $$suite

# The Debian packages of .ci/debian-packages that this machine lacks (apt-get, as root; none
# needed when nothing is missing; otherwise it says what to install and fails).
debian-packages:
	$(PYTHON) .ci/install_debian_packages.py

# The container image, built by buildah from deploy/Dockerfile on a Debian base made here
# (no Docker engine; docs/OPERATIONS.md), and its tests: served for real, not part of `make test`.
IMAGE ?= localhost/shmj-scoring:dev
.PHONY: image image-packages test-image
image: image-packages
	deploy/image/build.sh $(IMAGE)

# The Debian packages of .ci/debian-packages-image that this machine lacks (buildah, debootstrap).
image-packages:
	$(PYTHON) .ci/install_debian_packages.py --list .ci/debian-packages-image

test-image: install image
	SHMJ_IMAGE=$(IMAGE) $(PY) -m pytest tests/image

# The rules' tests against the pure-Python source, whatever the build.
test-pure: install
	SHMJ_PURE_PYTHON=1 $(PY) -m pytest tests/rules_core

# The deploy checkers (kubectl kustomize, kubernetes-validate, checkov, hadolint) in a venv of
# their own: checkov's dependencies would clash with the project's pins.
TOOLS := .tools
TOOLS_STAMP := $(TOOLS)/.installed
tools: $(TOOLS_STAMP)
$(TOOLS_STAMP): requirements-tools.txt
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/python -m pip install --quiet --upgrade pip
	$(TOOLS)/bin/python -m pip install --quiet -r requirements-tools.txt
	touch $@

# rules_core's layering (pyproject.toml, [tool.importlinter]): it imports nothing else of the
# project, nor gRPC or protobuf, and its modules form no import circle. `make test` runs it too
# (tests/rules_core/test_layering.py).
lint-imports: install
	$(VENV)/bin/lint-imports

lint: install lint-imports
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	cd $(PROTO_DIR) && ../$(VENV)/bin/buf lint

# The benchmark's reference library is kept out of the venv: its top-level package is
# also named `mahjong`, which would shadow the generated `mahjong.shanghai.v1`.
BENCH_DEPS := .bench-deps
bench: bench-rules bench-service

# PyMahjongGB, the compiled-code reference, builds from source with the machine's C++ compiler.
BENCH_STAMP := $(BENCH_DEPS)/.installed
$(BENCH_STAMP): requirements-bench.txt $(STAMP)
	rm -rf $(BENCH_DEPS)
	$(PY) -m pip install --quiet --target $(BENCH_DEPS) -r requirements-bench.txt
	touch $@

bench-rules: install $(BENCH_STAMP)
	$(PY) -m bench.rules_core_bench --reference-path $(BENCH_DEPS)

# A worker's memory over 3 million distinct hands (RSS at every 250,000, every cache's size).
bench-memory: install
	$(PY) -m bench.memory_bench --count 3000000

# Throughput with 1 and 2 workers, then a unary Settle's worker CPU against a bare grpc.aio
# servicer and its p99 at 1,000 calls/s, driven by h2load (installed from Debian when missing).
bench-service: install
	$(PY) -m bench.service_bench

# What issue 25's per-call work costs a unary Settle with tracing off: HEAD against HEAD with
# bench/without_versioned_answers.patch applied, in a compiled checkout beside this one (a git
# worktree), rounds interleaved under h2load; then the two handlers' instructions per call,
# counted by valgrind (docs/PERFORMANCE.md).
WITHOUT_ISSUE_25 := $(dir $(CURDIR))$(notdir $(CURDIR))-without-versioned-answers
bench-tracing-off: install
	$(PY) -m bench.without_versioned_answers --checkout $(WITHOUT_ISSUE_25) --rounds 30 --calls 6000 \
		--open-loop-rounds 1 --seconds 3 --output bench/results/tracing-off-ab-bench.json
	$(PY) -m bench.unary_instructions --baseline $(WITHOUT_ISSUE_25)

# A unary Settle's worker CPU against a bare grpc.aio servicer answering the same bytes (h2load).
bench-unary: install $(BENCH_STAMP)
	$(PY) -m bench.unary_cost --calls 8000 --rounds 6 --seconds 2 --open-loop-rounds 1

# Reviewing a file of simulated hand records in bulk (shmj review -o), against the review alone.
bench-review-batch: install $(BENCH_STAMP)
	$(PY) -m bench.review_batch_bench

# The rule families' settlements against classic's, in instructions (valgrind's callgrind).
bench-families-instructions: install $(BENCH_STAMP)
	$(PY) -m bench.families_instructions

# A py-spy flame graph of a worker under unary Settle load (py-spy from requirements-bench.txt).
profile-service: install $(BENCH_STAMP)
	$(PY) -m bench.unary_cost --rounds 1 --calls 2000 --seconds 2 --profile service-profile.svg

# What serving HTTP costs gRPC, and unary Settle over Connect against gRPC (docs/HTTP.md).
# Batch rescoring: one process against Dask local:1 and local:2, JSON Lines and Parquet.
bench-batch: install
	$(PY) -m bench.batch_bench

# A batch worker's resident set over 10 million records, JSON Lines and the Arrow core.
bench-batch-memory: install
	$(PY) -m bench.batch_memory --records 10000000

bench-http: install
	$(PY) -m bench.http_bench

# Advice against `mahjong`'s regular shanten on the same 10,000 holdings (shanten 0-3, with
# melds and without), and the review of simulated records (RULES.md section 15).
bench-advice: install $(BENCH_STAMP)
	$(PY) -m bench.advice_bench --reference-path $(BENCH_DEPS) --json bench/results/advice.json

# The same under the section 14 profiles, with advise timed per profile (median and maximum).
bench-advice-families: install $(BENCH_STAMP)
	$(PY) -m bench.advice_bench --reference-path $(BENCH_DEPS) --count 2000 --records 50 \
		--profiles qiaoma,qiaoma_lezi,qinghunpeng,qinghunpeng+seven_pairs,qiaoma_lezi+seven_pairs \
		--json bench/results/advice-families.json

# Replaying simulated hand records of about 100 events against settling what they imply,
# compiled and pure (docs/PERFORMANCE.md).
bench-records: install
	$(PY) -m bench.records_bench --json bench/results/records-bench.json

# gRPC health latency in a worker while two 10k-hand JSON batches run over HTTP (docs/HTTP.md).
.PHONY: bench-json-batches
bench-json-batches: install
	$(PY) -m bench.json_batches --batches 2 --hands 10000 --seconds 20

# The settlement explorer's screenshots in docs/ (a real server, Debian's chromium).
.PHONY: explorer-screenshots
explorer-screenshots: install
	$(PY) -m tests.explorer.screenshots

.PHONY: fuzz fuzz-native test-native-sanitized
# atheris (requirements-fuzz.txt), for fuzz and fuzz-native.
FUZZ_SEED ?= 1
FUZZ_COUNT ?= 50000
FUZZ_SECONDS ?= 120
FUZZ_STAMP := $(VENV)/.fuzz-installed
$(FUZZ_STAMP): requirements-fuzz.txt $(STAMP)
	$(PY) -m pip install --quiet -r requirements-fuzz.txt
	touch $@

# The native modules built with AddressSanitizer and UndefinedBehaviorSanitizer (rebuilt when a C
# file or a header changes), and their tests (marked native) run against that build: a read past
# a buffer or a bad cast stops the run. .ci/run runs it.
SANITIZED_STAMP := $(NATIVE_SANITIZED)/.built
SANITIZED_RUN := ASAN_OPTIONS=detect_leaks=0 LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libubsan.so)" \
	SHMJ_NATIVE_DIR=$(CURDIR)/$(NATIVE_SANITIZED)/batch/native
$(SANITIZED_STAMP): $(NATIVE) compile_core.py
	mkdir -p build
	$(PY) compile_core.py --sanitized $(NATIVE_SANITIZED) >$(NATIVE_SANITIZED).log 2>&1 || { cat $(NATIVE_SANITIZED).log; exit 1; }
	touch $@

test-native-sanitized: install $(SANITIZED_STAMP)
	$(SANITIZED_RUN) $(PY) -m pytest -p no:cacheprovider -q -m native tests

# Each native module fuzzed coverage-guided against its Python twin (atheris, on the usual build),
# and every input the fuzzer kept replayed against the sanitized build (tests/fuzz/native_guided.py).
FUZZ_NATIVE_SECONDS ?= 30
NATIVE_MODULES := $(basename $(notdir $(wildcard batch/native/*.c)))
NATIVE_CORPUS := build/native-corpus
fuzz-native: install $(FUZZ_STAMP) $(SANITIZED_STAMP)
	for module in $(NATIVE_MODULES); do \
		rm -rf $(NATIVE_CORPUS)/$$module && \
		$(PY) -m tests.fuzz.native_guided $$module --corpus $(NATIVE_CORPUS)/$$module \
			-max_total_time=$(FUZZ_NATIVE_SECONDS) -timeout=10 -seed=$(FUZZ_SEED) && \
		$(SANITIZED_RUN) $(PY) -m tests.fuzz.native_guided $$module --replay $(NATIVE_CORPUS)/$$module || exit 1; \
	done

# Hostile bodies for every rpc over a real channel (see docs/RELIABILITY.md), then
# coverage-guided fuzzing of the notation parser, the JSON reader and the profile file reader.
fuzz: install $(FUZZ_STAMP)
	$(PY) -m tests.fuzz --seed $(FUZZ_SEED) --count $(FUZZ_COUNT) --report fuzz-report.json
	$(PY) -m tests.fuzz.coverage_guided notation -max_total_time=$(FUZZ_SECONDS) -timeout=5 -seed=$(FUZZ_SEED)
	$(PY) -m tests.fuzz.coverage_guided json -max_total_time=$(FUZZ_SECONDS) -timeout=5 -seed=$(FUZZ_SEED)
	$(PY) -m tests.fuzz.coverage_guided profile -max_total_time=$(FUZZ_SECONDS) -timeout=5 -seed=$(FUZZ_SEED)

.PHONY: families-differential
# RULES.md section 14's profiles against the independent reference of tests/rules_core/reference_families
# on 100,000 generated hands (make test runs 2,000).
FAMILIES_HANDS ?= 100000
FAMILIES_SEED ?= 33
families-differential:
	FAMILIES_DIFFERENTIAL_HANDS=$(FAMILIES_HANDS) FAMILIES_DIFFERENTIAL_SEED=$(FAMILIES_SEED) \
		$(PY) -m pytest tests/rules_core/test_families_reference.py -q -k generated_hands

.PHONY: advice-differential
# RULES.md section 15 against the independent reference of tests/rules_core/reference_advice: 20 times
# the holdings and records make test runs. classic, sankou, lezi: 2,400 waiting and 120 acting holdings,
# 40 records; qiaoma, qiaoma_lezi, qinghunpeng: 4,000 waiting and 200 acting holdings and 60 records
# each (tens of minutes).
ADVICE_SCALE ?= 20
advice-differential:
	SHMJ_ADVICE_ACCEPTANCE=$(ADVICE_SCALE) $(PY) -m pytest tests/rules_core/test_advice_acceptance.py \
		tests/rules_core/test_advice_families_acceptance.py -q

.PHONY: soak
# Ten minutes at a fixed rate, 10% malformed, against two workers: RSS, fds and latency over time.
SOAK_SECONDS ?= 600
SOAK_RATE ?= 200
soak: install soak-hostile
	$(PY) -m bench.soak --duration $(SOAK_SECONDS) --rate $(SOAK_RATE) --report soak-report.json --plot soak-report.png

# The reference part of docs/API.md, from the .proto files' descriptors and comments (a test
# fails when the committed text is stale).
.PHONY: api-doc
api-doc: install
	$(PY) docs/api_reference.py

# Hostile clients at full size against two workers (docs/RELIABILITY.md): 600 gRPC streams each
# holding a body just under the core's limit, the issue's 60 x 30 MB, 72 streams holding 1 KB of a
# body (their calls end after --grpc-body-timeout-s while a client calls Settle), 40 HTTP bodies of 15 MB,
# then 43,500 silent HTTP connections from three addresses while gRPC health is checked. First,
# each hostile body of the hardening rounds sent whole (a huge JSON batch, nested arrays, empty
# protobuf entries, the explorer's, gzip members, tracing's): the workers' CPU per request and per
# byte, and a gRPC probe's p99 meanwhile (bench/results/soak-hostile.json).
.PHONY: soak-hostile
soak-hostile: install
	$(PY) -m bench.hostile_bodies --report bench/results/soak-hostile.json
	$(PY) -m bench.incomplete_bodies --connections 60 --holder-addresses 60 --streams 10 --body-mb 4.1 --hold-s 30 --report soak-incomplete-grpc.json
	$(PY) -m bench.incomplete_bodies --connections 60 --holder-addresses 60 --streams 1 --body-mb 30 --hold-s 30 --report soak-incomplete-grpc-30mb.json
	$(PY) -m bench.incomplete_bodies --workers 1 --connections 4 --streams 18 --body-mb 0.001 --hold-s 30 --probe --report soak-incomplete-grpc-held.json
	$(PY) -m bench.incomplete_bodies --workers 1 --connections 4 --streams 18 --body-mb 0.001 --hold-s 30 --reopen --probe --report soak-incomplete-grpc-reopened.json
	$(PY) -m bench.incomplete_bodies --http --connections 40 --body-mb 15 --hold-s 20 --report soak-incomplete-http.json
	$(PY) -m bench.http_flood --connections 43500 --sources 3 --hold-s 30 --report soak-http-flood.json

# The Grafana dashboard's JSON, from its code (a test fails when the committed JSON is stale).
dashboard: install
	$(PY) deploy/grafana/dashboard.py

clean:
	rm -rf $(VENV) $(GEN_DIR) $(BENCH_DEPS) $(NODE_CLIENT)/node_modules $(TOOLS) build
	rm -f rules_core/*.so convert/*.so batch/*.so batch/native/*.so rules_core__mypyc*.so rules_core/compiled-sources.json $(SUIT_TABLE)
